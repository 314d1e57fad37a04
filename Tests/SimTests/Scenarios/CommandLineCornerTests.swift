import Foundation
import Testing
@testable import Scenarios
@testable import Format
@testable import Catalogs
@testable import ScenarioFile
@testable import Execution
@testable import GrouperBinding
@testable import Timelines
@testable import Reports
@testable import Shrink
@testable import Experiments
@testable import Explore
@testable import GrouperSimCLI

/// Issue 29, command-line corners.
@Suite struct CommandLineCornerTests {
    @Test func anUnknownShortOptionGetsDidYouMeanNotNoSuchFile() {
        let j = runCLI(["run", "smoke", "-j", "2"])
        #expect(j.code == 2 && j.err.contains("run: unknown option '-j' (did you mean '--jobs'?)") && !j.err.contains("no such file"), "\(j.err)")
        let typo = runCLI(["run", "smoke", "-seed", "2"])
        #expect(typo.code == 2 && typo.err.contains("unknown option '-seed' (did you mean '--seed'?)"), "\(typo.err)")
        // A lone "-" and negative numbers stay arguments.
        #expect(ArgumentList.looksLikeOption("-j") && !ArgumentList.looksLikeOption("-") && !ArgumentList.looksLikeOption("-3"))
        let merge = runCLI(["merge", "-o", "x"])
        #expect(merge.code == 2 && merge.err.contains("unknown option '-o' (did you mean '--out'?)"), "\(merge.err)")
    }

    @Test func replicationAloneSuggestsReplications() {
        let r = runCLI(["run", "smoke", "--replication", "3"])
        #expect(r.code == 2 && r.err.contains("did you mean --replications 3"), "\(r.err)")
        let both = runCLI(["run", "smoke", "--point", "0"])
        #expect(both.code == 2 && both.err.contains("--point and --replication go together"))
    }

    /// "nothing to resume" gives a command that works (run here as printed).
    @Test func nothingToResumeGivesACommandThatWorks() throws {
        let dir = ScenarioFixtures.tempDir("corner-resume")
        try Data(ScenarioFixtures.sweepText.utf8).write(to: dir.appendingPathComponent("det.json"))
        let syn = ["--engine", "synthetic", "--progress", "never"]
        #expect(try CLIProcess.run(["run", "det.json", "--out", "res"] + syn, in: dir).status == 0)
        let nothing = try CLIProcess.run(["run", "det.json", "--resume", "res", "--progress", "never"], in: dir)
        #expect(nothing.status == 0 && nothing.stdout.contains("`grouper-sim run det.json --add-replications 10 res`"), "\(nothing.stdout)")
        let advised = try CLIProcess.run(["run", "det.json", "--add-replications", "10", "res", "--progress", "never"], in: dir)
        #expect(advised.status == 0, "\(advised.stderr)")
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func validateReportsASweepPathTypoWithTheFilesOtherProblems() throws {
        let text = """
        {"format": 1, "name": "typo", "duration": "-1h", "group": {"devices": 2, "k": 2, "n": 3, "s": 3},
         "sweep": [{"path": "group.kk", "values": [1, 2]}], "metrics": ["converged"]}
        """
        let dir = ScenarioFixtures.tempDir("corner-validate")
        let file = dir.appendingPathComponent("typo.json")
        try Data(text.utf8).write(to: file)
        let v = runCLI(["validate", file.path])
        #expect(v.code == 2 && v.err.contains("duration") && v.err.contains("sweep[0].path") && v.err.contains("group.kk"), "\(v.err)")
        try? FileManager.default.removeItem(at: dir)
    }
}
