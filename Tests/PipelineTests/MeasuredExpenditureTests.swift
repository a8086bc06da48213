import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// Models against measured expenditure: a COSMED K5 export as a track that
/// carries its own measured energy, and a generic CSV aligned by time.
struct MeasuredExpenditureTests {
  /// A K5 export as COSMED lays it out (subject and test information in the
  /// columns left of the data, a names row, a units row, one row per breath)
  /// of a 10-minute walk north at 1.3 m/s (4.68 km/h) from 51.5 N, a breath
  /// every 3 s, EEm `kcalPerMinute` throughout, HR 120 with the strap
  /// dropping out (0) on the breath at 30 s. Latitude steps use 111,257 m
  /// per degree (the WGS-84 meridian degree at 51.5 N).
  static func k5Walk(kcalPerMinute: Double = 4.5) -> String {
    var lines = [
      "ID,0042,,t,Rf,VO2,VCO2,RQ,EEm,HR,Lat,Long,GPS Speed,GPS Altitude",
      "Test Date,25/03/2021,,s,1/min,mL/min,mL/min,---,kcal/min,bpm,,,km/h,m",
    ]
    for k in 0...200 {
      let seconds = Double(k * 3)
      let latitude = 51.5 + 1.3 * seconds / 111_257
      let minutes = (latitude - 51) * 60
      let wholeMinutes = Int(minutes)
      let secondsOfArc = (minutes - Double(wholeMinutes)) * 60
      let dms = "\"N51° \(wholeMinutes)' \(String(format: "%.4f", secondsOfArc))\"\"\""
      let info = k == 0 ? "Test Time,10:15:00" : ","
      let clock = String(format: "%02d:%02d:%02d", k * 3 / 3600, k * 3 / 60 % 60, k * 3 % 60)
      lines.append(
        "\(info),,\(clock),20,1000,850,0.85,\(kcalPerMinute),\(k == 10 ? 0 : 120),\(dms),W0° 6' 0.00\",4.68,20"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func write(_ text: String, name: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-\(UUID().uuidString)-\(name)"
    ).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// `energy` on the K5 file: its path is the breaths' positions, 600 s at
  /// 1.3 m/s = 780 m; ACSM walking for 70 kg gives (0.1 x 78 + 3.5) x 70 /
  /// 1000 x 5 = 3.955 kcal/min, 39.55 kcal; measured 4.5 kcal/min over the
  /// same 600 s, 45.0 kcal. The heart-rate dropout leaves 6 s between
  /// readings, more than the 5 s filled by default: missing, never 0.
  @Test func energyReportsMeasuredBesideTheModel() throws {
    let path = try Self.write(Self.k5Walk(), name: "k5-walk.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let track = try TrackCommands.readTrack(path)
    #expect(track.points.count == 201)
    #expect(track.points[10].heartRateBeatsPerMinute == nil)
    var longer = MeasuredOptions(path: path)
    longer.heartRateGapLimitSeconds = 6
    #expect(try longer.read().samples[10].heartRateBeatsPerMinute == 120)
    // 2021-03-25T10:15:00Z: the test date and time, read as UTC.
    #expect(track.points[0].timeSecondsSince1970 == 1_616_667_300)
    let options = EnergyCommand.Options(
      files: [path], modelID: "acsm-walking", subject: ModelInput(bodyMassKilograms: 70))
    let energy = try EnergyCommand.energy(options)
    let part = try #require(energy.parts.first)
    expectClose(part.energy.distanceMeters, 780, tolerance: 780 * 0.001)
    expectClose(part.energy.energyKilocalories, 39.55, tolerance: 39.55 * 0.002)
    expectClose(part.measuredKilocalories, 45.0, tolerance: 1e-9)
    let row = try #require(EnergyCommand.table(energy, options: options).rows.first)
    guard case .number(let shown, digits: 2)? = row["measured_kcal"] else {
      Issue.record("no measured_kcal column")
      return
    }
    expectClose(shown, 45.0, tolerance: 1e-9)
    let run = EnergyCommand.runRecord(energy, options: options, inputs: [], recordedAt: nil)
    #expect(run.results.contains { $0.metric == "measured_energy" && abs(($0.value ?? 0) - 45) < 1e-9 })
  }

  /// A heart-rate model and its measured reference over the same steps:
  /// the strap drops out at 30 s, so Keytel has no energy on the steps
  /// next to it, and those seconds are left out of the measured energy too.
  /// Measured is 4.5 kcal/min throughout, so over the compared seconds it
  /// is 4.5 x compared / 60 exactly; the model over them is all of its
  /// energy (it has none elsewhere).
  @Test func heartRateDropoutIsLeftOutOfBoth() throws {
    let path = try Self.write(Self.k5Walk(), name: "k5-walk.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let options = EnergyCommand.Options(
      files: [path], modelID: "keytel-2005",
      subject: ModelInput(bodyMassKilograms: 70, ageYears: 30, sex: .male))
    let energy = try EnergyCommand.energy(options)
    let part = try #require(energy.parts.first)
    #expect(part.leftOutSeconds > 0)
    expectClose(part.comparedSeconds + part.leftOutSeconds, 600, tolerance: 1e-9, "compared + left out")
    expectClose(part.measuredKilocalories, 4.5 * part.comparedSeconds / 60, tolerance: 1e-9, "measured")
    expectClose(part.comparedModelKilocalories, part.energy.energyKilocalories, tolerance: 1e-9, "model")
    #expect(energy.diagnostics.contains { $0.code == "compared-over-common-time" })
  }

  /// `agreement --against measured`: ten whole minutes; ACSM walking is
  /// 3.955 - 4.5 = -0.545 kcal/min off in each, 39.55 against 45.0 kcal in
  /// all; the differences are constant, so the limits are absolute.
  @Test func agreementAgainstMeasured() throws {
    let path = try Self.write(Self.k5Walk(), name: "k5-walk.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let agreement = try AgreementCommands.modelAgreement(
      files: [path], modelIDs: ["acsm-walking"], subject: ModelInput(bodyMassKilograms: 70), epochSeconds: 60,
      speedSmoothingFixes: 1, track: TrackAnalysisParameters(), againstMeasured: true)
    let pair = try #require(agreement.pairs.first)
    #expect(pair.a == "acsm-walking" && pair.b == "measured")
    #expect(pair.agreement.statistics.count == 10)
    expectClose(pair.agreement.statistics.bias, -0.545, tolerance: 0.002)
    expectClose(pair.pairs.reduce(0) { $0 + $1.1 }, 45.0, tolerance: 1e-9)
    #expect(agreement.epochs.contains { $0.metric == "energy_rate measured" })
    #expect(agreement.parameters.contains { $0.name == "against" && $0.value == "measured" })
  }

  /// A GPX walk with a separate generic CSV of measured power in W with
  /// times counted from the start: 313.8 W = 313.8 x 60 / 4184 = 4.5
  /// kcal/min, aligned to the track's first fix (a note says so).
  @Test func aGenericMeasurementAlignsByTime() throws {
    var spec = SyntheticTrackSpec()
    spec.speedMetersPerSecond = 1.3
    let gpx = try Self.write(GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test"), name: "walk.gpx")
    let csv = try Self.write(
      "elapsed_s,power_w\n"
        + stride(from: 0, through: 600, by: 5).map { "\($0),313.8" }.joined(separator: "\n"),
      name: "power.csv")
    defer {
      try? FileManager.default.removeItem(atPath: gpx)
      try? FileManager.default.removeItem(atPath: csv)
    }
    var measured = MeasuredOptions(path: csv)
    measured.timeColumn = "elapsed_s"
    measured.energyColumn = "power_w"
    measured.energyUnit = .watts
    var options = EnergyCommand.Options(
      files: [gpx], modelID: "acsm-walking", subject: ModelInput(bodyMassKilograms: 70))
    options.measured = measured
    let energy = try EnergyCommand.energy(options)
    expectClose(
      try #require(energy.parts.first?.measuredKilocalories), 313.8 * 60 / 4184 * 10, tolerance: 1e-6)
    #expect(energy.diagnostics.contains { $0.code == "measured-times-relative" })
    #expect(energy.files.contains(csv))
  }
}

/// `evaluate measured` on the shipped treadmill stages (21 adults, 110
/// stages): ACSM walking from the stage speed and Hildebrand et al. 2014's
/// adult ActiGraph hip line from ENMO, against measured VO2 in mL/kg/min.
/// Expected values printed by `scripts/oracles/treadmill.py` (numpy, from
/// the published equations; repeated measures by Bland and Altman 2007
/// overall, independent pairs per speed).
struct MeasuredTableEvaluationTests {
  static func evaluation() throws -> MeasuredEvaluationCommand.Evaluation {
    try MeasuredEvaluationCommand.evaluate(
      .init(
        path: "\(packageRoot)/Datasets/treadmill-enmo-vo2/stages.csv", idColumn: "ID",
        measuredColumn: "VO2_ml_kg_min", measuredUnit: .millilitersPerKilogramPerMinute,
        inputs: [
          try .init(parsing: "enmo=ENMO_mg:mg"), try .init(parsing: "speed=speed_kmh:kmh"),
          try .init(parsing: "mass=weight_kg:kg"),
        ],
        modelIDs: ["acsm-walking", "hildebrand-2014-actigraph-hip-adult"], byColumn: "speed_kmh"))
  }

  @Test func treadmillStagesAgainstMeasuredOxygenUptake() throws {
    let e = try Self.evaluation()
    func group(_ model: String, _ by: String) throws -> LimitsOfAgreement {
      try #require(e.groups.first { $0.model == model && $0.by == by }?.agreement.limits, "\(model) \(by)")
    }
    let acsm = try group("acsm-walking", "all")
    #expect(acsm.count == 110 && acsm.participants == 21 && acsm.nesting == .repeatedMeasures)
    expectClose(acsm.bias, -0.9439393939393934, tolerance: 1e-9, "ACSM bias")
    expectClose(acsm.constant.lower, -5.264715361075526, tolerance: 1e-9, "ACSM lower")
    expectClose(acsm.constant.upper, 3.376836573196739, tolerance: 1e-9, "ACSM upper")
    let hildebrand = try group("hildebrand-2014-actigraph-hip-adult", "all")
    // Rest has no ENMO: 89 stages.
    #expect(hildebrand.count == 89 && hildebrand.participants == 21)
    expectClose(hildebrand.bias, 3.1842898876404484, tolerance: 1e-9, "Hildebrand bias")
    expectClose(hildebrand.constant.lower, -0.9590602955883072, tolerance: 1e-9, "Hildebrand lower")
    expectClose(hildebrand.constant.upper, 7.327640070869204, tolerance: 1e-9, "Hildebrand upper")
    // Per speed, independent pairs; ACSM predicts one value per speed, so
    // the form is absolute by construction.
    let four = try group("acsm-walking", "4")
    #expect(four.count == 19 && four.nesting == .independent && four.form == .absolute)
    expectClose(four.bias, -1.3596491228070164, tolerance: 1e-9, "ACSM at 4 km/h")
    expectClose(four.constant.lower, -4.427424544034541, tolerance: 1e-9, "ACSM at 4 km/h lower")
    let six = try group("hildebrand-2014-actigraph-hip-adult", "6")
    expectClose(six.bias, 5.395371428571428, tolerance: 1e-9, "Hildebrand at 6 km/h")
    expectClose(six.constant.upper, 9.67844700149454, tolerance: 1e-9, "Hildebrand at 6 km/h upper")
    #expect(
      e.diagnostics.contains { $0.code == "rows-without-prediction" && $0.message.contains("21 row(s)") })
  }

  /// Keytel against the measured energy (Weir, kcal/min) of the 110
  /// stages, stages within participants, with and without each one's
  /// resting heart rate (their rest stage's): below 57 % of the maximum the
  /// resting rate sets the line from rest to the equation
  /// (`resting-hr-blend`), else the time is costed at rest. Expected values
  /// from scripts/oracles/treadmill.py (numpy, the equation written there
  /// from the paper): with the resting rate bias 0.19416, limits -4.31476
  /// and 4.70308; without, -0.22326, -5.07053 and 4.62401.
  @Test func keytelOnTheTreadmillWithTheRestingHeartRate() throws {
    func limits(_ extra: [String]) throws -> (LimitsOfAgreement, [Diagnostic]) {
      let e = try MeasuredEvaluationCommand.evaluate(
        .init(
          path: "\(packageRoot)/Datasets/treadmill-enmo-vo2/stages.csv", idColumn: "ID",
          measuredColumn: "energy_kcal_min", measuredUnit: .kilocaloriesPerMinute,
          inputs: try
            (["heart-rate=HR_bpm:bpm", "mass=weight_kg:kg", "age=age_years:years", "sex=sex:1=male"]
            + extra).map { try .init(parsing: $0) },
          modelIDs: ["keytel-2005"], byColumn: nil))
      return (try #require(e.groups.first?.agreement.limits), e.diagnostics)
    }
    let (blend, notes) = try limits(["resting-hr=resting_HR_bpm:bpm"])
    #expect(blend.count == 110 && blend.participants == 21)
    expectClose(blend.bias, 0.19415849169321936, relative: 1e-12)
    expectClose(blend.constant.lower, -4.314759732939511, relative: 1e-12)
    expectClose(blend.constant.upper, 4.70307671632595, relative: 1e-12)
    #expect(notes.contains { $0.code == "resting-hr-blend" && $0.message.hasPrefix("58 row(s)") })
    let (rest, restNotes) = try limits([])
    expectClose(rest.bias, -0.22326163075344618, relative: 1e-12)
    expectClose(rest.constant.lower, -5.070532387360253, relative: 1e-12)
    expectClose(rest.constant.upper, 4.6240091258533615, relative: 1e-12)
    #expect(restNotes.contains { $0.code == "flex-hr-rest" })
  }

  /// kcal/min: a model's VO2 at 5 kcal per litre; for the measured column
  /// in kcal/min, ACSM walking at 4 km/h (66.67 m/min) for 97.3 kg is
  /// (0.1 x 66.667 + 3.5) x 97.3 / 1000 x 5 = 4.946 kcal/min.
  @Test func kilocaloriesFromOxygenUptake() throws {
    let unit = MeasuredEvaluationCommand.MeasuredUnit.kilocaloriesPerMinute
    let vo2: Double = 0.1 * 4000 / 60 + 3.5
    let expected: Double = vo2 * 97.3 / 1000 * 5
    let out = ModelOutput(vo2MillilitersPerKilogramPerMinute: vo2)
    expectClose(unit.value(of: out, massKilograms: 97.3), expected, tolerance: 1e-12)
    let perKilogram = MeasuredEvaluationCommand.MeasuredUnit.millilitersPerKilogramPerMinute
    expectClose(
      perKilogram.value(of: ModelOutput(kilocaloriesPerMinute: 5), massKilograms: 100), 10, tolerance: 1e-12)
    #expect(throws: (any Error).self) {
      try MeasuredEvaluationCommand.InputColumn(parsing: "enmo=ENMO:furlongs")
    }
    #expect(throws: (any Error).self) { try MeasuredEvaluationCommand.InputColumn(parsing: "colour=x:mg") }
  }
}
