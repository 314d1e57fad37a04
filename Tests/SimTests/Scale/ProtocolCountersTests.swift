import Testing
import SimKernel
@testable import GrouperModel

/// `ProtocolCounters` keeps each device's last cells aside; what it reads must be what a plain
/// dictionary of every bump reads.
@Suite struct ProtocolCountersTests {
    /// Random bumps (runs of one cell per device, devices interleaved, windows passing, amounts
    /// that cancel, a device beyond the kept ones), read at random moments: every total for
    /// every filter and the sorted rows equal the plain dictionary's.
    @Test func countsReadAsAPlainDictionaryOfEveryBump() {
        var rng = Xoshiro256StarStar(seed: 3232)
        let ttl = SimDuration(nanoseconds: 1_000)
        let kinds: [CounterKind] = [.messagesRebuilt, .sharesStored, .duplicatesDropped]
        let types: [MessageType] = [.update, .delete, .confirm]
        let devices = [0, 1, 2, 5, ProtocolCounters.recentDevices + 3]
        for _ in 0..<20 {
            var counters = ProtocolCounters(ttl: ttl), plain: [CounterKey: Int] = [:]
            var now: Int64 = 0
            var last = (kind: kinds[0], type: types[0])
            for step in 0..<400 {
                now += Int64(rng.next() % 150)
                if rng.chance(0.3) { last = (kinds[rng.int(in: 0...2)], types[rng.int(in: 0...2)]) }   // else: the same cell again
                let device = devices[rng.int(in: 0...(devices.count - 1))]
                let amount = rng.chance(0.1) ? -rng.int(in: 0...2) : rng.int(in: 0...3)
                counters.add(last.kind, device: device, type: last.type, at: SimTime(nanoseconds: now), amount)
                if amount != 0 {
                    plain[CounterKey(kind: last.kind, device: device, type: last.type, window: Int(now / 1_000)), default: 0] += amount
                }
                guard step % 53 == 0 || step == 399 else { continue }
                let rows = counters.rows
                #expect(rows.map(\.key) == plain.keys.sorted() && rows.map(\.value) == plain.keys.sorted().map { plain[$0]! })
                for kind in kinds {
                    for device in [nil] + devices.map(Optional.some) {
                        for type in [nil] + types.map(Optional.some) {
                            for window in [nil, 0, Int(now / 1_000)] {
                                let expected = plain.filter { k, _ in k.kind == kind && (device == nil || k.device == device)
                                    && (type == nil || k.type == type) && (window == nil || k.window == window) }.values.reduce(0, +)
                                #expect(counters.total(kind, device: device, type: type, window: window) == expected)
                            }
                        }
                    }
                }
            }
        }
    }
}
