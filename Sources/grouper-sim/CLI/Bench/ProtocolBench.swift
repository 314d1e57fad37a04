import Scenarios
import Foundation
import SimKernel

/// `grouper-sim bench protocol`: how fast one whole Grouper run goes as the group grows.
///
/// The run: N devices over f(2,3,3), TTL 1 day, each writing a 323-byte object every 30 min
/// on average, churning (4 h online, 1 h offline on average), default profiles; every
/// device polls every 5 min and on pushes, so each receive round lists every live share.
/// Wall-clock time is read only here, around the run.
enum ProtocolBench {
    static let help = """
    USAGE: grouper-sim bench protocol [--devices N] [--hours H | --days D] [--seed S] [--json]

    Runs one Grouper run of N devices (default 100) for H simulated hours (default 8; --days D
    is H = 24·D) and prints the wall-clock and CPU seconds it took, the events processed,
    events and rebuilt messages per wall-clock second, simulated hours per wall-clock second,
    the process's maximum resident set size (getrusage), and the run's fingerprint (the same for the same options on every machine).

    """

    static func scenario(devices: Int, hours: Int, seed: UInt64) -> String {
        """
        {
          "format": 1, "name": "bench-protocol", "seed": \(seed), "duration": "\(hours)h",
          "group": {"devices": \(devices), "k": 2, "n": 3, "s": 3, "ttl": "1d"},
          "workload": {"update": {"every": {"dist": "exponential", "mean": "30min"}}},
          "churn": {"online": {"dist": "exponential", "mean": "4h"}, "offline": {"dist": "exponential", "mean": "1h"}},
          "settle": "\(max(1, hours / 8))h",
          "metrics": ["events", "messages_uploaded", "messages_rebuilt"]
        }
        """
    }

    #if os(Linux)
    static let RUSAGE_SELF_ID = Int32(RUSAGE_SELF.rawValue)
    #else
    static let RUSAGE_SELF_ID = RUSAGE_SELF
    #endif

    /// The process's peak resident set size so far (`getrusage`; Linux reports KiB).
    static func maxResidentBytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF_ID, &usage) == 0 else { return 0 }
        #if os(Linux)
        return usage.ru_maxrss * 1024
        #else
        return usage.ru_maxrss
        #endif
    }

    /// The options `bench protocol` takes (listed by `bench --help`; `--uncompacted` is a developer switch).
    static let options = ["--devices", "--hours", "--days", "--seed", "--json"]

    static func run(_ args: [String], _ io: CLIOutput) throws -> ExitCode {
        var list = ArgumentList(args, command: "bench protocol")
        if list.flag("--help") || list.flag("-h") { io.out(help); return .ok }
        let json = list.flag("--json")
        let devices = try list.int("--devices", in: 2...1000) ?? 100
        let hoursOption = try list.int("--hours", in: 2...240)
        let days = try list.int("--days", in: 1...60)
        let seed = try list.uint64("--seed") ?? 1
        let uncompacted = list.flag("--uncompacted")  // undocumented: SystemConfig.compactState off
        try list.finish(known: options + ["--uncompacted", "--help"])
        if hoursOption != nil && days != nil { throw CLIError("bench protocol: give --hours or --days, not both") }
        let hours = days.map { $0 * 24 } ?? hoursOption ?? 8
        let loaded = try ScenarioLoader.load(ScenarioSource(label: "bench-protocol", text: scenario(devices: devices, hours: hours, seed: seed)))
        let run = RunPlan(loaded).runs[0]
        let clock = ContinuousClock()
        let cpuStart = SharingBench.threadCPUSeconds()
        let start = clock.now
        let record = try ParallelRunner.record(run, executor: GrouperExecutor(compactState: !uncompacted))
        let d = clock.now - start
        let wall = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        let cpu = SharingBench.threadCPUSeconds() - cpuStart
        let events = record.metrics[0], rebuilt = record.metrics[2]
        let rss = Double(maxResidentBytes()) / 1e9
        let f = SharingBench.fixed
        if json {
            io.out("{\"bench\":\"protocol\",\"cpu_seconds\":\(String(format: "%.3f", cpu)),\"devices\":\(devices),"
                   + "\"events\":\(Int(events)),\"events_per_second\":\(f(events / wall)),"
                   + "\"fingerprint\":\"\(record.fingerprint.hex)\",\"hours\":\(hours),"
                   + "\"max_rss_gb\":\(String(format: "%.3f", rss)),"
                   + "\"messages_rebuilt\":\(Int(rebuilt)),\"messages_uploaded\":\(Int(record.metrics[1])),"
                   + "\"rebuilt_per_second\":\(f(rebuilt / wall)),"
                   + "\"sim_hours_per_second\":\(f(Double(hours) / wall)),\"wall_seconds\":\(String(format: "%.3f", wall))}\n")
        } else {
            io.out("protocol: \(devices) devices, \(hours) h simulated: \(String(format: "%.3f", wall)) s wall, "
                   + "\(String(format: "%.3f", cpu)) s CPU, \(Int(events)) events (\(f(events / wall))/s), "
                   + "\(f(Double(hours) / wall)) simulated h per s; uploaded \(Int(record.metrics[1])), "
                   + "rebuilt \(Int(rebuilt)) (\(f(rebuilt / wall))/s); max RSS \(String(format: "%.3f", rss)) GB; "
                   + "fingerprint \(record.fingerprint.hex)\n")
        }
        return .ok
    }
}
