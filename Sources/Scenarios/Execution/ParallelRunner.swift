import Foundation
import Plan

/// Why a run could not produce a record (not a checker failure: a broken run).
public struct RunFailure: Error, CustomStringConvertible, Sendable {
    public var runIndex: Int
    public var message: String
    package init(runIndex: Int, message: String) {
        self.runIndex = runIndex; self.message = message
    }
    public var description: String { "run \(runIndex): \(message)" }
}

/// Executes independent runs on up to `jobs` threads and returns the records in
/// run order, so the output is the same for every `jobs`.
///
/// Threads exist only between runs: each run is one executor call on one
/// thread with its own simulation value; the only shared state is the slot array
/// and a counter, both behind one lock.
public enum ParallelRunner {
    /// `progress` is called after each run; `partial`, if given, also during runs with the
    /// number of runs done counting fractions of the runs under way; `keep`, if given, gets
    /// each record on its worker thread as soon as the run ends (before `progress`).
    public static func execute(_ runs: [ResolvedRun], executor: any RunExecutor, jobs: Int,
                               progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in },
                               partial: (@Sendable (_ done: Double, _ total: Int) -> Void)? = nil,
                               keep: (@Sendable (RunRecord) -> Void)? = nil)
        throws -> [RunRecord] {
        let shared = Shared(count: runs.count)
        let workers = max(1, min(jobs, runs.count))
        let body: @Sendable (Int) -> Void = { _ in
            while let i = shared.claim() {
                var run = runs[i]
                if let partial { run.onProgress = { f in partial(shared.advance(i, to: f), runs.count) } }
                let result: Result<RunRecord, RunFailure>
                do { result = .success(try record(run, executor: executor)) } catch let f as RunFailure {
                    result = .failure(f)
                } catch {
                    result = .failure(RunFailure(runIndex: runs[i].index, message: "\(error)"))
                }
                if let keep, case .success(let r) = result { keep(r) }
                let done = shared.store(result, at: i)
                progress(done, runs.count)
            }
        }
        if workers == 1 { body(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: body) }
        return try shared.results()
    }

    /// Runs one simulation and orders its metrics as the spec lists them.
    package static func record(_ run: ResolvedRun, executor: any RunExecutor) throws -> RunRecord {
        let outcome = try executor.execute(run)
        var values: [Double] = []
        for name in run.spec.metrics {
            guard let v = outcome.metrics.first(where: { $0.name == name }) else {
                throw RunFailure(runIndex: run.index, message: "the executor did not report metric '\(name)'")
            }
            values.append(v.value)
        }
        let samples = run.spec.series.map { $0.times(duration: run.spec.duration).count } ?? 0
        let width = run.spec.series?.metrics.count ?? 0
        guard outcome.series.count == samples, outcome.series.allSatisfy({ $0.count == width }) else {
            throw RunFailure(runIndex: run.index, message: "the executor reported \(outcome.series.count) series samples, expected \(samples) of \(width) values")
        }
        return RunRecord(index: run.index, point: run.point, replication: run.replication, seed: run.seed,
                         metrics: values, checkers: outcome.checkers, fingerprint: outcome.fingerprint,
                         series: outcome.series)
    }

    private final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var done = 0
        private var slots: [Result<RunRecord, RunFailure>?]
        /// Fraction done of each run, and their sum (progress only).
        private var fractions: [Double]
        private var fractionSum = 0.0
        init(count: Int) {
            slots = Array(repeating: nil, count: count)
            fractions = Array(repeating: 0, count: count)
        }

        /// Records that run `i` is `f` done; returns the runs done, fractions included.
        func advance(_ i: Int, to f: Double) -> Double {
            lock.lock(); defer { lock.unlock() }
            fractionSum += f - fractions[i]
            fractions[i] = f
            return fractionSum
        }

        func claim() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < slots.count else { return nil }
            next += 1
            return next - 1
        }

        func store(_ r: Result<RunRecord, RunFailure>, at i: Int) -> Int {
            lock.lock(); defer { lock.unlock() }
            slots[i] = r
            done += 1
            fractionSum += 1 - fractions[i]
            fractions[i] = 1
            return done
        }

        /// Records in run order; the first failure in run order (not in time) is thrown.
        func results() throws -> [RunRecord] {
            lock.lock(); defer { lock.unlock() }
            return try slots.map { try $0!.get() }
        }
    }
}
