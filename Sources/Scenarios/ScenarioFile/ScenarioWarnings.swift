/// Scenario settings that are valid but worth saying out loud (`validate` and `run` print
/// them to stderr as `warning:` lines; they do not change the exit code).
extension LoadedScenario {
    public var warnings: [String] {
        let plain = pointSpecs.indices.filter { pointSpecs[$0].group.k == 1 }
        guard !plain.isEmpty else { return [] }
        let which = pointSpecs.count == 1 ? ""
            : " in sweep point(s) " + plain.map(String.init).joined(separator: ", ")
        return ["\(source.label): group.k: k = 1\(which): one share rebuilds the message, so every share is the "
                + "message itself and each server holds it in plaintext (no secrecy from the servers)"]
    }
}
