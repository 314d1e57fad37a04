import Testing

extension Tag {
    /// A test that takes tens of seconds or more on the project machine (long or many whole
    /// runs, fuzzing, other processes, a browser). The everyday loop leaves these out by name
    /// (docs/testing.md: `swift test` 6.3 does not filter by tag); `swift test` and CI run
    /// everything.
    @Tag static var slow: Self
}
