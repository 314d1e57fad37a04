import Testing
import Foundation
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore

/// Shapes the thesis states for Fig 6.1 and Fig 6.2 a–c, asserted on data produced in
/// process by the built-in scenarios (one replication per point: the runs are
/// deterministic up to the random phases, and the debug build must stay fast).
@Suite struct ThesisShapeTests {
    static func result(_ name: String) throws -> ResultSet {
        let s = try #require(ThesisScenarios.all.first { $0.name == name })
        return try Reproduction.run(name: s.name, text: s.text, jobs: 2, replications: 1)
    }

    /// Per-point means of one metric.
    static func series(_ r: ResultSet, _ metric: String) throws -> [Double] {
        let m = try #require(r.spec.metrics.firstIndex { $0.rawValue == metric })
        return (0..<r.scenario.points.count).map { r.summary(point: $0, metric: m).mean }
    }

    /// Swept x values of axis 0.
    static func xs(_ r: ResultSet) -> [Double] {
        r.scenario.points.map { p in
            if case .number(let v, _) = p.assignments[0].value { return v }
            return .nan
        }
    }

    /// Least-squares slope and R².
    static func fit(_ x: [Double], _ y: [Double]) -> (slope: Double, r2: Double) {
        let n = Double(x.count), mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (a, b) in zip(x, y) { sxy += (a - mx) * (b - my); sxx += (a - mx) * (a - mx); syy += (b - my) * (b - my) }
        let slope = sxy / sxx
        return (slope, syy == 0 ? 1 : (sxy * sxy) / (sxx * syy))
    }

    static func flat(_ y: [Double], within tolerance: Double) -> Bool {
        let mean = y.reduce(0, +) / Double(y.count)
        return y.allSatisfy { abs($0 - mean) <= tolerance * mean }
    }

    @Test func fig6_1() throws {
        let r = try Self.result("thesis-fig6-1"), x = Self.xs(r)
        for dir in ["upload", "download"] {
            for part in ["sync_time", "sharing_time", "time"] {
                let f = Self.fit(x, try Self.series(r, "\(dir)_\(part)"))
                #expect(f.slope > 0 && f.r2 >= 0.98, "\(dir)_\(part): slope \(f.slope), R² \(f.r2)")
            }
            // Network grows slower than linearly: its time per message falls with the count.
            let net = try Self.series(r, "\(dir)_network_time")
            let perMessage = zip(net, x).map { $0 / $1 }
            #expect(zip(perMessage, perMessage.dropFirst()).allSatisfy { $0 > $1 }, "\(dir) network per message: \(perMessage)")
            #expect(zip(net, net.dropFirst()).allSatisfy { $0 < $1 }, "\(dir) network still grows: \(net)")
        }
        let up = try Self.series(r, "upload_time"), down = try Self.series(r, "download_time")
        #expect(zip(down, up).allSatisfy { $0 > $1 }, "download > upload: \(down) vs \(up)")
        #expect(try Self.series(r, "messages_rebuilt") == x)
    }

    @Test func fig6_2a() throws {
        let r = try Self.result("thesis-fig6-2a"), x = Self.xs(r)
        for m in ["upload_time", "download_time"] {
            let f = Self.fit(x, try Self.series(r, m))
            #expect(f.slope > 0 && f.r2 >= 0.98, "\(m): slope \(f.slope), R² \(f.r2)")
        }
    }

    @Test func fig6_2b() throws {
        let r = try Self.result("thesis-fig6-2b"), x = Self.xs(r)
        let f = Self.fit(x, try Self.series(r, "upload_time"))
        #expect(f.slope > 0 && f.r2 >= 0.98, "upload: slope \(f.slope), R² \(f.r2)")
        let down = try Self.series(r, "download_time")
        #expect(Self.flat(down, within: 0.05), "download flat in k (±5%): \(down)")
    }

    @Test func fig6_2c() throws {
        let r = try Self.result("thesis-fig6-2c"), x = Self.xs(r)
        let uploaded = try Self.series(r, "updates_uploaded"), failed = try Self.series(r, "upload_failures")
        for (i, s) in x.enumerated() {
            #expect(uploaded[i] == (s <= 25 ? 1 : 0), "s = \(s): uploaded \(uploaded[i])")
            #expect(failed[i] == (s <= 25 ? 0 : 1), "s = \(s): failures \(failed[i])")
        }
        let ok = x.indices.filter { x[$0] <= 25 }
        let down = try Self.series(r, "download_time")
        // Shares reach 25 servers ≥ k even when the upload is judged failed: the next poll rebuilds it.
        #expect(Self.flat(down, within: 0.05), "download flat in s: \(down)")
        for part in ["upload_sync_time", "upload_sharing_time"] {
            let y = try Self.series(r, part)
            #expect(Self.flat(y, within: 0.05), "\(part) flat in s: \(y)")
        }
        // As in the published client (variant as-built), the verdict waits for all n answers,
        // so the upload time does not depend on s, whether the upload succeeds or fails.
        let up = try Self.series(r, "upload_time")
        #expect(Self.flat(up, within: 0.05), "upload time flat in s (±5%): \(up)")
        #expect(!ok.isEmpty)
    }

    /// gf256 joins exactly k shares, so download grows with k instead of staying flat.
    @Test func gf256TwinDownloadGrowsWithK() throws {
        let r = try Self.result("thesis-fig6-2b-gf256")
        let down = try Self.series(r, "download_sharing_time")
        #expect(zip(down, down.dropFirst()).allSatisfy { $0 < $1 }, "gf256 download sharing time grows with k: \(down)")
    }
}
