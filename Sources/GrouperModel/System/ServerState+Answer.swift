import SimKernel

/// When and how a device hears back about a request: one rule for Grouper's servers and the
/// central server (`ServerNode.serve`, `CentralServerNode.serve`).
struct RequestAnswer: Equatable {
    /// The client gives up (no answer by its deadline) instead of getting the server's answer.
    var timedOut: Bool
    /// When the device learns it.
    var at: SimTime

    /// A request to a server that is not up: blackholed, it vanishes and the client's timer
    /// fires at its deadline (never before now); refused, the refusal comes back after one
    /// network latency. Nil when the server is up and serves the request.
    static func unserved(_ state: ServerState, deadline: SimTime, now: SimTime,
                         latency: SimDuration) -> RequestAnswer? {
        switch state {
        case .up: nil
        case .blackhole: RequestAnswer(timedOut: true, at: max(deadline, now))
        case .refusing: RequestAnswer(timedOut: false, at: now + latency)
        }
    }

    /// A served request whose answer would arrive at `arrival`: too late for the client's
    /// deadline, it times out there instead (the server still did the work).
    static func served(arrival: SimTime, deadline: SimTime, now: SimTime) -> RequestAnswer {
        arrival > deadline ? RequestAnswer(timedOut: true, at: max(deadline, now)) : RequestAnswer(timedOut: false, at: arrival)
    }
}
