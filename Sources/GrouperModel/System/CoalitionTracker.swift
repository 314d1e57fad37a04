import SimKernel

/// What colluding servers could rebuild: a message is *exposed* to a coalition while the
/// coalition's servers together hold shares of it on ≥ k distinct servers (a re-put share
/// of another polynomial counts too, so this is an upper bound). Fed by coalition members
/// after every event that may change their storage.
struct CoalitionTracker {
    let coalitions: [Coalition]
    let k: Int
    /// Server index → indices of the coalitions it belongs to.
    private let memberships: [[Int]]
    /// Per coalition: message id → member servers holding a share of it (only while > 0).
    private var holders: [[String: Int]]
    /// Per coalition: message id → since when it is exposed (only while exposed).
    private var exposedSince: [[String: SimTime]]
    /// Closed exposure intervals, summed over coalitions and messages, in nanoseconds (integer
    /// sums, so the dictionary order of the open intervals cannot change the result).
    private var closedNanos: Int64 = 0
    /// Message ids ever exposed to some coalition.
    private(set) var exposedIDs: Set<String> = []

    init(coalitions: [Coalition], servers: Int, k: Int) {
        self.coalitions = coalitions
        self.k = k
        var m = Array(repeating: [Int](), count: servers)
        for (c, coalition) in coalitions.enumerated() { for s in coalition.servers { m[s].append(c) } }
        memberships = m
        holders = Array(repeating: [:], count: coalitions.count)
        exposedSince = Array(repeating: [:], count: coalitions.count)
    }

    func isMember(_ server: Int) -> Bool { !memberships[server].isEmpty }

    mutating func update(server: Int, added: [String], removed: [String], now: SimTime) {
        for c in memberships[server] {
            for id in added {
                let h = holders[c][id, default: 0] + 1
                holders[c][id] = h
                if h == k {
                    exposedSince[c][id] = now
                    exposedIDs.insert(id)
                }
            }
            for id in removed {
                let h = holders[c][id, default: 0] - 1
                holders[c][id] = h > 0 ? h : nil
                if h == k - 1, let since = exposedSince[c].removeValue(forKey: id) { closedNanos += (now - since).nanoseconds }
            }
        }
    }

    /// Message·seconds of exposure up to `now`, open intervals included.
    func exposureSeconds(upTo now: SimTime) -> Double {
        let nanos = exposedSince.reduce(closedNanos) { sum, open in open.values.reduce(sum) { $0 + (now - $1).nanoseconds } }
        return SimDuration(nanoseconds: nanos).seconds
    }
}
