import EnergyLabCore
import EnergyModels
import Estimation
import Foundation
import Ingest
import Pipeline
import Reporting
import Signals
import Store
import TestSupport
import Testing
import Tracks

/// Commands computed as values, before anything is printed: each value
/// against a hand calculation written here.
struct CommandResultTests {
  /// ACSM walking (ACSM's Guidelines): VO2 = 0.1 S + 1.8 S G + 3.5 with S in
  /// m/min. At 3 mph (80.4672 m/min) up 5 %: 3.5 + 8.04672 + 7.242048 =
  /// 18.788768 mL/kg/min; for 70 kg 1315.21376 mL/min, 6.5760688 kcal/min
  /// at 5 kcal per litre of oxygen. Against a published 6.0 kcal/min:
  /// +0.5760688, +9.60115 %.
  @Test func modelEvaluationIsAValue() throws {
    var input = ModelInput()
    input.speedMetersPerSecond = 80.4672 / 60
    input.gradeFraction = 0.05
    input.bodyMassKilograms = 70
    let evaluation = try ModelsCommands.evaluate(
      id: "acsm-walking", input: input, published: [try .init(parsing: "kcal_per_min=6.0")])
    #expect(evaluation.model.id == "acsm-walking")
    expectClose(
      evaluation.output.vo2MillilitersPerKilogramPerMinute, 18.788768, tolerance: 1e-9)
    expectClose(evaluation.absoluteVO2MillilitersPerMinute, 1315.21376, tolerance: 1e-7)
    expectClose(evaluation.output.kilocaloriesPerMinute, 6.5760688, tolerance: 1e-9)
    #expect(!evaluation.hasExtent && evaluation.output.energyKilocalories == nil)
    let published = try #require(evaluation.published.first)
    expectClose(published.difference, 0.5760688, tolerance: 1e-9)
    expectClose(published.relativeDifferencePercent, 9.601147, tolerance: 1e-6)
  }

  /// StepMyHealth balance (thesis L553-577): intake - steps x 0.4 kcal;
  /// progress = balance / allowance; points = 100 x progress. ana: 2100 -
  /// 8000 x 0.4 = -1100, -0.55, -55 points; ben: 3000 - 2000 x 0.4 = 2200,
  /// 1.1, 110 points (red); cy: 1800 - 1000 x 0.4 = 1400, 0.7, 70 (green).
  @Test func leaderboardIsAValue() throws {
    func user(_ name: String, _ intake: Double, _ steps: Double) -> BalanceCommand.User {
      BalanceCommand.User(
        name: name,
        balance: CalorieBalance(
          intakeKilocalories: intake, steps: steps, allowanceKilocalories: 2000, kilocaloriesPerStep: 0.4))
    }
    let board = try BalanceCommand.leaderboard(
      users: [user("ana", 2100, 8000), user("ben", 3000, 2000), user("cy", 1800, 1000)],
      kilocaloriesPerStep: 0.4)
    #expect(board.users.map(\.name) == ["ben", "cy", "ana"])
    expectClose(board.users[0].balance.points, 110, tolerance: 1e-9)
    #expect(board.users[0].balance.colour == .red && board.users[1].balance.colour == .green)
    expectClose(board.users[2].balance.balanceKilocalories, -1100, tolerance: 1e-9)
    #expect(board.parameters.map(\.name) == ["kcal_per_step", "colour_rule", "leaderboard"])
    let none = #expect(throws: UsageError.self) {
      try BalanceCommand.leaderboard(users: [], kilocaloriesPerStep: 0.4)
    }
    #expect(none?.kind == .missing)
  }

  /// "1 hour 5 mins" is 65 minutes; against an actual 50: +15 min, +30 %.
  @Test func durationReadingsAreValues() throws {
    let readings = try DurationCommand.read(
      texts: ["1 hour 5 mins", "45 mins"], actual: ["50 mins", "45 mins"])
    #expect(readings.map(\.minutes) == [65, 45])
    #expect(readings[0].differenceMinutes == 15)
    expectClose(readings[0].relativeDifferencePercent, 30, tolerance: 1e-9)
    #expect(readings[1].differenceMinutes == 0)
    let mismatched = #expect(throws: UsageError.self) {
      try DurationCommand.read(texts: ["45 mins"], actual: ["1", "2"])
    }
    #expect(mismatched?.kind == .conflict)
  }
}

/// Track commands as values, on a synthetic track whose legs are known by
/// construction: 10 min walking at 1.3 m/s (780 m), then 10 min at 10 m/s
/// (6,000 m), a speed in the bus band (7-12 m/s), on the flat.
struct TrackCommandResultTests {
  static func twoLegTrack() throws -> String {
    var spec = SyntheticTrackSpec()
    spec.legs = [
      .init(speedMetersPerSecond: 1.3, gradeFraction: 0, durationSeconds: 600),
      .init(speedMetersPerSecond: 10, gradeFraction: 0, durationSeconds: 600),
    ]
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-two-legs-\(UUID().uuidString).gpx"
    ).path
    try GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test").write(
      toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The epoch model (the default): walk, then vehicle, cut at the epoch
  /// holding the change (a fix a second apart: one step misplaced at most).
  @Test func segmentationIsAValue() throws {
    let file = try Self.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let segmentation = try TrackCommands.segmentation(file: file, parameters: TrackAnalysisParameters())
    guard case .modes(let found) = segmentation.activities else {
      Issue.record("expected activities of the mode classifier")
      return
    }
    let activities = found.map(\.activity)
    #expect(activities.map(\.mode) == [.walk, .vehicle])
    #expect(found.allSatisfy { $0.source == .speed })
    expectClose(activities[0].distanceMeters, 780, tolerance: 780 * 0.01)
    expectClose(activities[1].distanceMeters, 6000, tolerance: 6000 * 0.01)
    expectClose(activities[0].durationSeconds + activities[1].durationSeconds, 1200, tolerance: 1.5)
    #expect(segmentation.inputs == [file])
    #expect(segmentation.parameters.contains { $0.name == "mode_classifier" && $0.value == "epoch-hmm" })
  }

  /// A declared sport wins in `track segments` and `track plot` as it does
  /// in `energy`: a 10-minute run at 3 m/s, which the epoch model alone
  /// calls cycling, stays one run.
  @Test func aDeclaredRunStaysARunInSegmentsAndPlot() throws {
    var spec = SyntheticTrackSpec()
    spec.speedMetersPerSecond = 3
    spec.durationSeconds = 600
    let gpx = GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test").replacingOccurrences(
      of: "<name>synthetic walk</name>", with: "<name>synthetic walk</name><type>running</type>")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-declared-run-\(UUID().uuidString).gpx"
    ).path
    try gpx.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let segmentation = try TrackCommands.segmentation(file: file, parameters: TrackAnalysisParameters())
    guard case .modes(let found) = segmentation.activities else {
      Issue.record("expected activities of the mode classifier")
      return
    }
    #expect(found.map(\.activity.mode) == [.run])
    #expect(found.map(\.source) == [.declared])
    let plot = try TrackCommands.plot(file: file, parameters: TrackAnalysisParameters())
    #expect(plot.charts[0].series.map(\.title) == ["run"])
    #expect(plot.activities.rows.count == 1)
    // Without the declaration the model's answer is cycling.
    let undeclared = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-undeclared-run-\(UUID().uuidString).gpx"
    ).path
    try GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test").write(
      toFile: undeclared, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: undeclared) }
    guard
      case .modes(let guessed) = try TrackCommands.segmentation(
        file: undeclared, parameters: TrackAnalysisParameters()
      ).activities
    else { return }
    #expect(guessed.map(\.activity.mode) == [.cycle])
  }

  /// The speed bands stay available by name: 10 m/s is in the bus band.
  @Test func speedBandsStayAvailable() throws {
    let file = try Self.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let segmentation = try TrackCommands.segmentation(
      file: file, parameters: TrackAnalysisParameters(), inference: .speedBands(SpeedBandParameters()))
    guard case .modes(let found) = segmentation.activities else {
      Issue.record("expected activities of the mode classifier")
      return
    }
    #expect(found.map(\.activity.mode) == [.walk, .bus])
    #expect(segmentation.parameters.contains { $0.name == "mode_walk_max_mps" && $0.value == "2" })
  }

  /// The charts of the two-leg track before any is drawn: speed by mode
  /// (walk at 1.3 m/s, vehicle at 10 m/s), a flat elevation and grade (0 %),
  /// and two activities.
  @Test func plotIsAValue() throws {
    let file = try Self.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let plot = try TrackCommands.plot(file: file, parameters: TrackAnalysisParameters())
    let stem = GnuplotChart.safeFileStem(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
    #expect(
      plot.charts.map(\.name) == ["\(stem)-speed", "\(stem)-elevation", "\(stem)-grade", "\(stem)-modes"])
    let speed = plot.charts[0].series
    #expect(speed.map(\.title) == ["walk", "vehicle"])
    let walkSpeeds = speed[0].points.map(\.y).sorted()
    expectClose(walkSpeeds[walkSpeeds.count / 2], 1.3, tolerance: 0.01)
    #expect(plot.charts[2].series[0].points.allSatisfy { abs($0.y) < 1e-6 }, "flat")
    #expect(plot.activities.rows.count == 2)
  }

  @Test func summariesAreValuesAndAMissingFileIsItsOwnFailure() throws {
    let file = try Self.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let found = TrackCommands.summaries(
      files: [file, file + ".missing"], parameters: TrackAnalysisParameters())
    #expect(found.files.count == 2)
    let (summary, header) = try found.results[0].get()
    #expect(header.format == "gpx-1.1", "GPXWriter writes GPX 1.1")
    expectClose(summary.distance2DMeters, 6780, tolerance: 6780 * 0.002)
    expectClose(summary.durationSeconds, 1200, tolerance: 1e-6)
    #expect(throws: InputError.self) { try found.results[1].get() }
  }
}

/// Footprint commands as values.
struct FootprintCommandResultTests {
  /// Stansted (51.8850, 0.2350) to Cagliari (39.2515, 9.0543) by the
  /// haversine formula with R = 6371.0 km (computed with Python's math
  /// module): 1,560.882 km, 3,121.764 km return; at the Alter Eco app's
  /// 0.200 kg CO2e/km, 624.353 kg.
  @Test func flightsAreAValue() throws {
    let flights = try FootprintCommands.flights(
      trips: ["STN-CAG:return"], factorSets: ["alter-eco-2020"], published: [1.82])
    #expect(flights.trips.count == 1 && flights.trips[0].isReturn)
    expectClose(flights.trips[0].greatCircleKilometers, 1560.882, tolerance: 0.001)
    expectClose(flights.flownKilometers, 3121.764, tolerance: 0.001)
    #expect(flights.factors.map(\.kilogramsPerKilometer) == [0.2])
    expectClose(flights.totalKilograms(0), 624.353, tolerance: 0.001)
    #expect(flights.inputs.count == 2 && flights.inputs[0].hasSuffix("Datasets/airports/airports.csv"))
    #expect(flights.parameters.map(\.name) == ["flight_factor_alter-eco-2020", "flight_distance"])
    #expect(throws: ValueError.self) { try FootprintCommands.flights(trips: ["STN-XYZ"], factorSets: []) }
  }

  /// A monthly bill instead of kWh, under the thesis table (Fig 7.5):
  /// 100 EUR / 0.2396 EUR/kWh x 12 months x 0.179 kg/kWh (Electric
  /// Ireland); the Irish average is the table's 12.6 t a year (2018).
  @Test func annualFootprintIsAValue() throws {
    var input = AnnualFootprintInput()
    input.electricityBillEurosPerMonth = 100
    input.supplier = "electric-ireland"
    let annual = try FootprintCommands.annual(input)
    expectClose(annual.footprint.homeKilograms, 100 / 0.2396 * 12 * 0.179, tolerance: 1e-9)
    expectClose(annual.irishAverageKilograms, 12_600, tolerance: 1e-9)
    #expect(annual.tableName == "carbon-gamification-2022")
    #expect(annual.inputs.count == 1 && annual.inputs[0].hasSuffix("carbon-gamification-2022.csv"))
  }
}

/// Store commands as values.
struct DatabaseCommandResultTests {
  @Test func comparisonIsAValue() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-compare-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func store(_ name: String, energy: Double, recordedAt: String?) throws -> String {
      let path = "\(folder)/\(name).sqlite"
      let run = RunRecord(
        command: "energy", recordedAt: recordedAt,
        inputs: [InputFingerprint(path: "walk.gpx", sizeBytes: 10, sha256: "aa")],
        parameters: [NamedParameter(name: "body_mass_kg", value: "70", meaning: "mass")],
        results: [ResultRow(subject: "walk.gpx", metric: "energy", value: energy, unit: "kcal")])
      try ResultsStore(path: path).record(run)
      return path
    }
    // The recording time is not a result: these two hold the same.
    let a = try store("a", energy: 49.28, recordedAt: "2026-01-01T00:00:00Z")
    let b = try store("b", energy: 49.28, recordedAt: nil)
    let same = try DatabaseCommands.comparison(a, b)
    #expect(same.same && same.runs == 1)
    let c = try store("c", energy: 45.76, recordedAt: nil)
    let differ = try DatabaseCommands.comparison(a, c)
    let difference = try #require(differ.firstDifference)
    #expect(difference.left?.contains("49.28") == true && difference.right?.contains("45.76") == true)
    let table = try DatabaseCommands.exported(path: c, table: "results")
    #expect(table.rows.count == 1 && table.rows[0]["value"] == .number(45.76, 4))
    // Merging a and c: the same key, so c's run replaces a's: 2 copied, 1 held.
    let merged = try DatabaseCommands.merged(output: "\(folder)/m.sqlite", shards: [a, c])
    #expect(merged.copied == 2 && merged.total == 1)
    let info = try DatabaseCommands.information(path: "\(folder)/m.sqlite")
    #expect(info.rowCounts.first { $0.table == "runs" }?.rows == 1)
    #expect(info.rowCounts.first { $0.table == "inputs" }?.rows == 1)
    #expect(try DatabaseCommands.integrity(path: "\(folder)/m.sqlite") == "ok")
  }
}

/// `sweep` as a value.
struct SweepCommandResultTests {
  /// ACSM walking on the flat predicts m x (0.1 S + 3.5) x 0.005 kcal/min
  /// (S in m/min), so the mean error over the Stanford table's cells is
  /// linear in S and vanishes at S = (sum of kcal / (0.005 x sum of kg x
  /// min) - 3.5) / 0.1, computed here from the table itself; linear
  /// interpolation between swept speeds is then exact.
  /// The Stanford table read here: kg, min and kcal of every cell.
  static func stanfordCells() throws -> [(kilograms: Double, minutes: Double, kilocalories: Double)] {
    let text = try String(
      contentsOfFile: "\(packageRoot)/Datasets/reference/stanford-walking.csv", encoding: .utf8)
    let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    let minutes = lines[0].split(separator: ",").dropFirst().map { Double($0)! }
    var cells: [(kilograms: Double, minutes: Double, kilocalories: Double)] = []
    for line in lines.dropFirst() {
      let values = line.split(separator: ",").map { Double($0)! }
      for (t, kcal) in zip(minutes, values.dropFirst()) { cells.append((values[0] * 0.45359237, t, kcal)) }
    }
    return cells
  }

  @Test func breakEvenMatchesTheClosedForm() throws {
    var kilogramMinutes = 0.0
    var kilocalories = 0.0
    for cell in try Self.stanfordCells() {
      kilogramMinutes += cell.kilograms * cell.minutes
      kilocalories += cell.kilocalories
    }
    let metersPerMinute = (kilocalories / (0.005 * kilogramMinutes) - 3.5) / 0.1
    let mph = metersPerMinute / 26.8224
    let sweep = try SweepCommand.sweep(
      .init(
        modelIDs: ["acsm-walking"], reference: "stanford-walking", parameter: .speed,
        from: Units.metersPerSecond(fromMilesPerHour: 2), to: Units.metersPerSecond(fromMilesPerHour: 7),
        step: Units.metersPerSecond(fromMilesPerHour: 0.5), assumptions: [try Assumption(parsing: "grade=0")])
    )
    #expect(sweep.points.count == 11)
    let breakEven = try #require(sweep.breakEvens.first)
    expectClose(breakEven.value, mph, tolerance: 1e-9)
    // ACSM's walking equation holds to 3.7 mph: the break-even lies outside.
    #expect(breakEven.insideValidRange == false)
    #expect(sweep.validRanges.count == 1 && sweep.validRanges[0].to <= 3.7)
  }
}

/// `evaluate` as a value.
struct EvaluateCommandResultTests {
  /// A model needing an input the table does not state says which inputs
  /// the table states and how to give the rest.
  @Test func anUnstatedInputNamesWhatTheTableStates() {
    do {
      _ = try EvaluateCommand.evaluation(
        .init(modelIDs: ["acsm-walking"], reference: "stanford-walking", assumptions: []))
      Issue.record("expected an error: the table states no speed")
    } catch let error as UsageError {
      #expect(
        error.message
          == "model acsm-walking needs a speed; the table stanford-walking states only body_mass_lb, duration_min: give the rest as assumed values"
      )
      // The library names the setting; the command line words it (--assume).
      #expect(error.remedy == Remedy(.assumption, value: "NAME=VALUE") && error.kind == .unsupported)
    } catch {
      Issue.record("expected a usage error, got \(error)")
    }
  }

  /// ACSM walking at 3 mph (80.4672 m/min) on the flat: every cell predicts
  /// kg x (0.1 x 80.4672 + 3.5) x 0.005 x min; the bias is the mean of
  /// prediction minus cell over the table's 25 x 15 cells, computed here.
  @Test func evaluationIsAValue() throws {
    let cells = try SweepCommandResultTests.stanfordCells()
    let differences = cells.map {
      $0.kilograms * (0.1 * 80.4672 + 3.5) * 0.005 * $0.minutes - $0.kilocalories
    }
    let bias = differences.reduce(0, +) / Double(differences.count)
    let mae = differences.map(abs).reduce(0, +) / Double(differences.count)
    let evaluation = try EvaluateCommand.evaluation(
      .init(
        modelIDs: ["acsm-walking"], reference: "stanford-walking",
        assumptions: [try Assumption(parsing: "speed=3mph"), try Assumption(parsing: "grade=0")]))
    #expect(evaluation.unit == "kcal" && evaluation.assumed == ["speed=3mph", "grade=0"])
    let statistics = try #require(evaluation.comparisons.first).accumulator.statistics()
    #expect(statistics.count == 375)
    expectClose(statistics.bias, bias, tolerance: 1e-9)
    expectClose(statistics.meanAbsoluteError, mae, tolerance: 1e-9)
    // The stored run holds every cell's prediction and the table's cells.
    let run = EvaluateCommand.runRecord(evaluation, inputs: [], recordedAt: nil)
    #expect(run.predictions.count == 375 && run.referenceValues.count == 375)
    #expect(
      run.command
        == "evaluate --models acsm-walking --reference stanford-walking --assume speed=3mph --assume grade=0")
    #expect(
      run.errorSummaries.contains {
        $0.statistic == "bias" && $0.unit == "kcal" && $0.value.map { abs($0 - bias) < 0.01 } == true
      })
  }
}

/// `energy` as a value.
struct EnergyCommandResultTests {
  /// ACSM walking on the flat at 1.3 m/s (78 m/min): VO2 = 0.1 x 78 + 3.5 =
  /// 11.3 mL/kg/min; 70 kg: 11.3 x 70 / 1000 x 5 = 3.955 kcal/min, 39.55
  /// kcal in 10 min. Resting VO2 (3.5 mL/kg/min) in the vehicle: 1.225
  /// kcal/min, 12.25 kcal in 10 min.
  @Test func energyByModeIsAValue() throws {
    let file = try TrackCommandResultTests.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: file) }
    var subject = ModelInput()
    subject.bodyMassKilograms = 70
    var options = EnergyCommand.Options(files: [file], modelID: "acsm-walking", subject: subject)
    options.byMode = true
    let energy = try EnergyCommand.energy(options)
    #expect(energy.parts.map { $0.activity?.mode } == [.walk, .vehicle])
    #expect(energy.parts.map(\.energy.modelID) == ["acsm-walking", "resting"])
    expectClose(energy.parts[0].energy.energyKilocalories, 39.55, tolerance: 39.55 * 0.02)
    // Coordinates are written to 1e-8 degrees (about 1 mm): speeds good to
    // about 1e-5 of 1.3 m/s.
    expectClose(energy.parts[0].energy.kilocaloriesPerMinute, 3.955, tolerance: 1e-5)
    expectClose(energy.parts[1].energy.energyKilocalories, 12.25, tolerance: 12.25 * 0.02)
    expectClose(energy.totalDurationSeconds, 1200, tolerance: 1.5)
    let run = EnergyCommand.runRecord(energy, options: options, inputs: [], recordedAt: nil)
    // Every figure of the printed row, under its name without a unit, and
    // the treatments' energy change; each row's number is the printed one.
    #expect(run.activities.count == 2 && run.tracks.count == 1)
    #expect(
      run.results.filter { $0.subject.hasSuffix("#1 walk") }.map(\.metric) == [
        "body_mass", "duration", "distance", "speed", "grade", "grade_min", "grade_max", "vo2", "energy_rate",
        "energy", "treated_steps", "treatment_energy_change",
      ])
    let walk = try #require(
      run.results.first { $0.subject.hasSuffix("#1 walk") && $0.metric == "energy_rate" })
    #expect(walk.unit == "kcal/min" && walk.value == energy.parts[0].energy.kilocaloriesPerMinute)
    #expect(run.command == "energy --by-mode")
  }

  /// Per fix, the cumulative energy of the last fix is the file's energy.
  @Test func perFixEnergyAddsUpToTheTotal() throws {
    let file = try TrackCommandResultTests.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: file) }
    var subject = ModelInput()
    subject.bodyMassKilograms = 70
    var options = EnergyCommand.Options(files: [file], modelID: "acsm-walking", subject: subject)
    options.perFix = true
    let energy = try EnergyCommand.energy(options)
    let last = try #require(energy.fixes.last)
    expectClose(last.cumulativeKilocalories, try #require(energy.totalEnergyKilocalories), tolerance: 1e-9)
    // One step's speed carries the GPX's rounding (coordinates to 8
    // decimals, about 1 mm; times to the millisecond): up to about 0.2 % of
    // a 1 s step's speed, 0.005 kcal/min.
    let walking = energy.fixes[300]
    expectClose(walking.output.kilocaloriesPerMinute, 3.955, tolerance: 0.005)
  }
}

/// `profile` as a value.
struct ProfileCommandResultTests {
  /// The two-leg track under the Alter Eco set. The epoch model calls the
  /// 10 m/s leg a vehicle, which takes the car factor (the set has no
  /// vehicle factor) with a note: 6 x 0.175 = 1.05 kg CO2, the walk none.
  /// Energy: 39.55 kcal walking and 12.25 kcal resting for 70 kg (see the
  /// energy test).
  @Test func profileIsAValue() throws {
    let file = try TrackCommandResultTests.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: file) }
    var options = ProfileCommand.Options(files: [file], binning: .session, timeZone: .utc)
    let profile = try ProfileCommand.profile(options)
    #expect(profile.activities.map(\.mode) == ["walk", "vehicle"])
    expectClose(profile.activities[1].co2Kilograms, 1.05, tolerance: 1.05 * 0.01)
    #expect(profile.activities[0].co2Kilograms == 0)
    #expect(profile.found.fallbacks.map(\.code) == ["vehicle-factor"])
    let co2 = profile.bins.reduce(0) { $0 + $1.co2Kilograms }
    expectClose(co2, 1.05, tolerance: 1.05 * 0.01)
    let energy = profile.bins.reduce(0) { $0 + $1.energyKilocalories }
    expectClose(energy, 39.55 + 12.25, tolerance: 51.8 * 0.02)
    #expect(profile.bodyMassKilograms == 70 && profile.parameters.first?.value == "alter-eco-2020")
    // Under the speed bands the leg is a bus, and the set has no bus
    // factor: an error naming the file, unless the car's is the fallback.
    options.modes = .speedBands(SpeedBandParameters())
    #expect(throws: InputError.self) { try ProfileCommand.profile(options) }
    options.factorFallback = .car
    let bands = try ProfileCommand.profile(options)
    #expect(bands.activities.map(\.mode) == ["walk", "bus"])
    #expect(bands.found.fallbacks.map(\.code) == ["factor-fallback"])
    expectClose(bands.activities[1].co2Kilograms, 1.05, tolerance: 1.05 * 0.01)
  }
}

/// `stats agreement` and `agreement` as values.
struct AgreementCommandResultTests {
  /// a - b over (1, 2), (2, 2), (3, 5) is -1, 0, -2: bias -1, SD 1, limits
  /// -1 -/+ 1.96, MAE 1; the NA row is left out and counted.
  @Test func columnAgreementIsAValue() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-pairs-\(UUID().uuidString).csv"
    ).path
    try "id,a,b\n1,1,2\n2,2,2\n3,3,5\n4,NA,1\n".write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let agreement = try AgreementCommands.columnAgreement(path: path, a: "a", b: "b")
    #expect(agreement.pairs.count == 3 && agreement.droppedPairs == 1)
    let s = agreement.agreement.statistics
    expectClose(s.bias, -1, tolerance: 1e-12)
    expectClose(s.sdDifference, 1, tolerance: 1e-12)
    expectClose(s.limitsOfAgreementLower, -2.96, tolerance: 1e-12)
    expectClose(s.limitsOfAgreementUpper, 0.96, tolerance: 1e-12)
    expectClose(s.meanAbsoluteError, 1, tolerance: 1e-12)
  }

  /// ACSM walking against resting VO2 on the two-leg track, 70 kg, per
  /// minute: walking at 78 m/min 3.955 against 1.225 kcal/min for ten
  /// epochs; on the bus leg (600 m/min, far outside ACSM's range) (0.1 x
  /// 600 + 3.5) x 0.35 = 22.225 against 1.225 for ten more. Bias: (2.73 x
  /// 10 + 21.0 x 10) / 20 = 11.865 kcal/min.
  @Test func modelAgreementIsAValue() throws {
    let file = try TrackCommandResultTests.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: file) }
    var subject = ModelInput()
    subject.bodyMassKilograms = 70
    let agreement = try AgreementCommands.modelAgreement(
      files: [file], modelIDs: ["acsm-walking", "resting"], subject: subject, epochSeconds: 60,
      speedSmoothingFixes: 1, track: TrackAnalysisParameters())
    let pair = try #require(agreement.pairs.first)
    #expect(pair.a == "acsm-walking" && pair.b == "resting")
    #expect(pair.agreement.statistics.count == 20 && agreement.epochs.count == 40)
    expectClose(pair.agreement.statistics.bias, 11.865, tolerance: 0.01)
    #expect(
      agreement.diagnostics.contains { $0.message.contains("mph") }, "ACSM walking says it is out of range")
  }
}

/// `accel energy` as a value.
struct AccelCommandResultTests {
  /// A synthetic minute of walking at 2 steps/s (120 steps by
  /// construction): StepMyHealth's 0.4 kcal per step and Birdsley's 0.0507
  /// give 0.4 and 0.0507 x steps; an intake of 2,100 kcal leaves 2,100 -
  /// 0.4 x steps.
  static func walkingMinute() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-walk-\(UUID().uuidString).csv"
    ).path
    var spec = SyntheticRecordingSpec()
    spec.legs = [(.walk, 60)]
    let (driver, _) = Driver.buffered()
    try AccelCommands.synth(spec, outputPath: path, driver: driver)
    return path
  }

  /// A minute at 100 Hz is 6,000 samples; walking at 0.3 g on top of
  /// gravity gives ENMO = mean of max(0, |a| - 1) = 0.3 / pi g = 95.5 mg
  /// (the mean of a half-wave rectified sine), in one 60 s epoch from
  /// 08:00:00. A missing file is its own failure.
  @Test func summariesAndEpochsAreValues() throws {
    let path = try Self.walkingMinute()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let results = AccelCommands.summaries(files: [path, path + ".missing"], options: AccelOptions())
    let summary = try results[0].get()
    #expect(summary.analysis.samples == 6000)
    #expect(throws: InputError.self) { try results[1].get() }
    let r = try AccelCommands.epochs(file: path, epochSeconds: 60, options: AccelOptions())
    let epochs = try #require(r.analysis.epochs(seconds: 60))
    #expect(epochs.count == 1)
    expectClose(epochs[0].enmoMilliG, 300 / Double.pi, tolerance: 3)
    expectClose(Double(try #require(epochs[0].steps)), 120, tolerance: 1.5)
    let days = try AccelCommands.days(r, options: AccelOptions(), energy: AccelEnergyOptions())
    #expect(days.count == 1 && days[0].day.steps == epochs[0].steps)
    let stepMyHealth = try #require(days[0].energy.first { $0.model == "steps-stepmyhealth" })
    expectClose(stepMyHealth.kilocalories, 0.4 * Double(epochs[0].steps ?? 0), tolerance: 1e-9)
  }

  /// The charts of the walking minute before any is drawn: acceleration
  /// per epoch, steps per hour and energy per hour; the hourly table has
  /// 24 hours and its steps add up to the recording's.
  @Test func plotIsAValue() throws {
    let path = try Self.walkingMinute()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let r = try AccelPipeline.analyse(path, options: AccelOptions())
    let plot = try AccelCommands.plot(r, options: AccelOptions(), energy: AccelEnergyOptions())
    #expect(
      plot.charts.map { $0.name.components(separatedBy: "-").last } == ["acceleration", "steps", "energy"])
    #expect(plot.hourly.rows.count == 24)
    let steps = plot.hourly.rows.compactMap { row -> Int? in
      if case .integer(let n) = row["steps"] { return n }
      return nil
    }.reduce(0, +)
    #expect(steps == r.analysis.steps)
    // One worn minute: the hours' worn time adds up to the minute (1/60 h),
    // on one day, and the steps chart draws steps per worn hour, 60 times
    // the minute's steps where the minute lies in one hour.
    let worn = plot.hourly.rows.compactMap { row -> Double? in
      if case .number(let h, _) = row["worn_h"] { return h }
      return nil
    }
    expectClose(worn.reduce(0, +), 1.0 / 60, tolerance: 1e-6)
    let days = plot.hourly.rows.compactMap { row -> Int? in
      if case .integer(let n) = row["days"] { return n }
      return nil
    }
    #expect(days.allSatisfy { $0 <= 1 } && days.contains(1))
    let chart = try #require(plot.charts.first { $0.name.hasSuffix("-steps") })
    #expect(chart.title.contains("per worn hour") && chart.title.contains("mean over one day"))
    if worn.filter({ $0 > 0 }).count == 1, let bars = chart.stackedBars {
      let drawn = bars.values.flatMap { $0 }.filter(\.isFinite)
      #expect(drawn.count == 1)
      expectClose(drawn.first ?? 0, Double(steps) * 60, tolerance: 1e-6)
    }
  }

  @Test func recordingEnergyIsAValue() throws {
    let path = try Self.walkingMinute()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let options = AccelOptions()
    let recording = try AccelPipeline.analyse(path, options: options)
    let steps = Double(try #require(recording.analysis.steps))
    expectClose(steps, 120, tolerance: 1.5)
    let energy = try AccelCommands.recordingEnergy(
      recording, options: options, energy: AccelEnergyOptions(), intakeKilocalories: 2100,
      allowanceKilocalories: nil)
    let totals = Dictionary(uniqueKeysWithValues: energy.totals.map { ($0.model, $0.kcal) })
    expectClose(totals["steps-stepmyhealth"], 0.4 * steps, tolerance: 1e-9)
    expectClose(totals["steps-birdsley-2005"], 0.0507 * steps, tolerance: 1e-9)
    #expect(energy.hourly == nil)
    let user = try #require(energy.balance?.users.first)
    expectClose(user.balance.balanceKilocalories, 2100 - 0.4 * steps, tolerance: 1e-9)
    #expect(user.balance.allowanceKilocalories == 2000, "the default allowance")
  }
}

/// `survey summary` as a value.
struct SurveyCommandResultTests {
  /// Five answers on the agreement scale (codes 1-5): Neither (3), Agree
  /// (4) three times, Strongly agree (5): median 4; top two boxes 4 of 5 =
  /// 80 %, Wilson 95 % interval 37.553 % to 96.378 % (z = 1.959964,
  /// computed with Python's math module). One answer left empty: n = 5.
  @Test func surveySummaryIsAValue() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-survey-\(UUID().uuidString).csv"
    ).path
    try """
    id,The app is easy to use
    1,Agree
    2,Agree
    3,Neither agree nor disagree
    4,Strongly agree
    5,Agree
    6,

    """.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let summary = try SurveyCommands.summary(SurveyCommands.Input(path: path))
    #expect(summary.loaded.survey.format == "plain" && summary.loaded.inputs == [path])
    let question = try #require(summary.summaries.first)
    #expect(question.n == 5 && question.scale?.name == "agreement5")
    #expect(question.counts.first { $0.label == "Agree" }?.count == 3)
    #expect(question.median == 4)
    let top = try #require(question.topTwoBox)
    expectClose(top.estimate, 0.8, tolerance: 1e-12)
    expectClose(top.lower, 0.3755346, tolerance: 1e-6)
    expectClose(top.upper, 0.9637759, tolerance: 1e-6)
    #expect(summary.loaded.parameters.first?.name == "missing_codes")
  }
}

/// `survey sus` and `survey crosstab` as values.
struct SurveyScoreResultTests {
  static func export(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-survey-\(UUID().uuidString).csv"
    ).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// SUS (Brooke 1996): odd items score answer - 1, even items 5 - answer,
  /// the sum times 2.5. All 3s: 10 x 2 x 2.5 = 50; 5 on odd and 1 on even
  /// items: 10 x 4 x 2.5 = 100. A respondent with an item missing gets no
  /// score: n = 2, mean 75.
  @Test func susIsAValue() throws {
    let header = "id," + (1...10).map { "Q\($0)" }.joined(separator: ",")
    let path = try Self.export(
      [
        header, "a," + Array(repeating: "3", count: 10).joined(separator: ","),
        "b," + (1...10).map { $0 % 2 == 1 ? "5" : "1" }.joined(separator: ","),
        "c,," + Array(repeating: "2", count: 9).joined(separator: ","),
      ].joined(separator: "\n") + "\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try SurveyCommands.loaded(SurveyCommands.Input(path: path))
    let sus = try SurveyCommands.sus(loaded.survey, items: [])
    #expect(sus.respondents.map(\.score) == [50, 100, nil])
    #expect(sus.respondents.map(\.itemsUsed) == [10, 10, 9])
    #expect(sus.summary.n == 2 && sus.skipped == 1)
    expectClose(sus.summary.mean, 75, tolerance: 1e-12)
  }

  /// ASQ is the mean of a task's three items (Lewis 1991): respondents
  /// (7, 6, 5) and (4, 4, 4) score 6 and 4, mean 5.
  @Test func asqIsAValue() throws {
    let path = try Self.export("id,ease,time,support\n1,7,6,5\n2,4,4,4\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try SurveyCommands.loaded(SurveyCommands.Input(path: path))
    let tasks = try SurveyCommands.asq(
      loaded.survey, tasks: [(name: "t1", items: ["ease", "time", "support"])])
    #expect(tasks.count == 1 && tasks[0].task == "t1")
    #expect(tasks[0].summary.scores == [6, 4])
    expectClose(tasks[0].summary.mean, 5, tolerance: 1e-12)
  }

  /// Mann-Whitney U by hand: group A answers 1, 2, 3 and group B 4, 5, 5,
  /// so A holds ranks 1-3, R1 = 6, U1 = 6 - 3 x 4 / 2 = 0 and U = min(0, 9) = 0.
  @Test func groupComparisonIsAValue() throws {
    let path = try Self.export("id,Rating,Group\n1,1,A\n2,2,A\n3,3,A\n4,4,B\n5,5,B\n6,5,B\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try SurveyCommands.loaded(SurveyCommands.Input(path: path))
    let comparison = try SurveyCommands.comparison(loaded, question: "Rating", by: "Group")
    #expect(comparison.groups.map(\.name) == ["A", "B"])
    #expect(comparison.groups.map(\.values) == [[1, 2, 3], [4, 5, 5]])
    guard case .mannWhitney(let test) = comparison.test else {
      Issue.record("two groups take Mann-Whitney")
      return
    }
    #expect(test.u == 0)
  }

  /// Counts of a 2 x 2 table; chi-square by hand: rows yes (3), no (3),
  /// columns A (3), B (3), observed yes-A 3, no-B 3, others 0: every
  /// expected count 1.5, chi2 = 4 x 1.5^2 / 1.5 = 6, dof 1, V = 1.
  @Test func crosstabIsAValue() throws {
    let path = try Self.export("id,Owns a car,Group\n1,Yes,A\n2,Yes,A\n3,Yes,A\n4,No,B\n5,No,B\n6,No,B\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try SurveyCommands.loaded(SurveyCommands.Input(path: path))
    let (_, _, t) = try SurveyCommands.crosstab(loaded, rows: "Owns a car", columns: "Group")
    #expect(t.degreesOfFreedom == 1)
    expectClose(t.chiSquare, 6, tolerance: 1e-9)
    expectClose(t.cramersV, 1, tolerance: 1e-9)
    #expect(t.counts.flatMap { $0 }.reduce(0, +) == 6)
  }
}
