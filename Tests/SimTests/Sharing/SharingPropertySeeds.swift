import Foundation

/// Number of random cases for property tests: `GROUPER_PROPERTY_SEEDS` or `defaultCount`.
func sharingPropertySeeds(default defaultCount: Int) -> Int {
    if let s = ProcessInfo.processInfo.environment["GROUPER_PROPERTY_SEEDS"], let v = Int(s), v > 0 { return v }
    return defaultCount
}
