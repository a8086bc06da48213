import EnergyLabCore
import EnergyModels
import Estimation
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Store
import TestSupport
import Testing
import Tracks

/// One driver for every command: a command's run is built from its own
/// value, so it is the same typed alone, in a notebook after other
/// commands, or with other commands' inputs and parameters around it.
struct DriverTests {
  static func scratch() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-driver-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  static func profileOptions(_ track: String) -> ProfileCommand.Options {
    var options = ProfileCommand.Options(files: [track], binning: .day, timeZone: .utc)
    options.factorFallback = .car
    options.bodyMassKilograms = 70
    return options
  }

  /// `energy` then `profile` in a notebook, against `profile` typed alone:
  /// the notebook's profile run has the same key, inputs and parameters as
  /// the lone one (before, it stored the energy command's track, subject
  /// and parameters as its own, and got another key).
  @Test func aNotebookCommandStoresTheRunOfTheSameCommandTypedAlone() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let walk = try TrackCommandResultTests.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: walk) }
    var spec = SyntheticTrackSpec()
    spec.legs = [.init(speedMetersPerSecond: 1.4, gradeFraction: 0.05, durationSeconds: 300)]
    let other = "\(folder)/other.gpx"
    try GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test").write(
      toFile: other, atomically: true, encoding: .utf8)

    // Alone, as the command line runs it.
    let (alone, _) = Driver.buffered()
    alone.fingerprintsInputs = false
    var options = Self.profileOptions(walk)
    options.databasePath = "\(folder)/alone.sqlite"
    try ProfileCommand.run(options, driver: alone)

    // In a notebook, after an energy command on another file.
    try """
    # Two commands

    ```energylab-parameters
    allow-read = \(folder)
    allow-read = \(walk)
    ```

    ```energylab
    energy
    profile
    ```
    """.write(toFile: "\(folder)/two.md", atomically: true, encoding: .utf8)
    let runner = NotebookRunner(
      reportsDirectory: "\(folder)/Reports", reproducible: true,
      executor: { arguments, driver in
        if arguments == ["energy"] {
          var energy = EnergyCommand.Options(files: [other], modelID: "acsm-walking", subject: ModelInput())
          energy.subject.bodyMassKilograms = 82
          energy.subject.ageYears = 40
          try EnergyCommand.run(energy, driver: driver)
        } else {
          try ProfileCommand.run(Self.profileOptions(walk), driver: driver)
        }
      })
    let report = try runner.run(notebookAt: "\(folder)/two.md")

    let lone = try #require(ResultsStore.reading("\(folder)/alone.sqlite").allRuns().first)
    let inNotebook = try ResultsStore.reading("\(report)/results.sqlite").allRuns()
    #expect(inNotebook.count == 2)
    let profile = try #require(inNotebook.first { $0.command.hasPrefix("profile") })
    #expect(profile.runKey == lone.runKey)
    #expect(profile.inputs.map(\.sha256) == lone.inputs.map(\.sha256))
    #expect(profile.parameters == lone.parameters)
    // Only its own files: the factor set and its track, not the energy
    // command's track; only its own parameters, not the energy command's
    // subject.
    #expect(profile.inputs.count == 2)
    #expect(!profile.inputs.contains { $0.path.hasSuffix("other.gpx") })
    #expect(!profile.parameters.contains { $0.name == "age_years" })
    #expect(profile.parameters.first { $0.name == "body_mass_kg" }?.value == "70")
    // The report still lists every command's inputs.
    let text = try String(contentsOfFile: "\(report)/report.md", encoding: .utf8)
    #expect(text.contains("other.gpx"))
  }

  /// A subjects file and a MET table read for the options are inputs of
  /// the run, the subject id and activity code its parameters: two
  /// subjects with equal values stay two runs.
  @Test func filesReadForTheOptionsAreInputsOfTheRun() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let walk = try TrackCommandResultTests.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: walk) }
    let subjects = "\(folder)/subjects.csv"
    try "id,body_mass_kg\nP1,70\nP2,70\n".write(toFile: subjects, atomically: true, encoding: .utf8)
    func run(subject: String) throws -> RunRecord {
      var options = EnergyCommand.Options(files: [walk], modelID: "acsm-walking", subject: ModelInput())
      options.subject.bodyMassKilograms = 70
      options.sources = OptionSources(
        files: [subjects],
        parameters: [NamedParameter(name: "subject", value: subject, meaning: "subject id")])
      let (driver, _) = Driver.buffered()
      return try #require(
        try driver.finish(EnergyCommand.outcome(options), database: "\(folder)/s.sqlite"))
    }
    let p1 = try run(subject: "P1")
    let p2 = try run(subject: "P2")
    #expect(p1.inputs.contains { $0.path.hasSuffix("subjects.csv") })
    #expect(p1.inputs.count == 2)
    #expect(p1.runKey != p2.runKey, "two subjects with equal values are two runs")
    #expect(try ResultsStore.reading("\(folder)/s.sqlite").allRuns().count == 2)
  }

  /// Error statistics are stored as the statistic's name with its unit in
  /// a column of its own, the same names for `evaluate` and `agreement`.
  /// Columns a = (1, 2, 3, 4), b = (2, 3, 4, 6): differences -1, -1, -1, -2;
  /// bias -1.25, MAE 1.25, RMSE sqrt((1 + 1 + 1 + 4) / 4) = 1.3229.
  @Test func errorSummariesHaveTheirUnitInAColumn() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "a,b\n1,2\n2,3\n3,4\n4,6\n".write(toFile: "\(folder)/pairs.csv", atomically: true, encoding: .utf8)
    let (driver, _) = Driver.buffered()
    try AgreementCommands.statsAgreement(
      path: "\(folder)/pairs.csv", a: "a", b: "b", unit: "kcal_per_min", databasePath: "\(folder)/e.sqlite",
      format: nil, driver: driver)
    let run = try #require(ResultsStore.reading("\(folder)/e.sqlite").allRuns().first)
    func row(_ name: String) -> ErrorSummaryRow? { run.errorSummaries.first { $0.statistic == name } }
    #expect(row("bias")?.unit == "kcal/min")
    expectClose(row("bias")?.value, -1.25, tolerance: 1e-12)
    expectClose(row("mae")?.value, 1.25, tolerance: 1e-12)
    expectClose(row("rmse")?.value, (7.0 / 4).squareRoot(), tolerance: 1e-12)
    #expect(row("n")?.value == 4 && row("n")?.unit == "count")
    #expect(row("pearson_r")?.unit == "")
    #expect(row("mape")?.unit == "%")
    // No statistic carries a unit in its name.
    #expect(!run.errorSummaries.contains { $0.statistic.hasSuffix("_kcal_per_min") })
  }
}
