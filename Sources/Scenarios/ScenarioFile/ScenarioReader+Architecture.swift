import SimKernel
import Format

extension ScenarioReader {
    /// `"central": {"retention": duration}`; absent: no retention limit.
    func readCentral(_ n: Node?) -> CentralSpec? {
        guard let n else { return CentralSpec() }
        guard let o = ObjectReader(n, allowed: ["retention"]) else { return nil }
        let before = sink.count
        let retention = o.optional("retention").map { $0.duration(positive: true) } ?? .some(nil)
        guard sink.count == before, let retention else { return nil }
        return CentralSpec(retention: retention)
    }

    /// Keys that only mean something to one architecture: each given to the other is an error
    /// at its path (a sweep over `architecture` reports it for the point that cannot use it).
    package static let grouperOnlyKeys: [(path: [String], why: String)] = [
        (["sharing"], "the central server stores whole files, nothing is shared"),
        (["protocol", "variant"], "the recovery variants are Grouper's"),
        (["protocol", "rebuild"], "there are no shares to rebuild from"),
        (["protocol", "confirm"], "the central server's outbox tracks delivery: there are no confirm messages"),
        (["protocol", "resend_retry"], "there are no resend requests"),
        (["protocol", "resend_multicast_after"], "there are no resend requests"),
        (["protocol", "resend_ranges"], "there are no resend requests"),
        (["protocol", "recovery"], "the recovery switches are Grouper's"),
        (["group", "aligned_sweeps"], "the central server keeps files until fetched: it has no TTL sweep"),
        (["schedule"], "confirms, receive rounds and resend answers are Grouper's (use workload.writes and churn.windows)"),
        (["workload", "chunking", "real_bytes"], "the central model sends no real bytes: its files and chunks are costed by size"),
    ]

    func checkArchitectureFields(_ root: JSONValue, _ architecture: Architecture) {
        switch architecture {
        case .grouper:
            if root["central"] != nil {
                sink.add("central", "got a \"central\" block with \"architecture\": \"grouper\", expected it only with "
                    + "\"architecture\": \"central\" (its options belong to the central server)")
            }
        case .central:
            for (path, why) in Self.grouperOnlyKeys {
                var v: JSONValue? = root
                for k in path { v = v?[k] }
                if v != nil {
                    sink.add(path.joined(separator: "."), "given with \"architecture\": \"central\", expected it only "
                        + "with \"architecture\": \"grouper\": \(why)")
                }
            }
            guard case .array(let faults)? = root["faults"] else { return }
            for (i, f) in faults.enumerated() {
                guard case .string(let kind)? = f["kind"], Self.hostileKinds.contains(kind) else { continue }
                sink.add("faults[\(i)].kind", "got \"\(kind)\" with \"architecture\": \"central\", expected "
                    + "\"refuse\", \"blackhole\" or \"restart\": the central server is trusted (hostile faults are Grouper's)")
            }
        }
    }
}
