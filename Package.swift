// swift-tools-version:6.0
import PackageDescription

// One library target per pipeline stage; dependencies point one way only:
// Ingest, Tracks, EnergyModels and Evaluation see EnergyLabCore alone, only
// Store sees SQLite (through GRDB) and only the executable sees
// ArgumentParser.
// The readers and geometry run per byte and per fix: release builds skip
// the dynamic exclusivity checks there (they are checked in debug builds,
// which the tests use). Measured side by side (BENCHMARKS.md): `track
// summary` of an 80 MB GPX takes 0.435 s with the flag and 0.852 s without
// (1.96x); the accelerometer pipeline gains nothing (1.00-1.02x), so
// Signals and the core go without it.
let hotPath: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
  name: "EnergyLab",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "energylab", targets: ["energylab"]),
    // The readers alone, for the fuzz targets in Fuzz/.
    .library(name: "EnergyLabReaders", targets: ["EnergyLabCore", "Ingest", "Tracks", "Signals", "Surveys"]),
    // The readers, models and statistics a researcher calls from Swift.
    // The pipeline of commands, the store, rendering and estimation serve
    // the `energylab` command alone: their declarations are `package`.
    .library(
      name: "EnergyLab",
      targets: ["EnergyLabCore", "Ingest", "Tracks", "Signals", "EnergyModels", "Evaluation", "Surveys"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
  ],
  targets: [
    // printf's fixed-decimals formatting behind a non-variadic C function
    // (`Fixed.printf`).
    .target(name: "CFixedFormat"),
    // SHA-256 of every input from the system's libcrypto (OpenSSL), not a
    // BoringSSL of our own: that build was half of a clean build's time.
    .systemLibrary(
      name: "CLibCrypto",
      pkgConfig: nil,
      providers: [.apt(["libssl-dev"])]),
    .target(name: "EnergyLabCore", dependencies: ["CFixedFormat", "CLibCrypto"]),
    .systemLibrary(
      name: "CLibCSV",
      pkgConfig: nil,
      providers: [.apt(["libcsv-dev"])]),
    .systemLibrary(
      name: "CZlib",
      pkgConfig: nil,
      providers: [.apt(["zlib1g-dev"])]),
    .target(name: "Ingest", dependencies: ["EnergyLabCore", "CLibCSV", "CZlib"], swiftSettings: hotPath),
    .target(name: "Signals", dependencies: ["EnergyLabCore"]),
    .target(name: "Tracks", dependencies: ["EnergyLabCore"], swiftSettings: hotPath),
    .target(name: "EnergyModels", dependencies: ["EnergyLabCore"]),
    .target(name: "Evaluation", dependencies: ["EnergyLabCore"]),
    // Energy over what the readers found: a model over a track's steps, the
    // accelerometer models over a recording's epochs.
    .target(name: "Estimation", dependencies: ["EnergyLabCore", "EnergyModels", "Tracks", "Signals"]),
    .target(name: "Surveys", dependencies: ["EnergyLabCore"]),
    .target(
      name: "Store",
      dependencies: ["EnergyLabCore", .product(name: "GRDB", package: "GRDB.swift")]),
    .target(name: "Reporting", dependencies: ["EnergyLabCore", "CLibCSV"]),
    .target(
      name: "Pipeline",
      dependencies: [
        "EnergyLabCore", "Ingest", "Tracks", "Signals", "EnergyModels", "Estimation", "Evaluation", "Surveys",
        "Store", "Reporting",
      ]),
    .executableTarget(
      name: "energylab",
      dependencies: [
        "Pipeline", "EnergyLabCore", "Ingest", "Tracks", "Signals", "EnergyModels", "Estimation",
        "Evaluation",
        "Store", "Reporting", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Shared by the test targets: the checkout's root, tolerance checks.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "EnergyLabCoreTests", dependencies: ["TestSupport", "EnergyLabCore"]),
    .testTarget(name: "IngestTests", dependencies: ["TestSupport", "Ingest"], exclude: ["Fixtures"]),
    .testTarget(
      name: "TracksTests", dependencies: ["TestSupport", "Tracks", "Ingest"], exclude: ["Fixtures"]),
    .testTarget(
      name: "SignalsTests", dependencies: ["TestSupport", "Signals", "Ingest"], exclude: ["Fixtures"]),
    .testTarget(name: "EnergyModelsTests", dependencies: ["TestSupport", "EnergyModels"]),
    .testTarget(name: "EvaluationTests", dependencies: ["TestSupport", "Evaluation", "Ingest"]),
    .testTarget(
      name: "StoreTests",
      dependencies: ["TestSupport", "Store", .product(name: "GRDB", package: "GRDB.swift")]),
    .testTarget(
      name: "SurveysTests", dependencies: ["TestSupport", "Surveys", "Ingest"], exclude: ["Fixtures"]),
    .testTarget(name: "ReportingTests", dependencies: ["TestSupport", "Reporting"], exclude: ["Snapshots"]),
    .testTarget(
      name: "PipelineTests",
      dependencies: [
        "TestSupport", "Pipeline", "EnergyLabCore", "EnergyModels", "Estimation", "Evaluation", "Ingest",
        "Tracks", "Signals",
        "Surveys", "Store", "Reporting",
      ],
      exclude: ["Fixtures"]),
    .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "energylab"], exclude: ["Fixtures"]),
  ]
)
