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
        .target(name: "SimKernel"),
        .target(name: "GrouperModel", dependencies: ["SimKernel"], swiftSettings: uncheckedInRelease),
        .target(name: "Scenarios", dependencies: ["SimKernel", "GrouperModel"], swiftSettings: uncheckedInRelease),
        .executableTarget(name: "grouper-sim", dependencies: ["Scenarios"]),
        .testTarget(
            name: "SimTests",
            dependencies: ["SimKernel", "GrouperModel", "Scenarios", "grouper-sim"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
