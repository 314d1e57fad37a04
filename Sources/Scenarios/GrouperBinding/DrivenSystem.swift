import SimKernel
import GrouperModel
import ScenarioFile

/// What `GrouperDrivers` needs of a system to play a scenario's workload, churn, faults and
/// invitations on it: Grouper (`GrouperSystem`) or the central server (`CentralSystem`).
package protocol DrivenSystem: AnyObject {
    var now: SimTime { get }
    var writes: [ObjectWrite] { get }
    func update(device: Int, objectID: String, size: Int, at t: SimTime)
    func delete(device: Int, objectID: String, at t: SimTime)
    /// Offline while any of the device's reasons holds (`reason`: `GrouperDrivers.Reason`).
    func setOnline(_ online: Bool, device: Int, reason: Int, at t: SimTime)
    func invite(device: Int, at t: SimTime)
    /// Down while any of the server's reasons holds.
    func setServerState(_ state: ServerState, server: Int, reason: Int, at t: SimTime)
    func restartServer(_ server: Int, keepData: Bool, at t: SimTime)
    func setMisbehaviour(_ behaviour: ServerMisbehaviour?, id: Int, server: Int, at t: SimTime)
    /// `callback` gets the message ids of the updates `device` received, in order; it is called
    /// after every delivery that may have changed the device's store (with no id when only
    /// deletes or control messages were handled).
    func onUpdatesDelivered(device: Int, _ callback: @escaping ([String]) -> Void)
    /// The version of an object a device holds now (tombstones included).
    func storedVersion(device: Int, objectID: String) -> ObjectVersion?
    /// When a device became a member (nil: not a member).
    func joinedAt(device: Int) -> SimTime?
}

extension GrouperSystem: DrivenSystem {
    package func onUpdatesDelivered(device: Int, _ callback: @escaping ([String]) -> Void) {
        onReceive(device: device) { _, messages in callback(messages.compactMap { $0.type == .update ? $0.messageID : nil }) }
    }
}

/// The central server is scenario server 1 (index 0): faults on the other servers do not
/// reach it. Hostile faults are rejected by the reader for this architecture.
extension CentralSystem: DrivenSystem {
    package func setServerState(_ state: ServerState, server: Int, reason: Int, at t: SimTime) {
        if server == 0 { setServerState(state, reason: reason, at: t) }
    }
    package func restartServer(_ server: Int, keepData: Bool, at t: SimTime) {
        if server == 0 { restartServer(keepData: keepData, at: t) }
    }
    package func setMisbehaviour(_ behaviour: ServerMisbehaviour?, id: Int, server: Int, at t: SimTime) {
        preconditionFailure("hostile faults are rejected for the central architecture (ScenarioReader+Architecture)")
    }
    package func onUpdatesDelivered(device: Int, _ callback: @escaping ([String]) -> Void) { onDelivered(device: device, callback) }
}
