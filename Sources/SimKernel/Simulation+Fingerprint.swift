/// A run's fingerprint: 16 hex digits that must match on a rerun with the same seed.
public struct RunFingerprint: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt64
    public init(value: UInt64) { self.value = value }
    /// 16 lowercase hex digits (`StableHash.hex`): the form in every file and message.
    public var hex: String { StableHash.hex(value) }
    /// Reads the 16 hex digits of `hex`; nil for anything else (what a result file holds
    /// must have been written by `hex`).
    public init?(hex: String) {
        guard hex.utf8.count == 16, hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let v = UInt64(hex, radix: 16) else { return nil }
        value = v
    }
    public var description: String { hex }
}

extension Simulation {
    /// Registers an RNG whose final state belongs in the run's fingerprint (typically a
    /// component's stream: `sim.registerForFingerprint { [unowned self] in self.rng }`).
    /// States are mixed in registration order, which is deterministic for a deterministic setup.
    public func registerForFingerprint(_ state: @escaping () -> Xoshiro256StarStar) {
        fingerprintSources.append(state)
    }

    /// Hash of the ordered event stream (time, seq, target of every delivered event), the
    /// event count, the current time, and the final states of the registered RNGs followed
    /// by `extraRNGStates`. Stable across processes and machines.
    public func fingerprint(extraRNGStates: [Xoshiro256StarStar] = []) -> RunFingerprint {
        var h = _eventStreamHash
        h.mix(_eventsProcessed)
        h.mix(UInt64(bitPattern: _now.nanoseconds))
        for state in fingerprintSources.map({ $0() }) + extraRNGStates {
            h.mix(state.s0); h.mix(state.s1); h.mix(state.s2); h.mix(state.s3)
        }
        return RunFingerprint(value: h.value)
    }
}
