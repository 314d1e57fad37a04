import SimKernel

/// A request from a device to the central server: the web service calls of a CloudDrop-style server (docs/architectures.md).
public enum CentralCall: Equatable, Sendable {
    /// Upload the whole message once, addressed to `receivers` (`upload_file` + outbox records).
    case upload(CentralUpload)
    /// The device's open transfers (what its push notifications announced).
    case list
    /// `fetch_file`: download the file of a transfer (status `initiated`).
    case fetch(transfer: Int)
    /// Acknowledge a downloaded file (`delivered`) or refuse it (`declined`).
    case close(transfer: Int, status: TransferStatus)
}

/// The message a sender uploads.
public struct CentralUpload: Equatable, Sendable {
    public var messageID: String
    public var objectID: String
    public var version: ObjectVersion
    public var content: String?
    public var size: Int
    public var receivers: [Int]
}

/// An open transfer as the receiver's listing shows it (the push notification's file name).
public struct CentralListing: Equatable, Sendable {
    public var transfer: Int
    public var objectID: String
    public var version: ObjectVersion
    public var size: Int
}

public enum CentralReply: Equatable, Sendable {
    case stored
    case transfers([CentralListing])
    case file(CentralFile)
    case closed
    /// The transfer is no longer open (expired, lost, or already closed).
    case gone
}

public enum CentralOutcome: Equatable, Sendable {
    case reply(CentralReply)
    case refused
    case timedOut
}

public struct CentralRequest: Equatable, Sendable {
    public var requestID: Int
    public var device: Int
    public var sentAt: SimTime
    public var call: CentralCall
}

/// Every event of a central-server run.
public enum CentralEvent: Sendable {
    case request(CentralRequest)
    case retention
    case serverCommand(ServerCommand)
    case response(requestID: Int, outcome: CentralOutcome)
    case push
    case pull
    case retry
    /// The device was invited: it starts uploading and receiving.
    case joined
    case command(DeviceCommand)
}
