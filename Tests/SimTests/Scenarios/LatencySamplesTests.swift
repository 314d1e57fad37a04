import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperBinding
import GrouperModel
import SimKernel

/// Delivery-latency samples are kept only when a run reports a quantile of them: the mean is
/// the same either way, and the reported quantiles are those of every sample.
@Suite struct LatencySamplesTests {
    static let text = """
    {
      "format": 1, "name": "latency-samples", "seed": 9, "duration": "3h",
      "group": {"devices": 5, "k": 2, "n": 3, "s": 3, "ttl": "1h"},
      "workload": {"update": {"every": {"dist": "exponential", "mean": "5min"}, "stop": "150min"}},
      "churn": {"online": {"dist": "exponential", "mean": "40min"}, "offline": {"dist": "exponential", "mean": "10min"}},
      "metrics": ["delivery_latency", "delivery_latency_p50", "delivery_latency_p95", "delivery_latency_max", "events"]
    }
    """

    func record(_ text: String) throws -> (LoadedScenario, RunRecord) {
        let s = try ScenarioLoader.load(ScenarioSource(label: "latency.json", text: text))
        return (s, try ParallelRunner.record(RunPlan(s).runs[0], executor: GrouperExecutor()))
    }

    @Test func meanAloneKeepsNoSamplesAndMatches() throws {
        let (_, full) = try record(Self.text)
        let meanOnly = Self.text.replacingOccurrences(
            of: "\"delivery_latency_p50\", \"delivery_latency_p95\", \"delivery_latency_max\", ", with: "")
        let (_, lean) = try record(meanOnly)
        #expect(full.metrics[0] > 0)
        #expect(lean.metrics[0].bitPattern == full.metrics[0].bitPattern, "mean \(lean.metrics[0]) vs \(full.metrics[0])")
        #expect(lean.metrics[1] == full.metrics[4] && lean.fingerprint == full.fingerprint)  // same events, same run
    }

    /// Without any latency metric nothing is recorded, and the run is the same run.
    @Test func noLatencyMetricRecordsNothingAndMatches() throws {
        let (_, full) = try record(Self.text)
        let none = Self.text.replacingOccurrences(
            of: "\"delivery_latency\", \"delivery_latency_p50\", \"delivery_latency_p95\", \"delivery_latency_max\", ", with: "")
        #expect(none != Self.text)
        let (_, lean) = try record(none)
        #expect(lean.metrics.count == 1 && lean.metrics[0] == full.metrics[4] && lean.fingerprint == full.fingerprint)
        let off = LatencyRecorder(reporting: ["events", "converged"])
        #expect(!off.isRecording && !off.keepsSamples)
        #expect(LatencyRecorder(reporting: ["delivery_latency"]).isRecording)
        #expect(LatencyRecorder(reporting: ["delivery_latency_max"]).isRecording)
    }

    @Test func recorderKeepsSamplesOnlyForQuantiles() {
        #expect(LatencyRecorder(reporting: ["delivery_latency", "events"]).keepsSamples == false)
        for q: MetricName in ["delivery_latency_p50", "delivery_latency_p95", "delivery_latency_max"] {
            #expect(LatencyRecorder(reporting: ["events", q]).keepsSamples)
        }
        let lean = LatencyRecorder(keepsSamples: false)
        #expect(lean.metric(.p95).isNaN && lean.samples.isEmpty)
    }
}
