import SimKernel

/// How a request ended, as the device sees it.
public enum RequestOutcome: Equatable, Sendable {
    case reply(ServerReply)
    /// The server answered with an error (bad key, unknown receiver, …).
    case error(ServerError)
    /// The server is down and refuses connections (fails fast).
    case refused
    /// No answer before the request timeout (blackholed server).
    case timedOut
    /// The device went offline while waiting.
    case disconnected
}

/// A server's availability.
public enum ServerState: String, CaseIterable, Sendable {
    case up
    /// Down; connections are refused at once.
    case refusing
    /// Down; requests vanish and time out.
    case blackhole
}

/// Commands the system (or a scenario) gives a device at a time.
public enum DeviceCommand: Equatable, Sendable {
    case update(objectID: String, size: Int)
    case delete(objectID: String)
    case confirm
    case receive
    /// Offline (false) or back online (true) for one reason (`Outages`): the device is offline
    /// while any of its reasons holds.
    case setOnline(Bool, reason: Int = defaultOutageReason)
    /// The owner (this device) invites device `invitee` face to face.
    case invite(invitee: Int)
    /// Answer a resend request from device `requester` for my normal messages in `range`.
    case answerResend(requester: Int, range: ClosedRange<Int>)
}

/// A device's periodic timers.
public enum DeviceTimer: Equatable, Sendable {
    case confirm, pull, unsentRetry
}

/// Commands to a server.
public enum ServerCommand: Equatable, Sendable {
    /// Down (refusing or blackholed) or up again for one reason (`Outages`): the server is down
    /// while any of its reasons holds, in the mode of the one that started last.
    case setState(ServerState, reason: Int = defaultOutageReason)
    /// Comes back up; with `keepData` false its stored shares are gone.
    case restart(keepData: Bool)
    /// Switches hostile behaviour `id` (a fault's number) on, or off when nil.
    case misbehave(id: Int, ServerMisbehaviour?)
}

/// Every event of a Grouper run: a value, handled by `switch` in the target component.
public enum GrouperEvent: Sendable {
    // To servers.
    case request(ServerRequest)
    case sweep
    case serverCommand(ServerCommand)
    // To devices.
    case response(requestID: Int, outcome: RequestOutcome)
    case timeout(requestID: Int)
    case push
    case timer(DeviceTimer)
    case command(DeviceCommand)
    /// The device's CPU finished preparing upload job `jobID`.
    case uploadReady(jobID: Int)
    /// The device's CPU finished rebuilding and handling receive round `roundID`.
    case roundProcessed(roundID: Int)
}
