// swift-tools-version:6.0
import PackageDescription

// Layers (STYLE.md §1): SimKernel ← GrouperModel ← Scenarios ← grouper-sim.
// No package dependencies: toolchain only.
let package = Package(
    name: "grouper-sim",
    products: [
        .executable(name: "grouper-sim", targets: ["grouper-sim"]),
        .library(name: "SimKernel", targets: ["SimKernel"]),
        .library(name: "GrouperModel", targets: ["GrouperModel"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "SimKernel"),
        .target(name: "GrouperModel", dependencies: ["SimKernel"]),
        .target(name: "Scenarios", dependencies: ["SimKernel", "GrouperModel"]),
        .executableTarget(name: "grouper-sim", dependencies: ["Scenarios"]),
        .testTarget(
            name: "SimTests",
            dependencies: ["SimKernel", "GrouperModel", "Scenarios", "grouper-sim"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
