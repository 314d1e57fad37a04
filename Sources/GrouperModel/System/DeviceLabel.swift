/// How text a person reads (checker findings, the protocol log, `--trace`, shrink
/// descriptions) names the model's device `index` (numbered from 0): as the scenario file
/// numbers it, from 1, so `deviceLabel(0)` is "D1", the group's owner.
public func deviceLabel(_ index: Int) -> String { "D\(index + 1)" }

/// How text a person reads (checker findings, invariant reports, `--trace`/`--events`) numbers
/// the model's server `index` (from 0): as the scenario file does (`faults[].servers`), from 1.
public func serverNumber(_ index: Int) -> Int { index + 1 }
