// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for EnergyLab's readers. `make fuzz` builds them with
// -sanitize=fuzzer,address for every module (so coverage reaches into the
// readers). Never a dependency of the main package.

let package = Package(
  name: "EnergyLabFuzz",
  dependencies: [.package(name: "EnergyLab", path: "..")],
  targets: [
    .target(name: "FuzzSupport"),
    .executableTarget(
      name: "FuzzTracks",
      dependencies: ["FuzzSupport", .product(name: "EnergyLabReaders", package: "EnergyLab")]),
    .executableTarget(
      name: "FuzzSurveys",
      dependencies: ["FuzzSupport", .product(name: "EnergyLabReaders", package: "EnergyLab")]),
    .executableTarget(
      name: "FuzzAccelerometer",
      dependencies: ["FuzzSupport", .product(name: "EnergyLabReaders", package: "EnergyLab")]),
    .executableTarget(
      name: "FuzzFIT",
      dependencies: ["FuzzSupport", .product(name: "EnergyLabReaders", package: "EnergyLab")]),
    .executableTarget(
      name: "FuzzDeviceFiles",
      dependencies: ["FuzzSupport", .product(name: "EnergyLabReaders", package: "EnergyLab")]),
    .executableTarget(
      name: "FuzzReferenceTables",
      dependencies: ["FuzzSupport", .product(name: "EnergyLabReaders", package: "EnergyLab")]),
  ]
)
