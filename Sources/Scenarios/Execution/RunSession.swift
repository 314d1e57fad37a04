import Foundation
import Plan

/// (point, replication): a run's identity across run plans of different replication counts.
public struct RunKey: Hashable, Sendable, Comparable {
    public var point: Int
    public var replication: Int
    public init(point: Int, replication: Int) { self.point = point; self.replication = replication }
    public static func < (a: RunKey, b: RunKey) -> Bool { (a.point, a.replication) < (b.point, b.replication) }
}

/// Executes runs of a plan, reusing records kept by an earlier, interrupted or shorter
/// attempt (`--resume`, `--add-replications`) and handing each new record to `keep` as soon
/// as it completes (so an interruption loses only the runs under way).
///
/// A reused record is a pure function of its run (spec + seed), so reusing it instead of
/// running again changes no byte of the output.
public struct RunSession: Sendable {
    public var executor: any RunExecutor
    public var jobs: Int
    /// Records of earlier attempts, by (point, replication); looked up, never iterated.
    public var reuse: [RunKey: RunRecord] = [:]
    /// Called on a worker thread with each newly run record; a throw stops the session.
    public var keep: (@Sendable (RunRecord) throws -> Void)? = nil
    public var progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    public var partial: (@Sendable (_ done: Double, _ total: Int) -> Void)? = nil
    /// Called before the runs start with how many of them are reused, not run (progress only).
    public var reusedRuns: (@Sendable (Int) -> Void)? = nil
    /// Called by `PrecisionRunner` as each batch (1, 2, …) starts (progress only).
    public var batch: (@Sendable (Int) -> Void)? = nil

    public init(executor: any RunExecutor, jobs: Int) { self.executor = executor; self.jobs = jobs }

    /// Records of `runs`, in their order; runs with a reusable record are not run again.
    public func execute(_ runs: [ResolvedRun]) throws -> [RunRecord] {
        var out: [RunRecord?] = try runs.map { try reused($0) }
        let todo = runs.indices.filter { out[$0] == nil }
        let done = runs.count - todo.count
        let errors = FirstError()
        let progress = self.progress, partial = self.partial, keep = self.keep, total = runs.count
        reusedRuns?(done)
        progress(done, total)
        let onRun: @Sendable (Int, Int) -> Void = { d, _ in progress(done + d, total) }
        var onPartial: (@Sendable (Double, Int) -> Void)? = nil
        if let partial { onPartial = { d, _ in partial(Double(done) + d, total) } }
        var onKeep: (@Sendable (RunRecord) -> Void)? = nil
        if let keep { onKeep = { r in errors.run { try keep(r) } } }
        let fresh = try ParallelRunner.execute(todo.map { runs[$0] }, executor: executor, jobs: jobs,
                                               progress: onRun, partial: onPartial, keep: onKeep)
        if let e = errors.first { throw e }
        for (i, r) in zip(todo, fresh) { out[i] = r }
        return out.map { $0! }
    }

    /// The kept record of `run`, renumbered to the run's index; nil if none. A kept record
    /// that does not belong to the run (another seed, metric count) is an error.
    func reused(_ run: ResolvedRun) throws -> RunRecord? {
        guard var r = reuse[RunKey(point: run.point, replication: run.replication)] else { return nil }
        let width = run.spec.series?.metrics.count ?? 0
        let samples = run.spec.series.map { $0.times(duration: run.spec.duration).count } ?? 0
        guard r.seed == run.seed, r.metrics.count == run.spec.metrics.count, r.series.count == samples,
              r.series.allSatisfy({ $0.count == width }) else {
            throw RecordMismatch(description: "the kept record of point \(run.point), replication \(run.replication) does not belong to this run plan (seed or metrics differ)")
        }
        r.index = run.index
        return r
    }

    public struct RecordMismatch: Error, CustomStringConvertible { public var description: String }

    /// The first error thrown by any worker (behind a lock).
    final class FirstError: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var first: Error?
        func run(_ body: () throws -> Void) {
            do { try body() } catch {
                lock.lock(); if first == nil { first = error }; lock.unlock()
            }
        }
    }
}
