import Scenarios
import Foundation

/// `--progress auto|always|never`.
public enum ProgressMode: String, CaseIterable, Sendable {
    /// A bar on a terminal; progress lines (at the start, every 10 s, at the end) otherwise.
    case auto
    /// The bar even when stderr is not a terminal.
    case always
    /// Nothing.
    case never
}

/// Progress on stderr: a one-line bar with ETA redrawn in place (terminals), or plain
/// progress lines for logs (Slurm, pipes), or nothing. Drawn as soon as a scenario starts.
/// Reads the host clock, but only to show ETA: nothing it measures reaches a run or a
/// results file.
final class ProgressBar: @unchecked Sendable {
    enum Style { case bar, lines, off }
    private let label: String
    private let style: Style
    private let io: CLIOutput
    /// Time between two progress lines (`lines` style).
    private let lineInterval: Duration
    private let start = ContinuousClock.now
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(3600)
    private var drawn = false

    init(label: String, style: Style, io: CLIOutput, lineInterval: Duration = .seconds(10)) {
        self.label = label; self.style = style; self.io = io; self.lineInterval = lineInterval
    }

    /// The old on/off form: the bar, or nothing.
    convenience init(label: String, enabled: Bool, io: CLIOutput) {
        self.init(label: label, style: enabled ? .bar : .off, io: io)
    }

    /// The style a mode gives for a stderr that is (not) a terminal.
    static func style(_ mode: ProgressMode, terminal: Bool) -> Style {
        switch mode {
        case .auto: return terminal ? .bar : .lines
        case .always: return .bar
        case .never: return .off
        }
    }

    var enabled: Bool { style != .off }

    /// Draws the empty state at once, before the first run ends.
    func begin(_ total: Int) { draw(0, total, final: false, force: true) }

    /// Called from worker threads after each run.
    func update(_ done: Int, _ total: Int) { draw(Double(done), total, final: done == total) }

    /// Called from worker threads during runs: runs done, counting fractions of those under way.
    func updatePartial(_ done: Double, _ total: Int) { draw(done, total, final: false) }

    private func draw(_ done: Double, _ total: Int, final: Bool, force: Bool = false) {
        guard style != .off else { return }
        lock.lock(); defer { lock.unlock() }
        let now = ContinuousClock.now
        let interval = style == .bar ? Duration.milliseconds(100) : lineInterval
        guard final || force || now - lastDraw >= interval else { return }
        lastDraw = now
        let elapsed = Self.seconds(now - start)
        let eta = done > 0 ? elapsed / done * (Double(total) - done) : 0
        let percent = total > 0 ? Int(100 * done / Double(total)) : 100
        let counts = "\(Int(done))/\(total) runs \(percent)%  elapsed \(Self.clock(elapsed))  ETA \(done > 0 ? Self.clock(eta) : "?")"
        if style == .lines {
            io.err("\(label): \(counts)\n")
            return
        }
        let width = 30, filled = total > 0 ? min(width, Int(Double(width) * done / Double(total))) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        io.err("\r\(label) [\(bar)] \(counts)  ")
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
