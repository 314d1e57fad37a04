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
/// The bar fits the terminal's width (it never wraps): the name is shortened and the bar
/// shrunk as needed. A run with a precision target shows its batch and cap ("batch 7,
/// 2,940 runs, up to 3,000") with an ETA to the cap. Runs reused from an earlier attempt
/// (`--resume`) count as done but not in the rate: the ETA is this process's rate.
/// Reads the host clock, but only to show ETA: nothing it measures reaches a run or a
/// results file.
final class ProgressBar: @unchecked Sendable {
    enum Style { case bar, lines, off }
    private let label: String
    private let style: Style
    private let io: CLIOutput
    /// Time between two progress lines (`lines` style).
    private let lineInterval: Duration
    /// The terminal's width, asked at each draw when nil.
    private let columns: Int?
    /// What is counted ("runs"; "replications" for `equations`).
    private let unit: String
    private let start = ContinuousClock.now
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(3600)
    private var drawn = false
    /// Runs reused from an earlier attempt: done, but not by this process.
    private var reusedRuns = 0
    /// A precision target: the cap on runs and the current batch (1, 2, …).
    private var cap: Int?
    private var batchNumber = 0

    init(label: String, style: Style, io: CLIOutput, lineInterval: Duration = .seconds(10), columns: Int? = nil,
         unit: String = "runs") {
        self.label = label; self.style = style; self.io = io; self.lineInterval = lineInterval
        self.columns = columns; self.unit = unit
    }

    /// The old on/off form: the bar, or nothing.
    convenience init(label: String, enabled: Bool, io: CLIOutput, columns: Int? = nil) {
        self.init(label: label, style: enabled ? .bar : .off, io: io, columns: columns)
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

    /// A precision target: at most `cap` runs in all, in batches (see `batch`).
    func capped(at cap: Int) { lock.lock(); self.cap = cap; lock.unlock() }

    /// Batch `n` (1, 2, …) of a precision target starts.
    func batch(_ n: Int) { lock.lock(); batchNumber = n; lock.unlock() }

    /// `n` more runs were reused from an earlier attempt (not run by this process).
    func reused(_ n: Int) { lock.lock(); reusedRuns += n; lock.unlock() }

    /// Called from worker threads after each run.
    func update(_ done: Int, _ total: Int) { draw(Double(done), total, final: done == total && cap == nil) }

    /// Called from worker threads during runs: runs done, counting fractions of those under way.
    func updatePartial(_ done: Double, _ total: Int) { draw(done, total, final: false) }

    private func draw(_ done: Double, _ total: Int, final: Bool, force: Bool = false) {
        guard style != .off else { return }
        lock.lock(); defer { lock.unlock() }
        let now = ContinuousClock.now
        let interval = style == .bar ? Duration.milliseconds(100) : lineInterval
        guard final || force || now - lastDraw >= interval else { return }
        lastDraw = now
        let counts = Self.counts(done: done, total: total, cap: cap, batch: batchNumber, reused: reusedRuns,
                                 elapsed: Self.seconds(now - start), unit: unit)
        if style == .lines {
            io.err("\(label): \(counts)\n")
            return
        }
        let target = cap ?? total
        let fraction = target > 0 ? min(1, done / Double(target)) : 1
        // ESC [ K clears what a longer earlier line left to the right.
        io.err("\r" + Self.line(label: label, counts: counts, fraction: fraction, columns: columns ?? Self.terminalColumns()) + "\u{1B}[K")
        drawn = true
    }

    /// The text after the bar: "3/10 runs 30%  elapsed 0:04  ETA 0:09", or with a precision
    /// target "batch 7, 2,940 runs, up to 3,000  elapsed 1:02  ETA ≤ 0:03". The ETA is the
    /// rate of runs this process ran (not `reused` ones) times what is left (to the cap).
    static func counts(done: Double, total: Int, cap: Int?, batch: Int, reused: Int, elapsed: Double, unit: String = "runs") -> String {
        let own = done - Double(reused)
        let target = Double(cap ?? total)
        let eta = own > 0 && elapsed > 0 ? clock(elapsed / own * max(0, target - done)) : own > 0 ? "0:00" : "?"
        if let cap {
            return (batch > 0 ? "batch \(batch), " : "")
                + "\(grouped(Int(done))) \(unit), up to \(grouped(cap))  elapsed \(clock(elapsed))  ETA ≤ \(eta)"
        }
        let percent = total > 0 ? Int(100 * done / Double(total)) : 100
        return "\(Int(done))/\(total) \(unit) \(percent)%  elapsed \(clock(elapsed))  ETA \(eta)"
    }

    /// One bar line that fits `columns` (one column is left free so that no terminal wraps):
    /// a bar of up to 30 cells, shrunk to 10, then the name shortened (middle elided, down to
    /// 12 characters), then the elapsed time left out, then the bar dropped and the line cut.
    static func line(label: String, counts: String, fraction: Double, columns: Int) -> String {
        let room = max(20, columns) - 1
        func bar(_ width: Int) -> String {
            let filled = min(width, Int(Double(width) * fraction))
            return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        }
        let barWidth = min(30, room - (counts.count + 4) - label.count)
        if barWidth >= 10 { return "\(label) \(bar(barWidth)) \(counts)" }
        for text in [counts, withoutElapsed(counts)] {
            let nameRoom = room - (text.count + 4) - 10
            if nameRoom >= min(12, label.count) { return "\(shortened(label, to: nameRoom)) \(bar(10)) \(text)" }
        }
        return String("\(shortened(label, to: 8)) \(withoutElapsed(counts))".prefix(room))
    }

    /// The counts without "  elapsed m:ss".
    static func withoutElapsed(_ counts: String) -> String {
        guard let r = counts.range(of: "  elapsed ") else { return counts }
        let rest = counts[r.upperBound...]
        return String(counts[..<r.lowerBound]) + (rest.range(of: "  ").map { String(rest[$0.lowerBound...]) } ?? "")
    }

    /// `name` in at most `width` characters: its start and end around "…".
    static func shortened(_ name: String, to width: Int) -> String {
        guard name.count > width else { return name }
        let tail = (width - 1) / 2, head = width - 1 - tail
        return String(name.prefix(head)) + "…" + String(name.suffix(tail))
    }

    /// The width of the terminal on stderr (TIOCGWINSZ), else $COLUMNS, else 80.
    static func terminalColumns(fd: Int32 = 2, environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        var size = winsize()
        let ok = withUnsafeMutablePointer(to: &size) { ioctl(fd, UInt(TIOCGWINSZ), $0) } == 0
        if ok && size.ws_col > 0 { return Int(size.ws_col) }
        if let c = environment["COLUMNS"].flatMap({ Int($0) }), c > 0 { return c }
        return 80
    }

    func finish() {
        lock.lock(); defer { lock.unlock() }
        if drawn { io.err("\n"); drawn = false }
    }

    /// Ends the bar's line (if one is drawn) so that a message starts on a line of its own.
    func endLine() { finish() }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// 2940 → "2,940".
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    static func clock(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 3600 ? "\(t / 3600)h\(String(format: "%02d", t / 60 % 60))m" : "\(t / 60):\(String(format: "%02d", t % 60))"
    }
}
