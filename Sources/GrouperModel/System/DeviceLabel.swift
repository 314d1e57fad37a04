/// How text a person reads (checker findings, the protocol log, `--trace`, shrink
/// descriptions) names the model's device `index` (numbered from 0): as the scenario file
/// numbers it, from 1, so `deviceLabel(0)` is "D1", the group's owner.
public func deviceLabel(_ index: Int) -> String { "D\(index + 1)" }
