import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
import SimKernel

/// Mutated scenario files: every value of every documented example is replaced, one or a few
/// at a time, by a value of another type or an extreme one. Loading must either succeed or
/// report issues; it must never crash. Whatever loads also plans its runs and runs the first
/// one on the synthetic engine, and on the protocol model when it is small. Cases: `GROUPER_PROPERTY_SEEDS` (default 400).
@Test(.tags(.slow)) func mutatedScenariosLoadOrReportIssues() throws {
    let examples = try ScenarioFixtures.docExamples().map { try JSONParser.parse($0) }
    let replacements: [JSONValue] = [
        .null, .bool(true), .number(0), .number(-1), .number(1e300), .number(-1e300), .number(0.5),
        .number(1e15), .number(256), .number(1001), .string(""), .string("0s"), .string("-5min"),
        .string("1e9d"), .string("9999999999999d"), .string("106751d"), .string("3650d"), .string("1d"), .string("1ns"), .string("2h"), .string("all"),
        .string("thesis"), .array([]), .array([.number(1)]), .array([.string("x")]), .object([]),
        .object([("dist", .string("exponential")), ("mean", .string("0s"))]),
        .object([("start", .string("1h")), ("end", .string("30min"))]),
    ]
    var rng = Xoshiro256StarStar(seed: 2026)
    let cases = ProcessInfo.processInfo.environment["GROUPER_PROPERTY_SEEDS"].flatMap(Int.init) ?? 400
    var loaded = 0, protocolRuns = 0
    for c in 0..<cases {
        var doc = examples[c % examples.count]
        for _ in 0..<rng.int(in: 1...3) {
            let paths = leafPaths(doc)
            let path = paths[rng.nextInt(below: paths.count)]
            doc = replacing(doc, at: path[...], with: replacements[rng.nextInt(below: replacements.count)])
        }
        let text = JSONWriter.pretty(doc)
        do {
            let s = try ScenarioLoader.load(ScenarioSource(label: "fuzz-\(c).json", text: text))
            loaded += 1
            let plan = RunPlan(s)
            guard let first = plan.runs.first, s.base.duration <= .days(30) else { continue }
            _ = try ParallelRunner.record(first, executor: SyntheticExecutor())
            // Small ones also run on the protocol model (the drivers see every accepted value).
            if first.spec.duration <= .days(1) && first.spec.group.devices <= 20 {
                let r = try ParallelRunner.record(first, executor: GrouperExecutor())
                #expect(r.metrics.count == first.spec.metrics.count)
                protocolRuns += 1
            }
        } catch let e as ScenarioError {
            #expect(!e.issues.isEmpty)
            for issue in e.issues { #expect(issue.description.hasPrefix("fuzz-\(c).json: "), "\(issue)") }
        }
    }
    #expect(loaded > 0 && loaded < cases, "some mutations must load and some must be rejected (\(loaded)/\(cases))")
    #expect(protocolRuns > 0)
}

/// Paths (object keys and array indices) of every scalar, array and object below the root.
private func leafPaths(_ v: JSONValue, _ prefix: [String] = []) -> [[String]] {
    switch v {
    case .object(let members):
        return members.flatMap { [prefix + [$0.0]] + leafPaths($0.1, prefix + [$0.0]) }
    case .array(let items):
        return items.indices.flatMap { [prefix + ["#\($0)"]] + leafPaths(items[$0], prefix + ["#\($0)"]) }
    default:
        return []
    }
}

private func replacing(_ v: JSONValue, at path: ArraySlice<String>, with new: JSONValue) -> JSONValue {
    guard let head = path.first else { return new }
    switch v {
    case .object(let members):
        return .object(members.map { $0.0 == head ? ($0.0, replacing($0.1, at: path.dropFirst(), with: new)) : $0 })
    case .array(var items):
        if head.hasPrefix("#"), let i = Int(head.dropFirst()), items.indices.contains(i) {
            items[i] = replacing(items[i], at: path.dropFirst(), with: new)
        }
        return .array(items)
    default:
        return v
    }
}
