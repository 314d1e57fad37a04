import Testing

extension Tag {
    /// A test that takes tens of seconds or more on the project machine (long or many whole
    /// runs, fuzzing, other processes, a browser). The everyday loop leaves these out with
    /// `swift test --skip tag:slow` (docs/testing.md); `swift test` and CI run everything.
    @Tag static var slow: Self
}
