// swift-tools-version:6.0
import PackageDescription

// Layers (STYLE.md §1): SimKernel ← GrouperModel ← Scenarios ← grouper-sim.
// No package dependencies: toolchain only.

// Release builds of the model skip run-time exclusivity checks (a run is single-threaded;
// debug builds, which the tests use, keep them). They were ~7% of a protocol run's
// instructions (docs/performance.md, "Per-event overheads").
let uncheckedInRelease: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
let package = Package(
    name: "grouper-sim",
    // Linux has no deployment target; on Apple platforms the kernel's 128-bit queue keys
    // (`UInt128`, docs/kernel.md) need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "grouper-sim", targets: ["grouper-sim"]),
        .library(name: "SimKernel", targets: ["SimKernel"]),
        .library(name: "GrouperModel", targets: ["GrouperModel"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
    ],
    dependencies: [],
    targets: [
        // The JSON reader and string escaper: the kernel's traces, the message codec and the
        // scenario format share them, so their bytes agree.
        .target(name: "SimJSON", path: "Sources/SimKernel/JSON"),
        .target(name: "SimKernel", dependencies: ["SimJSON"], exclude: ["JSON"]),
        .target(name: "GrouperModel", dependencies: ["SimKernel", "SimJSON"], swiftSettings: uncheckedInRelease),
        .target(name: "Scenarios", dependencies: ["SimKernel", "SimJSON", "GrouperModel"], swiftSettings: uncheckedInRelease),
        // Everything that talks to a person or a terminal: arguments, help, exit codes,
        // progress bar, benchmarks. The executable is its `main`.
        .target(name: "GrouperSimCLI", dependencies: ["SimKernel", "GrouperModel", "Scenarios"], path: "Sources/grouper-sim/CLI"),
        .executableTarget(name: "grouper-sim", dependencies: ["GrouperSimCLI"], exclude: ["CLI"]),
        .testTarget(
            name: "SimTests",
            dependencies: ["SimJSON", "SimKernel", "GrouperModel", "Scenarios", "GrouperSimCLI",
                           "grouper-sim"],  // built so that tests can run the binary (`CLIProcess`)
            resources: [.copy("Fixtures")]
        ),
    ]
)
