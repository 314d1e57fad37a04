import Foundation
import Testing
import SimKernel
import GrouperModel
@testable import Scenarios
@testable import ScenarioFile
@testable import Plan
@testable import GrouperBinding
@testable import Explore
@testable import GrouperSimCLI

/// `explore --seconds S` ends near S: a run asks `shouldStop` every 1 % of its virtual time
/// and every `GrouperSeries.stopSlice` events inside a step,
/// a case running at the deadline comes back `.stopped` and is neither counted nor judged,
/// and the cases counted are a prefix of the search's.
@Suite struct ExploreDeadlineTests {
    /// Says true from its `after`-th question on (0: at once), counting the questions.
    final class StopAfter: @unchecked Sendable {
        let after: Int
        private var asked = 0
        private let lock = NSLock()
        init(after: Int) { self.after = after }
        var questions: Int { lock.lock(); defer { lock.unlock() }; return asked }
        func ask() -> Bool { lock.lock(); defer { lock.unlock() }; asked += 1; return asked > after }
    }

    static func run() throws -> ResolvedRun {
        let spec = try ScenarioLoader.load(ScenarioSource(label: "b.json", text: ExploreBudgetTests.text)).base
        return ResolvedRun(index: 0, point: 0, replication: 0, seed: RunPlan.runSeed(scenarioSeed: spec.seed, replication: 0),
                           spec: spec, assignments: [])
    }

    @Test func aRunAsksEveryPercentAndStopsWhenTold() throws {
        var run = try Self.run()
        let plain = try GrouperExecutor().execute(run)
        // Never told to stop: the same run, event for event, after 100 questions.
        let never = StopAfter(after: .max)
        run.shouldStop = { never.ask() }
        let asked = try GrouperExecutor().execute(run)
        #expect(asked.fingerprint == plain.fingerprint)
        #expect(never.questions == 100)
        // Told at the 100th question (before the last step): given up.
        let last = StopAfter(after: 99)
        run.shouldStop = { last.ask() }
        #expect(throws: RunStopped.self) { _ = try GrouperExecutor().execute(run) }
        var central = run
        central.spec.architecture = .central
        let atOnce = StopAfter(after: 0)
        central.shouldStop = { atOnce.ask() }
        #expect(throws: RunStopped.self) { _ = try GrouperExecutor().execute(central) }
    }

    /// The scenario's system with its drivers scheduled, not yet run.
    static func system(_ run: ResolvedRun) throws -> GrouperSystem {
        let spec = run.spec
        let system = try GrouperRun(config: GrouperExecutor.config(spec, seed: run.seed), runIndex: 0, logging: false).system
        GrouperDrivers.schedule(spec, on: system, streams: RandomStreams(rootSeed: run.seed),
                                latency: LatencyRecorder(reporting: spec.metrics))
        GrouperDrivers.play(spec.schedule, on: system)
        return system
    }

    /// Inside one step a run asks after every slice of events, so a heavy step is given up
    /// within a slice of the deadline; until then it handles the very events of a plain run,
    /// with and without invariant checks, and a budget ending inside a slice still ends it.
    @Test(arguments: [false, true])
    func aHeavyStepIsGivenUpWithinASliceOfEvents(checkingInvariants: Bool) throws {
        let run = try Self.run()
        let end = SimTime.zero + run.spec.duration
        let plain = try Self.system(run)
        plain.checksInvariants = checkingInvariants
        plain.run(until: end)
        #expect(plain.eventsProcessed > 1_000)
        // Never told: one call runs the whole step, asking after every 100 events.
        let never = StopAfter(after: .max)
        let asked = try Self.system(run)
        asked.checksInvariants = checkingInvariants
        let ranToTheEnd = asked.run(until: end, stop: { never.ask() }, every: 100)
        #expect(ranToTheEnd)
        #expect(asked.fingerprint == plain.fingerprint && asked.eventsProcessed == plain.eventsProcessed)
        #expect(UInt64(never.questions) == plain.eventsProcessed / 100)
        // Told at the third question: given up after exactly three slices; resumed, the same run.
        let third = StopAfter(after: 2)
        let stopped = try Self.system(run)
        stopped.checksInvariants = checkingInvariants
        let stoppedRan = stopped.run(until: end, stop: { third.ask() }, every: 100)
        #expect(!stoppedRan)
        #expect(stopped.eventsProcessed == 300 && stopped.now < end)
        stopped.run(until: end)
        #expect(stopped.fingerprint == plain.fingerprint)
        #expect(stopped.invariantViolation == nil && plain.invariantViolation == nil)
        if !checkingInvariants {
            // A budget ending inside a slice ends the run there, as without questions.
            let budgeted = try Self.system(run)
            budgeted.eventLimit = 250
            let budgetedRan = budgeted.run(until: end, stop: { false }, every: 100)
            #expect(budgetedRan)
            #expect(budgeted.exceededEventLimit && budgeted.eventsProcessed == 250)
        }
    }

    /// The series sampler asks inside steps too (the executor's path), and a central run gives
    /// up within a slice.
    @Test func theSamplerAndTheCentralModelAskInsideASlice() throws {
        let run = try Self.run()
        let end = SimTime.zero + run.spec.duration
        let system = try Self.system(run)
        var sampler = GrouperSeries(spec: run.spec, system: system, stopSlice: 100)
        let stop = StopAfter(after: 4)
        // Steps of 1 % of a hundredfold end: the whole run is one step. Questions: before the
        // step, then after every 100 events.
        let far = SimTime.zero + SimDuration(nanoseconds: 100 * run.spec.duration.nanoseconds)
        let sampled = sampler.run(until: end, end: far, progress: nil, stop: { stop.ask() })
        #expect(!sampled)
        #expect(system.eventsProcessed == 400 && stop.questions == 5)
        let c = try CentralSystem(config: CentralExecutor.config(run.spec, seed: run.seed))
        GrouperDrivers.schedule(run.spec, on: c, streams: RandomStreams(rootSeed: run.seed),
                                latency: LatencyRecorder(reporting: run.spec.metrics))
        let atOnce = StopAfter(after: 0)
        let centralRan = c.run(until: end, stop: { atOnce.ask() }, every: 50)
        #expect(!centralRan)
        #expect(c.eventsProcessed == 50 && atOnce.questions == 1)
    }

    @Test func aCaseRunningAtTheDeadlineIsStoppedNotAFinding() {
        // Case 0 has several runs (the first, the differentials, the determinism re-run).
        var explorer = Explorer(profile: .all, seed: 5)
        explorer.maxEvents = 20_000   // a small case 0 (the canaries' size)
        let never = StopAfter(after: .max)
        explorer.shouldStop = { never.ask() }
        let asked = explorer.explore(case: 0)
        #expect(asked.status == .ran && asked.findings.isEmpty)
        let questions = never.questions
        #expect(questions > 200, "more than one run asked")
        // Told before it began, in its first run, or at the last step of its last run (the
        // determinism re-run, whose failure would otherwise read as a finding; the question
        // after it is the case's own at its end): never a finding, always `.stopped`.
        for after in [0, 30, questions - 2] {
            let stop = StopAfter(after: after)
            explorer.shouldStop = { stop.ask() }
            let c = explorer.explore(case: 0)
            #expect(c.status == .stopped, "stopped after \(after) of \(questions) questions: \(c.status)")
            #expect(c.findings.isEmpty)
        }
    }

    @Test func theCasesCountedAreAPrefix() {
        func c(_ i: Int, _ s: ExploreCase.Status) -> ExploreCase { ExploreCase(index: i, text: "", status: s) }
        #expect(ExploreCommand.countedPrefix([c(0, .ran), c(1, .ran)]) == 2)
        #expect(ExploreCommand.countedPrefix([c(0, .ran), c(1, .stopped), c(2, .ran), c(3, .stopped)]) == 1)
        #expect(ExploreCommand.countedPrefix([c(0, .stopped), c(1, .ran)]) == 0)
        var tally = ExploreTally()
        tally.add(c(0, .stopped))
        #expect(tally.cases == 0 && tally.stopped == 1)
        #expect(ExploreCommand.stoppedLine(1, markdown: true)
                 == "1 case running or waiting when `--seconds` ran out was given up and is not counted.")
        #expect(ExploreCommand.stoppedLine(2, markdown: false)
                 == "2 cases running or waiting when --seconds ran out were given up and are not counted.")
    }

    @Test func theTallyKeepsTheLargestCases() {
        var tally = ExploreTally()
        for (i, e) in [5.0, 9e6, 9e6, 1.0, 7e5, 3.0, 2.0, 0].enumerated() {
            var x = ExploreCase(index: i, text: "", status: .ran)
            x.events = e
            tally.add(x)
        }
        #expect(tally.largest.map(\.index) == [1, 2, 4, 0, 5])
        #expect(tally.largestLine.hasPrefix("case 1 (9 million events), case 2 (9 million events), case 4 (0.7 million events)"))
    }
}
