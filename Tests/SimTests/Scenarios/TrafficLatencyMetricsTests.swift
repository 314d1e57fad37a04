import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Plan
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
import GrouperModel
import SimKernel

/// The tail-latency and traffic metrics, on real Grouper runs.
@Suite struct TrafficLatencyMetricsTests {
    static let text = """
    {
      "format": 1, "name": "traffic", "seed": 5, "replications": 2, "duration": "2h",
      "group": {"devices": 4, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "5min"}, "stop": "90min"}},
      "sweep": [{"path": "sharing", "values": ["gf256", "csss257"]}],
      "metrics": ["delivery_latency", "delivery_latency_p50", "delivery_latency_p95", "delivery_latency_max",
                  "bytes_uploaded", "bytes_downloaded", "requests", "share_puts", "messages_rebuilt"]
    }
    """

    func records(_ text: String = Self.text) throws -> (LoadedScenario, [RunRecord]) {
        let s = try ScenarioLoader.load(ScenarioSource(label: "traffic.json", text: text))
        return (s, try ParallelRunner.execute(RunPlan(s).runs, executor: GrouperExecutor(), jobs: 2))
    }

    @Test func latencyQuantilesAreOrderedAndBracketTheMean() throws {
        let (s, records) = try records()
        let i = { (name: MetricName) in s.base.metrics.firstIndex(of: name)! }
        for r in records {
            let mean = r.metrics[i("delivery_latency")], p50 = r.metrics[i("delivery_latency_p50")]
            let p95 = r.metrics[i("delivery_latency_p95")], max = r.metrics[i("delivery_latency_max")]
            #expect(p50 > 0 && p50 <= p95 && p95 <= max, "run \(r.index): \(p50) \(p95) \(max)")
            #expect(mean <= max && mean > 0)
        }
    }

    @Test func csss257SharesCostMoreBytesThanGF256OnTheSameWorkload() throws {
        // Not a sweep: sweep points get their own run seeds. The same seed and workload instead,
        // once per scheme.
        let single = Self.text.replacingOccurrences(of: "\"sweep\": [{\"path\": \"sharing\", \"values\": [\"gf256\", \"csss257\"]}],", with: "")
        let (s, gfRuns) = try records(single.replacingOccurrences(of: "\"duration\"", with: "\"sharing\": \"gf256\", \"duration\""))
        let (_, csRuns) = try records(single.replacingOccurrences(of: "\"duration\"", with: "\"sharing\": \"csss257\", \"duration\""))
        let i = { (name: MetricName) in s.base.metrics.firstIndex(of: name)! }
        for (gf, cs) in zip(gfRuns, csRuns) {
            #expect(gf.seed == cs.seed)
            #expect(gf.metrics[i("share_puts")] == cs.metrics[i("share_puts")], "same workload, same shares")
            #expect(gf.metrics[i("requests")] > 0 && gf.metrics[i("requests")] == cs.metrics[i("requests")])
            let up = (gf: gf.metrics[i("bytes_uploaded")], cs: cs.metrics[i("bytes_uploaded")])
            let down = (gf: gf.metrics[i("bytes_downloaded")], cs: cs.metrics[i("bytes_downloaded")])
            // A share of an L-byte message: gf256 base64 of L + 1 bytes ≈ 1.33 L, csss257 text 6 + 2 L.
            let perRequest = 400.0 * gf.metrics[i("requests")]                  // lab-80211n overhead
            let ratio = (up.cs - perRequest) / (up.gf - perRequest)
            #expect(ratio > 1.2 && ratio < 1.5, "uploaded \(up), ratio without overhead \(ratio)")
            #expect(down.cs > down.gf, "downloaded \(down)")
        }
    }

    @Test func trafficCountsEveryRequestTheNetworkCarries() throws {
        func run(overhead: Int) throws -> (traffic: [DeviceTraffic], requests: [Int], responses: [Int]) {
            var config = try SystemConfig(devices: 3, servers: 3, k: 2, s: 3, ttl: .seconds(3600), seed: 3)
            config.network.overheadBytes = overhead
            let system = try GrouperSystem(config: config)
            var requests = [0, 0, 0], responses = [0, 0, 0]
            system.traceEvents(to: TraceSink(kinds: ["request", "response"], write: { text in
                for line in text.split(separator: "\n") {
                    for d in 0..<3 {
                        if line.contains("\"from\":\"device-\(d + 1)\"") { requests[d] += 1 }
                        if line.contains("\"component\":\"device-\(d + 1)\"") { responses[d] += 1 }
                    }
                }
            }))
            system.update(device: 0, objectID: "o1", size: 300, at: SimTime.zero + SimDuration.seconds(10))
            system.update(device: 1, objectID: "o2", size: 900, at: SimTime.zero + SimDuration.seconds(20))
            system.run(until: SimTime.zero + SimDuration.seconds(1800))
            system.traceEvents(to: nil)                                   // flushes the sink
            return (system.traffic, requests, responses)
        }
        let bare = try run(overhead: 0), padded = try run(overhead: 400)
        for d in 0..<3 {
            #expect(bare.traffic[d].requests == bare.requests[d] && bare.requests[d] > 0, "device \(d)")
            #expect(padded.traffic[d].requests == bare.traffic[d].requests)
            // Every request and every response (all servers are up) pays the overhead once.
            #expect(padded.traffic[d].bytesSent - bare.traffic[d].bytesSent == 400 * bare.requests[d])
            #expect(padded.traffic[d].bytesReceived - bare.traffic[d].bytesReceived == 400 * bare.responses[d])
        }
        // The writer's puts carry its shares: device 1's 900-byte object costs more than device 0's 300.
        #expect(bare.traffic[1].bytesSent > bare.traffic[0].bytesSent)
    }

    @Test func shareExposureIsTheTimeAverageOfSharesHeldAndGrowsWithTheTTL() throws {
        let text = """
        {
          "format": 1, "name": "exposure", "seed": 9, "replications": 2, "duration": "6h", "warmup": "30min",
          "group": {"devices": 4, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
          "protocol": {"confirm": {"policy": "never"}},
          "workload": {"update": {"every": {"dist": "exponential", "mean": "5min"}}},
          "sweep": [{"path": "group.ttl", "values": ["30min", "2h"]}],
          "metrics": ["shares_on_servers_mean"],
          "series": {"every": "1min", "metrics": ["shares_on_servers"]}
        }
        """
        let (s, records) = try records(text)
        for r in records {
            // The mean of the per-minute samples after warm-up approximates the exact time average.
            let samples = r.series.dropFirst(30).map { $0[0] }
            let sampled = samples.reduce(0, +) / Double(samples.count)
            #expect(r.metrics[0] > 0 && abs(r.metrics[0] - sampled) < 0.05 * sampled, "\(r.metrics[0]) vs \(sampled)")
        }
        let reps = s.base.replications
        let short = records[0..<reps].map { $0.metrics[0] }, long = records[reps...].map { $0.metrics[0] }
        // Shares live about a TTL: four times the TTL, about four times the exposure.
        #expect(long.min()! > 2.5 * short.max()!, "\(short) vs \(long)")
    }
}
