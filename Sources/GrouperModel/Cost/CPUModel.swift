import SimKernel

/// Each simulated device's one CPU: work runs in the order it is asked for, each piece
/// starting when the device is free and no earlier than the moment it is asked.
///
/// The simulator's side of `DeviceContext.useCPU` (see `SimulatedDeviceNode`): the client only
/// says how much CPU time its work costs (`DeviceProfile`) and is told when it is done.
struct CPUModel: Sendable {
    private var freeAt: [SimTime]

    init(devices: Int) { freeAt = Array(repeating: .zero, count: devices) }

    /// Reserves `device`'s CPU for `work` asked for at `now`; returns when the work is done.
    mutating func use(device: Int, _ work: SimDuration, now: SimTime) -> SimTime {
        let done = max(now, freeAt[device]) + work
        freeAt[device] = done
        return done
    }
}
