import Catalogs

/// Tests spell metrics as scenario files do (`"reuploads"`); the code takes `MetricName`, parsed
/// once by the scenario reader. A literal that names no metric stops the test run with its name.
extension MetricName: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) {
        guard let m = MetricName(rawValue: name) else { preconditionFailure("no metric named \"\(name)\"") }
        self = m
    }
}
