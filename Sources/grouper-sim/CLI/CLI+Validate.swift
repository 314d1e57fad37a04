import Scenarios
import GrouperModel
extension GrouperCLI {
    static var validateCommand: CLICommand {
        CLICommand(name: "validate", summary: "Check scenario files without running them",
                   help: """
            USAGE: grouper-sim validate FILE…

            Parses and checks every file and every sweep point (docs/scenarios.md). Prints one
            line per valid file to stdout (its runs and a rough estimate of the simulation
            events they generate, from the scenario's rates) and every problem of every file to stderr, each naming
            the file, the JSON path, the bad value and what is allowed.
            EXIT CODES: 0 all valid, 2 a problem was found.

            """,
                   run: { args, io in
            var l = ArgumentList(args, command: "validate")
            let files = l.positionals()
            try l.finish(known: [])
            guard !files.isEmpty else { throw CLIError("validate: which files? give one or more scenario FILEs") }
            var bad = false
            for f in files {
                guard let s = RunCommand.loadAll([f], io: io)?.first else { bad = true; continue }
                let b = s.base
                let reps = b.precision.map { "\($0.minReplications)…\($0.maxReplications) replication(s) (until the precision target, \($0.stop == .together ? "the points stopping together" : "each point stopping on its own")) = up to" }
                    ?? "\(b.replications) replication(s) ="
                io.out("ok \(f): \(b.name), \(s.points.count) point(s) × \(reps) \(s.points.count * b.replications) run(s), "
                       + "\(b.precision == nil ? "about" : "up to about") \(Self.roughly(s.estimatedEvents)) events (rough estimate from the rates)\n")
            }
            return bad ? .badInput : .ok
        })
    }

    /// 1234567 → "1.2 million"; two significant digits, so the estimate does not look exact.
    static func roughly(_ v: Double) -> String {
        let units: [(Double, String)] = [(1e12, " trillion"), (1e9, " billion"), (1e6, " million"), (1e3, " thousand")]
        for (scale, name) in units where v >= scale {
            return NumberFormat.shortest((v / scale * 10).rounded() / 10) + name
        }
        return NumberFormat.shortest(max(v, 0).rounded())
    }

    static var listCommand: CLICommand {
        CLICommand(name: "list", summary: "List built-in scenarios, profiles, variants and metrics",
                   help: """
            USAGE: grouper-sim list [NAME]

            Prints the built-in scenarios (run them by name), the built-in device, network and
            server profiles with their values, the protocol variants, the sharing schemes and
            the metrics a scenario can report. With NAME, prints that built-in scenario's JSON
            text instead (`grouper-sim list thesis-fig6-1 > scenarios/thesis-fig6-1.json`).

            """,
                   run: { args, io in
            var l = ArgumentList(args, command: "list")
            let names = l.positionals()
            try l.finish(known: [])
            guard let name = names.first else { io.out(listing); return .ok }
            guard names.count == 1 else { throw CLIError("list: give at most one built-in scenario NAME, got \(names.count)") }
            guard let b = BuiltinScenarios.all.first(where: { $0.name == name }) else {
                throw CLIError("list: no built-in scenario '\(name)'\(didYouMean(name, among: BuiltinScenarios.all.map(\.name))); "
                               + "run `grouper-sim list` for the names")
            }
            io.out(b.text)
            return .ok
        })
    }

    static var listing: String {
        var s = "BUILT-IN SCENARIOS (grouper-sim run NAME)\n"
        let width = max(18, (BuiltinScenarios.all.map(\.name.count).max() ?? 0) + 2)
        for b in BuiltinScenarios.all { s += "  \(b.name.padding(toLength: width, withPad: " ", startingAt: 0))\(b.summary)\n" }
        for kind in ProfileSpec.Kind.allCases {
            let fields = ProfileCatalog.fields(kind)
            s += "\n\(kind.rawValue.uppercased()) PROFILES (fields: \(fields.map { "\($0.name) [\($0.unit.rawValue)]" }.joined(separator: ", ")))\n"
            for b in ProfileCatalog.builtins(kind) {
                let values = zip(fields, b.values).map { f, v in
                    f.unit == .duration ? "\(f.name)=\(SimDurationText.seconds(v))" : "\(f.name)=\(NumberFormat.shortest(v))"
                }
                let profileWidth = max(14, ProfileCatalog.builtins(kind).map(\.name.count).max()! + 2)
                s += "  \(b.name.padding(toLength: profileWidth, withPad: " ", startingAt: 0))\(b.summary): \(values.joined(separator: " "))\n"
            }
        }
        s += "\nPROTOCOL VARIANTS: \(ProtocolVariant.allCases.map(\.rawValue).joined(separator: ", "))\n"
        s += "SHARING SCHEMES: gf256, csss257\n\nMETRICS\n"
        // Names are sized to the longest, never cut: they are copied into scenario files.
        let metricWidth = (MetricCatalog.all.map(\.name.count) + SeriesCatalog.all.map(\.name.count)).max()! + 2
        for m in MetricCatalog.all { s += "  \(m.name.padding(toLength: metricWidth, withPad: " ", startingAt: 0))[\(m.unit)] \(m.summary)\n" }
        s += "\nSERIES (\"series\": {\"every\": DURATION, \"metrics\": [...]}: sampled during each run)\n"
        for m in SeriesCatalog.all { s += "  \(m.name.padding(toLength: metricWidth, withPad: " ", startingAt: 0))[\(m.unit)] \(m.summary)\n" }
        return s
    }
}

import SimKernel
/// Durations in seconds printed in the scenario duration syntax.
enum SimDurationText {
    static func seconds(_ v: Double) -> String { SimDuration.seconds(v).description }
}
