import Foundation
import SimKernel
import GrouperModel
import ScenarioFile
import Plan
import Execution
import GrouperBinding

/// A timeline that cannot be made from this input (exit 2 in the CLI).
public struct TimelineInputError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Runs one replication of a scenario point with a `TimelineRecorder` watching, and writes
/// timeline pages (`grouper-sim timeline`, `shrink`, and `explore` through `writePage`).
public enum TimelineRun {
    /// Records replication `replication` of `spec` (the scenario with point `point`'s values
    /// applied): the same run `grouper-sim run` makes for that point and replication. With
    /// `eventBudget` the run stops there (`EventBudgetExceeded`) instead of running on.
    public static func record(_ spec: ScenarioSpec, point: Int, replication: Int, runIndex: Int = 0,
                              eventBudget: UInt64? = nil) throws -> TimelineRecording {
        guard spec.architecture == .grouper else {
            throw TimelineInputError("timeline: \(spec.name) point \(point) runs the central architecture; a timeline draws "
                                     + "the Grouper model's devices, servers and shares only")
        }
        let seed = RunPlan.runSeed(scenarioSeed: spec.seed, replication: replication)
        let g = spec.group
        let recorder = TimelineRecorder(scenario: spec.name, point: point, replication: replication, seed: seed,
                                        end: spec.duration.nanoseconds,
                                        sharing: "k=\(g.threshold.k) n=\(g.threshold.n) s=\(g.threshold.s)",
                                        ttl: g.ttl.nanoseconds)
        var executor = GrouperExecutor()
        executor.onSystem = { recorder.attach($0) }
        let run = ResolvedRun(index: runIndex, point: point, replication: replication, seed: seed, spec: spec,
                              assignments: [], tracePath: nil, eventBudget: eventBudget)
        _ = try executor.execute(run)
        recorder.finish(findings: recorder.findings())
        var rec = recorder.rec
        if spec.settle > .zero {
            rec.bands.append(TimelineBand(kind: .settle, lane: nil, start: (spec.duration - spec.settle).nanoseconds,
                                          end: spec.duration.nanoseconds,
                                          detail: "settle: no writes, every device online, every server up"))
        }
        return rec
    }

    /// Records and writes the page for one run to `path` (replaced only if absent or a
    /// timeline grouper-sim wrote); returns what was drawn. For `explore`: one per finding.
    @discardableResult
    public static func writePage(_ spec: ScenarioSpec, point: Int, replication: Int, to path: String,
                                 options: TimelineOptions = TimelineOptions(), command: String = "",
                                 eventBudget: UInt64? = nil) throws -> Timeline {
        let target = try checkDestination(path)
        let timeline = TimelineLayout.layout(try record(spec, point: point, replication: replication, eventBudget: eventBudget), options)
        let html = TimelinePage.html(timeline, command: command)
        do { try Data(html.utf8).write(to: URL(fileURLWithPath: target), options: .atomic) } catch {
            throw IOFailure("timeline: cannot write \(path) (\(error.localizedDescription))")
        }
        return timeline
    }

    /// `path` may be new, or a timeline page grouper-sim wrote (it carries `TimelinePage.marker`).
    public static func checkDestination(_ path: String) throws -> String {
        let target: String
        do { target = try OutputSafety.checkFile(path, option: "timeline --out", owned: { _ in true }) } catch let e as OutputDirectory.WriteError {
            throw TimelineInputError("timeline: \(e.description)")
        }
        guard let data = FileManager.default.contents(atPath: target) else { return target }
        guard data.isEmpty || String(decoding: data.prefix(600), as: UTF8.self).contains(TimelinePage.marker) else {
            throw TimelineInputError("timeline: --out \(path) exists and was not written by grouper-sim timeline; nothing was written (choose another name)")
        }
        return target
    }
}

extension TimelineRecorder {
    /// The checkers' findings at the end of the run.
    func findings() -> [CheckFinding] { checkedSystem?.check().findings ?? [] }
}
