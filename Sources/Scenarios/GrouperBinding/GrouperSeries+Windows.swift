import SimKernel
import GrouperModel
import Catalogs

extension GrouperSeries {
    /// A `ttl_window_*` series now: the model's counter of the last whole TTL window before
    /// the current time (window ⌊now / TTL⌋ − 1; 0 before the first TTL has passed). Every event
    /// of that window has run, so the value is final.
    static func windowCount(_ name: SeriesName, of system: GrouperSystem) -> Double {
        let w = Int(system.now.nanoseconds / max(system.counters.ttl.nanoseconds, 1)) - 1
        guard w >= 0 else { return 0 }
        let c = system.counters
        switch name {
        case .windowUploadsNormal:
            return Double(c.total(.messagesUploaded, type: .update, window: w) + c.total(.messagesUploaded, type: .delete, window: w))
        case .windowUploadsConfirm: return Double(c.total(.messagesUploaded, type: .confirm, window: w))
        case .windowUploadsResend: return Double(c.total(.messagesUploaded, type: .resend, window: w))
        case .windowRebuilt: return Double(c.total(.messagesRebuilt, window: w))
        case .windowRebuiltResend: return Double(c.total(.messagesRebuilt, type: .resend, window: w))
        case .windowReuploads: return Double(c.total(.reUploads, window: w))
        case .windowReuploadsFirst: return Double(system.reuploadParts.total(.first, window: w))
        case .windowReuploadsRepeated: return Double(system.reuploadParts.total(.repeated, window: w))
        case .windowReuploadsHeld: return Double(system.reuploadParts.total(.held, window: w))
        default: preconditionFailure("\(name) is not a per-TTL-window series")
        }
    }
}
