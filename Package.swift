// swift-tools-version:6.0
import PackageDescription

// Layers (docs/architecture.md): SimJSON, SimPrefetch ← SimKernel ← GrouperModel ← Scenarios (its layer modules)
// ← GrouperSimCLI ← grouper-sim.
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
        // A cache prefetch hint for the event queue (C: Swift has none; without the builtin it
        // is an empty function).
        .target(name: "SimPrefetch", path: "Sources/SimKernel/Prefetch"),
        .target(name: "SimKernel", dependencies: ["SimJSON", "SimPrefetch"], exclude: ["JSON", "Prefetch"]),
        // GF(2^8) vector kernels in C (AVX2, chosen at run time; the Swift kernels are the fallback).
        .target(name: "GF256Vector", path: "Sources/GrouperModel/Sharing/Vector"),
        .target(name: "GrouperModel", dependencies: ["SimKernel", "SimJSON", "GF256Vector"], exclude: ["Sharing/Vector"], swiftSettings: uncheckedInRelease),
        // The layers of the scenario library, one module per folder of Sources/Scenarios
        // (docs/architecture.md): each lists the layers it uses, so the compiler refuses an
        // upward use.
        .target(name: "Format", dependencies: ["SimKernel", "SimJSON"],
                path: "Sources/Scenarios/Format", swiftSettings: uncheckedInRelease),
        .target(name: "Catalogs", dependencies: ["SimKernel", "GrouperModel"],
                path: "Sources/Scenarios/Catalogs", swiftSettings: uncheckedInRelease),
        .target(name: "ScenarioFile", dependencies: ["Format", "Catalogs", "SimKernel", "GrouperModel"],
                path: "Sources/Scenarios/ScenarioFile", swiftSettings: uncheckedInRelease),
        .target(name: "Plan", dependencies: ["Format", "Catalogs", "ScenarioFile", "SimKernel"],
                path: "Sources/Scenarios/Plan", swiftSettings: uncheckedInRelease),
        .target(name: "Execution", dependencies: ["Format", "Catalogs", "ScenarioFile", "Plan", "SimKernel"],
                path: "Sources/Scenarios/Execution", swiftSettings: uncheckedInRelease),
        .target(name: "GrouperBinding", dependencies: ["Catalogs", "ScenarioFile", "Plan", "Execution", "SimKernel", "GrouperModel"],
                path: "Sources/Scenarios/GrouperBinding", swiftSettings: uncheckedInRelease),
        .target(name: "Timelines", dependencies: ["ScenarioFile", "Plan", "Execution", "GrouperBinding", "SimKernel", "SimJSON", "GrouperModel"],
                path: "Sources/Scenarios/Timeline", swiftSettings: uncheckedInRelease),
        .target(name: "Reports", dependencies: ["Format", "Catalogs", "ScenarioFile", "Plan", "Execution", "GrouperBinding", "Timelines", "SimKernel", "GrouperModel"],
                path: "Sources/Scenarios/Reports", swiftSettings: uncheckedInRelease),
        .target(name: "Shrink", dependencies: ["ScenarioFile", "Plan", "Execution", "GrouperBinding", "SimKernel", "GrouperModel"],
                path: "Sources/Scenarios/Shrink", swiftSettings: uncheckedInRelease),
        .target(name: "Experiments", dependencies: ["Format", "Catalogs", "ScenarioFile", "Plan", "Execution", "GrouperBinding", "Reports", "SimKernel", "GrouperModel"],
                path: "Sources/Scenarios/Experiments", swiftSettings: uncheckedInRelease),
        .target(name: "Explore", dependencies: ["Format", "Catalogs", "ScenarioFile", "Plan", "GrouperBinding", "Shrink", "Experiments", "SimKernel", "GrouperModel"],
                path: "Sources/Scenarios/Explore", swiftSettings: uncheckedInRelease),

        // `import Scenarios` brings every layer (what the command line and tests use).
        .target(name: "Scenarios", dependencies: ["Format", "Catalogs", "ScenarioFile", "Plan", "Execution", "GrouperBinding", "Timelines", "Reports", "Shrink", "Experiments", "Explore"],
                path: "Sources/Scenarios", exclude: ["Format", "Catalogs", "ScenarioFile", "Plan", "Execution", "GrouperBinding", "Timeline", "Reports", "Shrink", "Experiments", "Explore"]),
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
