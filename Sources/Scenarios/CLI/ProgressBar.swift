import Foundation

/// A one-line progress bar with ETA on stderr, drawn only when stderr is a
/// terminal (`enabled`). Reads the host clock, but only to show ETA: nothing it
/// measures reaches a run or a results file.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled: Bool
    private let io: CLIOutput
    private let start = ContinuousClock.now
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    init(label: String, enabled: Bool, io: CLIOutput) {
        self.label = label; self.enabled = enabled; self.io = io
    }

    /// Called from worker threads after each run.
    func update(_ done: Int, _ total: Int) { draw(Double(done), total, final: done == total) }

    /// Called from worker threads during runs: runs done, counting fractions of those under way.
    func updatePartial(_ done: Double, _ total: Int) { draw(done, total, final: false) }

    private func draw(_ done: Double, _ total: Int, final: Bool) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = ContinuousClock.now
        guard final || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        let elapsed = Self.seconds(now - start)
        let eta = done > 0 ? elapsed / done * (Double(total) - done) : 0
        let width = 30, filled = total > 0 ? min(width, Int(Double(width) * done / Double(total))) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = total > 0 ? Int(100 * done / Double(total)) : 100
        io.err("\r\(label) [\(bar)] \(Int(done))/\(total) runs \(percent)%  elapsed \(Self.clock(elapsed))  ETA \(done > 0 ? Self.clock(eta) : "?")  ")
        drawn = true
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        if drawn { io.err("\n"); drawn = false }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func clock(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 3600 ? "\(t / 3600)h\(String(format: "%02d", t / 60 % 60))m" : "\(t / 60):\(String(format: "%02d", t % 60))"
    }
}
