import Scenarios
import Foundation
import GrouperModel
import SimKernel

/// `grouper-sim bench sharing`: split and join throughput of both schemes.
///
/// Wall-clock time (ContinuousClock) is read only here, never inside a simulation run.
/// Each case repeats an operation until `minSeconds` have passed and reports operations
/// per second; coefficients are drawn from a seeded xoshiro256** inside the timed loop.
enum SharingBench {
    static let sizes = [656, 65_536, 1_048_576]
    static let thresholds = [(2, 3), (3, 30), (20, 30), (27, 30)]

    static let help = """
    USAGE: grouper-sim bench sharing [--json] [--quick] [--scheme gf256|csss257] [--bytes N] [--k K --n N] [--seconds S]

    Splits and joins secrets of 656 B, 64 KiB and 1 MiB with (k,n) in (2,3), (3,30), (20,30),
    (27,30). Joins use k shares. Checks (rebuild policy `check`) use all n consistent shares;
    corrects (policy `correct`) use all n with ⌊(n−k)/2⌋ of them wholly altered. Each case runs for at least --seconds (default 0.2; --quick:
    0.02 and 656 B only). Rates are per wall-clock second and per second of the thread's CPU
    time (steadier on a loaded machine). --json prints one JSON object per row.

    """

    struct Row {
        var scheme: SharingSchemeKind, k: Int, n: Int, bytes: Int
        var splitsPerSecond: Double, joinsPerSecond: Double
        var splitsPerCPUSecond: Double, joinsPerCPUSecond: Double
        /// `check` of all n shares (consistent) and `correct` with ⌊(n−k)/2⌋ wholly bad shares.
        var checksPerSecond: Double, correctsPerSecond: Double
        var checksPerCPUSecond: Double, correctsPerCPUSecond: Double

        var json: String {
            "{\"bench\":\"sharing\",\"bytes\":\(bytes),\"checks_per_cpu_second\":\(fixed(checksPerCPUSecond)),"
                + "\"checks_per_second\":\(fixed(checksPerSecond)),"
                + "\"correct_mb_per_second\":\(fixed(correctsPerSecond * Double(bytes) / 1e6)),"
                + "\"corrects_per_cpu_second\":\(fixed(correctsPerCPUSecond)),"
                + "\"corrects_per_second\":\(fixed(correctsPerSecond)),\"join_mb_per_second\":\(fixed(joinsPerSecond * Double(bytes) / 1e6)),"
                + "\"joins_per_cpu_second\":\(fixed(joinsPerCPUSecond)),"
                + "\"joins_per_second\":\(fixed(joinsPerSecond)),\"k\":\(k),\"n\":\(n),\"scheme\":\"\(scheme.rawValue)\","
                + "\"split_mb_per_second\":\(fixed(splitsPerSecond * Double(bytes) / 1e6)),"
                + "\"splits_per_cpu_second\":\(fixed(splitsPerCPUSecond)),"
                + "\"splits_per_second\":\(fixed(splitsPerSecond))}"
        }

        var text: String {
            func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
            return pad(scheme.rawValue, 8) + pad("(\(k),\(n))", 9) + pad(String(bytes), 9)
                + pad(fixed(splitsPerSecond), 13) + pad(fixed(splitsPerSecond * Double(bytes) / 1e6), 10)
                + pad(fixed(joinsPerSecond), 13) + pad(fixed(joinsPerSecond * Double(bytes) / 1e6), 10)
                + pad(fixed(splitsPerCPUSecond), 13) + pad(fixed(joinsPerCPUSecond), 13)
                + pad(fixed(checksPerSecond), 12) + pad(fixed(correctsPerSecond), 12)
                + pad(fixed(correctsPerSecond * Double(bytes) / 1e6), 12)
        }
    }

    static let header = "  scheme    (k,n)    bytes     splits/s  split MB/s      joins/s   join MB/s  splits/cpu-s   joins/cpu-s    checks/s  corrects/s correct MB/s"

    static func fixed(_ v: Double) -> String {
        let scaled = (v * 10).rounded()
        return "\(Int64(scaled) / 10).\(abs(Int64(scaled) % 10))"
    }

    /// The options `bench sharing` takes (listed by `bench --help`).
    static let options = ["--scheme", "--bytes", "--k", "--n", "--seconds", "--quick", "--json"]

    static func run(_ args: [String], _ io: CLIOutput) throws -> ExitCode {
        var list = ArgumentList(args, command: "bench sharing")
        if list.flag("--help") || list.flag("-h") { io.out(help); return .ok }
        let json = list.flag("--json"), quick = list.flag("--quick")
        let schemeName = try list.option("--scheme")
        let bytes = try list.int("--bytes", in: 1...(64 << 20))
        let secondsText = try list.option("--seconds")
        let onlyK = try list.int("--k", in: 1...255), onlyN = try list.int("--n", in: 1...255)
        try list.finish(known: options + ["--help"])
        var cases = thresholds.filter { (onlyK ?? $0.0) == $0.0 && (onlyN ?? $0.1) == $0.1 }
        if cases.isEmpty, let k = onlyK, let n = onlyN {
            if let v = ShareThreshold.sharingViolations(k: k, n: n).first { throw CLIError("bench sharing: --\(v)") }
            cases = [(k, n)]
        }
        var schemes = SharingSchemeKind.allCases
        if let name = schemeName {
            guard let s = SharingSchemeKind(rawValue: name) else {
                throw CLIError("bench sharing: --scheme must be one of gf256, csss257, got '\(name)'")
            }
            schemes = [s]
        }
        var minSeconds = quick ? 0.02 : 0.2
        if let t = secondsText {
            guard let v = Double(t), v > 0, v <= 60 else { throw CLIError("bench sharing: --seconds must be in (0, 60], got '\(t)'") }
            minSeconds = v
        }
        let sizeList = bytes.map { [$0] } ?? (quick ? [656] : sizes)
        if !json { io.out(header + "\n") }
        for scheme in schemes {
            for size in sizeList {
                for (k, n) in cases {
                    let row = try measure(scheme, k: k, n: n, bytes: size, minSeconds: minSeconds)
                    io.out((json ? row.json : row.text) + "\n")
                }
            }
        }
        return .ok
    }
}

extension SharingBench {
    /// Times split and join of one case; throws only if the scheme rejects valid input.
    static func measure(_ kind: SharingSchemeKind, k: Int, n: Int, bytes: Int, minSeconds: Double) throws -> Row {
        let scheme = kind.makeScheme()
        var rng = Xoshiro256StarStar(seed: 0x5EED_0000 &+ UInt64(bytes))
        var secret = [UInt8](repeating: 0, count: bytes)
        rng.fill(&secret)
        var shares: [[UInt8]] = []
        var checksum = 0
        let splits = try timed(minSeconds) { () throws(SharingError) in
            shares = try scheme.split(secret, k: k, n: n, rng: &rng).shares
            checksum &+= Int(shares[n - 1][1])
        }
        let used = Array(shares.prefix(k))
        let joins = try timed(minSeconds) { () throws(SharingError) in
            checksum &+= Int(try scheme.join(used, k: k).secret[0])
        }
        guard try scheme.join(used, k: k).secret == secret else {
            throw CLIError("bench sharing: \(kind.rawValue) failed to rebuild the secret at (\(k),\(n)), \(bytes) B",
                           exitCode: .checkerFailed)
        }
        let (checks, corrects) = try measureDecoding(kind, shares: shares, k: k, secret: secret, minSeconds: minSeconds)
        if checksum == Int.min { print(checksum) }   // keeps the loops observable
        return Row(scheme: kind, k: k, n: n, bytes: bytes, splitsPerSecond: splits.0, joinsPerSecond: joins.0,
                   splitsPerCPUSecond: splits.1, joinsPerCPUSecond: joins.1,
                   checksPerSecond: checks.0, correctsPerSecond: corrects.0,
                   checksPerCPUSecond: checks.1, correctsPerCPUSecond: corrects.1)
    }

    /// Rates (per wall-clock and per CPU second) of `check` on all shares and `correct` with ⌊(n−k)/2⌋ shares altered in
    /// every byte (the last ones); both verified to return the secret.
    static func measureDecoding(_ kind: SharingSchemeKind, shares: [[UInt8]], k: Int, secret: [UInt8],
                                minSeconds: Double) throws -> ((Double, Double), (Double, Double)) {
        let scheme = kind.makeScheme(), n = shares.count
        if n == k { return ((0, 0), (0, 0)) }
        var bad = shares
        for i in (n - (n - k) / 2)..<n { bad[i] = kind.altered(bad[i], symbols: 0..<secret.count, delta: 1 + i % 255) }
        var checksum = 0
        let checks = try timed(minSeconds) { () throws(SharingError) in
            checksum &+= try scheme.rebuild(shares, k: k, policy: .check).secret?.count ?? 0
        }
        let corrects = try timed(minSeconds) { () throws(SharingError) in
            checksum &+= try scheme.rebuild(bad, k: k, policy: .correct).secret?.count ?? 0
        }
        guard try scheme.rebuild(shares, k: k, policy: .check).secret == secret,
              try scheme.rebuild(bad, k: k, policy: .correct).secret == secret else {
            throw CLIError("bench sharing: \(kind.rawValue) failed to decode the secret at (\(k),\(n)), \(secret.count) B",
                           exitCode: .checkerFailed)
        }
        if checksum == Int.min { print(checksum) }
        return (checks, corrects)
    }

    /// Operations per second of `body`, repeated until `minSeconds` of wall-clock time have
    /// passed: (per wall-clock second, per second of this thread's CPU time). On a loaded
    /// machine the CPU-time rate is the steadier of the two.
    static func timed(_ minSeconds: Double, _ body: () throws(SharingError) -> Void) throws(SharingError) -> (Double, Double) {
        let clock = ContinuousClock()
        let start = clock.now, cpuStart = threadCPUSeconds()
        var count = 0
        var elapsed = 0.0
        repeat {
            let batch = max(1, count / 4)
            for _ in 0..<batch { try body() }
            count += batch
            let d = clock.now - start
            elapsed = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        } while elapsed < minSeconds
        let cpu = max(threadCPUSeconds() - cpuStart, 1e-9)
        return (Double(count) / elapsed, Double(count) / cpu)
    }

    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
