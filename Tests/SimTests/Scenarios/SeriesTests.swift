import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

/// `"series"`: values sampled during each run, series.csv and time plots.
@Suite struct SeriesTests {
    static let text = """
    {
      "format": 1, "name": "series", "seed": 3, "replications": 3, "duration": "6h",
      "group": {"devices": 5, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
      "protocol": {"confirm": {"policy": "never"}},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "10min"}, "stop": "2h"}},
      "churn": {"online": {"dist": "exponential", "mean": "2h"}, "offline": {"dist": "exponential", "mean": "30min"}},
      "settle": "2h",
      "require": ["no-phantom", "ttl"],
      "metrics": ["messages_uploaded", "bytes_uploaded"]SERIES
    }
    """.replacingOccurrences(of: "SERIES", with: """
    ,
      "series": {"every": "15min", "metrics": ["shares_on_servers", "devices_online", "messages_uploaded", "bytes_uploaded",
                                               "unsent_messages"]}
    """)
    static let withoutSeries = text.components(separatedBy: ",\n  \"series\"")[0] + "\n}\n"

    func run(_ text: String) throws -> (LoadedScenario, [RunRecord]) {
        let s = try ScenarioLoader.load(ScenarioSource(label: "series.json", text: text))
        return (s, try ParallelRunner.execute(RunPlan(s).runs, executor: GrouperExecutor(), jobs: 2))
    }

    @Test func grouperSeriesFollowTheRun() throws {
        let (s, records) = try run(Self.text)
        let names = try #require(s.base.series).metrics
        let col = { (name: String) in names.firstIndex(of: SeriesName(rawValue: name)!)! }
        for r in records {
            #expect(r.series.count == 24)                                       // 6 h / 15 min
            let shares = r.series.map { $0[col("shares_on_servers")] }
            let online = r.series.map { $0[col("devices_online")] }
            let uploaded = r.series.map { $0[col("messages_uploaded")] }
            let bytes = r.series.map { $0[col("bytes_uploaded")] }
            #expect(shares.max()! > 0, "updates were stored")
            // No confirms, updates stop at 2 h, TTL 1 h, sweeps every minute: nothing is left.
            #expect(shares.suffix(4).allSatisfy { $0 == 0 }, "\(shares)")
            #expect(online.allSatisfy { $0 >= 0 && $0 <= 5 } && online.last == 5, "settled: all online")
            #expect(zip(uploaded, uploaded.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(zip(bytes, bytes.dropFirst()).allSatisfy { $0 <= $1 })
            // The last sample is at the end of the run; with no warm-up it equals the run's totals,
            // except that series count from the system's creation: the invitations (user/add to
            // 3 servers for each of 4 invitees, 100 bytes + 400 overhead each) come before.
            #expect(uploaded.last == r.metrics[0])
            #expect(bytes.last! - r.metrics[1] == 4 * 3 * 500, "\(bytes.last!) vs \(r.metrics[1])")
            #expect(r.series.last![col("unsent_messages")] == 0)
        }
    }

    @Test func samplingChangesNothingInTheRun() throws {
        let (_, with) = try run(Self.text)
        let (s, plain) = try run(Self.withoutSeries)
        #expect(s.base.series == nil)
        #expect(plain.map(\.fingerprint) == with.map(\.fingerprint))
        #expect(plain.map(\.metrics) == with.map(\.metrics))
    }

    @Test func seriesFilesAreWrittenAndSurviveShardsAndMerge() throws {
        let dir = ScenarioFixtures.tempDir("series-files")
        let f = dir.appendingPathComponent("s.json")
        let swept = Self.text.replacingOccurrences(of: "\"metrics\": [\"messages_uploaded\"",
                                                   with: "\"sweep\": [{\"path\": \"group.ttl\", \"values\": [\"30min\", \"1h\"]}], \"metrics\": [\"messages_uploaded\"")
        try Data(swept.utf8).write(to: f)
        func cli(_ args: [String]) -> Int32 { GrouperCLI.main(arguments: args, io: CapturedOutput().io) }
        for engine in ["synthetic", "grouper"] {
            let whole = dir.appendingPathComponent("\(engine)-whole"), merged = dir.appendingPathComponent("\(engine)-merged")
            #expect(cli(["run", f.path, "--engine", engine, "--out", whole.path]) == 0)
            var shards: [String] = []
            for i in 1...2 {
                let d = dir.appendingPathComponent("\(engine)-shard-\(i)").path
                #expect(cli(["run", f.path, "--engine", engine, "--shard", "\(i)/2", "--out", d]) == 0)
                shards.append(d)
            }
            #expect(cli(["merge"] + shards + ["--out", merged.path]) == 0)
            let a = try ScenarioFixtures.files(in: whole), b = try ScenarioFixtures.files(in: merged)
            #expect(a == b, "\(engine)")
            for name in ["series.csv", "plot-series-shares_on_servers.svg", "plot-series-unsent_messages.svg"] {
                #expect(a[name] != nil, "\(engine): \(name)")
            }
            let csv = String(decoding: a["series.csv"] ?? Data(), as: UTF8.self).split(separator: "\n")
            #expect(csv.first == "point,group.ttl,time_s,metric,unit,n,mean,ci95_half_width,ci95_low,ci95_high")
            #expect(csv.count == 1 + 2 * 24 * 5)                                  // points × samples × series
            #expect(csv[1].hasPrefix("0,30min,900,shares_on_servers,shares,3,"))
            // The interval is the half-width around the mean, cut at 0 (every series here counts).
            var cut = 0
            for row in csv.dropFirst() {
                let c = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard let mean = Double(c[6]), let hw = Double(c[7]), let lo = Double(c[8]), let hi = Double(c[9]) else {
                    Issue.record("\(engine): row without an interval: \(row)"); continue
                }
                #expect(abs(lo - max(0, mean - hw)) < 1e-5 && abs(hi - (mean + hw)) < 1e-5, "\(engine): \(row)")
                if mean - hw < 0 { cut += 1 }
            }
            if engine == "grouper" { #expect(cut > 0, "no interval reached below 0, so the cut is untested") }
        }
    }
}
