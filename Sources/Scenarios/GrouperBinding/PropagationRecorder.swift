import SimKernel
import GrouperModel
import Catalogs

/// The `propagation_*` metrics: a delivery time for every (member, write) pair, so that
/// architectures and variants that lose, decline or supersede different messages compare
/// like with like.
///
/// A pair is every write (update or delete) at or after warm-up by a device that was a member
/// at the write's time, with every other device that was a member then. The pair is *reached*
/// when that member first holds a version of the object at least as new as the write: the
/// write itself, or any newer write of the object (a newer update or a delete, received or its
/// own); its latency is that time minus the write's time. A pair not reached by the end of the
/// run is *censored*: its latency is only known to exceed the time from the write to the end.
///
/// `propagation_latency` is the restricted mean: every pair counts, a censored one with its
/// time up to the end (a lower bound of the true mean while `propagation_censored` > 0, and
/// the time-average over pairs of how long a member's copy lagged the write, up to the end).
/// `propagation_latency_max` is the longest such time, `propagation_censored` the fraction of
/// pairs censored. `delivery_latency` differs: it counts only the updates a receiver rebuilt
/// (or fetched) itself, so a write that was superseded before it arrived, declined, or lost
/// never enters it.
///
/// Members hold an object only through a delivery (the system's delivery callback, after which
/// `observe` reads the member's store) or their own write, so the pairs are resolved at those
/// moments. Sums are exact integers (`Nanoseconds`), whatever the order of resolution.
package final class PropagationRecorder {
    /// Whether pairs are recorded at all; false, every `propagation_*` metric is NaN.
    let isRecording: Bool
    var since = SimTime.zero
    /// Writes of `system.writes` looked at so far.
    private var indexed = 0
    /// Per device, per object: the writes (indices into `system.writes`) that device has not
    /// reached yet.
    private var pending: [[String: [Int]]] = []
    private var reached = 0
    private var reachedSum = Nanoseconds()
    private var maxNanos: Int64 = 0

    static let metrics: Set<MetricName> = [.propagationLatency, .propagationLatencyMax, .propagationCensored]

    init(devices: Int, isRecording: Bool = true) {
        self.isRecording = isRecording
        pending = isRecording ? Array(repeating: [:], count: devices) : []
    }

    /// A recorder that records only if `metrics` names a `propagation_*` metric.
    convenience init(devices: Int, reporting metrics: [MetricName]) {
        self.init(devices: devices, isRecording: metrics.contains(where: Self.metrics.contains))
    }

    /// An exact sum of durations in nanoseconds (whole seconds and the rest, so no overflow).
    struct Nanoseconds {
        private var seconds: Int64 = 0, rest: Int64 = 0
        mutating func add(_ nanos: Int64) {
            seconds += nanos / 1_000_000_000
            rest += nanos % 1_000_000_000
            if rest >= 1_000_000_000 { seconds += 1; rest -= 1_000_000_000 }
        }
        var value: Double { Double(seconds) + Double(rest) / 1e9 }
        static func + (a: Nanoseconds, b: Nanoseconds) -> Nanoseconds {
            var s = a
            s.seconds += b.seconds
            s.add(b.rest)
            return s
        }
    }

    /// Takes in the writes recorded since the last call: a pair for every other member at the
    /// write's time, and the writer reaches its own older pending writes of the object.
    func index(_ system: any DrivenSystem) {
        let writes = system.writes
        while indexed < writes.count {
            let i = indexed, w = writes[i]
            indexed += 1
            guard w.time >= since else { continue }
            resolve(device: w.device, objectID: w.objectID, upTo: w.version, at: w.time, writes)
            guard let joined = system.joinedAt(device: w.device), joined <= w.time else { continue }
            for d in pending.indices where d != w.device {
                guard let j = system.joinedAt(device: d), j <= w.time else { continue }
                pending[d][w.objectID, default: []].append(i)
            }
        }
    }

    /// After a delivery to `device`: every write it has not reached whose object it now holds at
    /// that version or newer is reached now.
    func observe(device: Int, on system: any DrivenSystem) {
        index(system)
        guard !pending[device].isEmpty else { return }
        let writes = system.writes
        for objectID in Array(pending[device].keys) {
            guard let v = system.storedVersion(device: device, objectID: objectID) else { continue }
            resolve(device: device, objectID: objectID, upTo: v, at: system.now, writes)
        }
    }

    private func resolve(device: Int, objectID: String, upTo v: ObjectVersion, at t: SimTime, _ writes: [ObjectWrite]) {
        guard var list = pending[device][objectID] else { return }
        list.removeAll { i in
            guard writes[i].version <= v else { return false }
            let nanos = (t - writes[i].time).nanoseconds
            reached += 1
            reachedSum.add(nanos)
            maxNanos = max(maxNanos, nanos)
            return true
        }
        pending[device][objectID] = list.isEmpty ? nil : list
    }

    /// The metrics at the end of the run (`system.now`): censored pairs count their time up to it.
    func metric(_ name: MetricName, _ system: any DrivenSystem) -> Double {
        guard isRecording else { return .nan }
        index(system)
        var censored = 0, censoredSum = Nanoseconds(), longest = maxNanos
        let writes = system.writes
        for perDevice in pending {
            for list in perDevice.values {
                for i in list {
                    let nanos = (system.now - writes[i].time).nanoseconds
                    censored += 1
                    censoredSum.add(nanos)
                    longest = max(longest, nanos)
                }
            }
        }
        let pairs = reached + censored
        guard pairs > 0 else { return .nan }
        switch name {
        case .propagationLatency: return (reachedSum + censoredSum).value / Double(pairs)
        case .propagationLatencyMax: return Double(longest) / 1e9
        case .propagationCensored: return Double(censored) / Double(pairs)
        default: preconditionFailure("\(name) is not a propagation metric")
        }
    }
}
