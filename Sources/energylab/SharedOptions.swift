import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

/// Options that describe the subject and the activity, shared by
/// `energy` and `models eval`. Values take units: 65kg, 154lb, 3mph, 5%.
struct SubjectOptions: ParsableArguments {
  @Option(
    parsing: .unconditional, help: "Body mass, as 65kg or 143lb.",
    transform: { try QuantityParser.massKilograms($0) })
  var mass: Double?
  @Option(help: "Age in years.") var age: Double?
  @Option(help: "Sex: male or female.") var sex: Sex?
  @Option(
    parsing: .unconditional, help: "Body height, as 1.75m or 175cm.", transform: QuantityParser.lengthMeters)
  var height: Double?
  @Option(
    parsing: .unconditional, help: "Heart rate, as 150bpm (or 150: bpm is the only unit).",
    transform: QuantityParser.heartRateBeatsPerMinute)
  var heartRate: Double?
  @Option(
    parsing: .unconditional, help: "Resting heart rate, as 55bpm (recorded with the run).",
    transform: QuantityParser.heartRateBeatsPerMinute)
  var restingHr: Double?
  @Option(
    parsing: .unconditional,
    help: "Maximal heart rate, as 185bpm (heart-rate-reserve models; else 208 - 0.7 x age).",
    transform: QuantityParser.heartRateBeatsPerMinute)
  var maxHr: Double?
  @Option(help: "VO2max in mL/kg/min.") var vo2max: Double?
  @Option(
    parsing: .unconditional, help: "Carried load, as 10kg or 22lb.",
    transform: { try QuantityParser.massKilograms($0, positive: false) })
  var load: Double?
  @Option(help: "Terrain factor (Pandolf), 1.0 for a treadmill or blacktop.") var terrain: Double?
  @Option(
    parsing: .unconditional, help: "Ergometer power, as 100W (or 100: W is the only unit).",
    transform: QuantityParser.powerWatts)
  var power: Double?
  @Option(help: "Bench stepping rate, steps/min.") var stepRate: Double?
  @Option(
    parsing: .unconditional, help: "Bench step height, as 0.2m or 20cm.",
    transform: QuantityParser.lengthMeters)
  var stepHeight: Double?
  @Option(help: "Energy per step, kcal (steps-fixed).") var kcalPerStep: Double?
  @Option(
    parsing: .unconditional, help: "Stride (step) length, as 0.7m or 70cm.",
    transform: QuantityParser.lengthMeters)
  var stride: Double?
  @Option(help: "MET value of the activity (model met).") var met: Double?
  @Option(
    help:
      "Mechanical efficiency, in (0, 1]: kinetic models (default 1); gross efficiency of power-meter and martin-1998-cycling (default 0.198)."
  )
  var efficiency: Double?
  @Option(help: "Cycling drag area CdA, m^2 (martin-1998-cycling; default 0.32).") var cda: Double?
  @Option(help: "Rolling-resistance coefficient (martin-1998-cycling; default 0.0032).") var crr: Double?
  @Option(help: "Air density, kg/m^3 (martin-1998-cycling; default 1.225).") var airDensity: Double?
  @Option(
    parsing: .unconditional, help: "Mass of bicycle and gear, as 8kg (martin-1998-cycling; default 8 kg).",
    transform: { try QuantityParser.massKilograms($0) })
  var bikeMass: Double?
  @Option(help: "Activity code of the MET table Datasets/met/compendium-2011.csv (model met).") var activity:
    String?
  @Option(
    help:
      "Subjects CSV (id, body_mass_kg, age_years, sex, height_m, vo2max_ml_kg_min, resting_hr_bpm, max_hr_bpm)."
  ) var subjects: String?
  @Option(help: "Subject id in --subjects.") var subject: String?

  func validate() throws {
    if subjects != nil && subject == nil { throw ValidationError("--subjects needs --subject ID") }
    if subject != nil && subjects == nil { throw ValidationError("--subject needs --subjects FILE") }
  }

  /// The files the subject's values were read from (a subjects file, the
  /// MET table) as inputs of the run, and the choices made in them (the
  /// subject id, the activity code) as its parameters.
  func sources() throws -> OptionSources {
    var sources = OptionSources()
    if let subjects, let subject {
      sources.files.append(subjects)
      sources.parameters.append(
        NamedParameter(name: "subject", value: subject, meaning: "subject id in the subjects file"))
    }
    if let activity {
      sources.files.append(try ShippedData.locate(METTableLocator.defaultPath, what: "MET table"))
      sources.parameters.append(
        NamedParameter(name: "met_activity", value: activity, meaning: "activity code of the MET table"))
    }
    return sources
  }

  /// The model input from the subject's file row, then the flags (flags win).
  func modelInput() throws -> ModelInput {
    var input = ModelInput()
    if let subjects, let id = subject {
      let all = try SubjectsReader.read(path: subjects)
      guard let row = all.first(where: { $0.id == id }) else {
        throw ValueError.unknown("subject", id, among: all.map(\.id), in: subjects)
      }
      input = ModelInput(valuesOf: row)
      input.subjectID = row.id
    }
    if let mass { input.bodyMassKilograms = mass }
    if let age { input.ageYears = age }
    if let sex { input.sex = sex }
    if let height { input.heightMeters = height }
    if let heartRate { input.heartRateBeatsPerMinute = heartRate }
    if let restingHr { input.restingHeartRateBeatsPerMinute = restingHr }
    if let maxHr { input.maximumHeartRateBeatsPerMinute = maxHr }
    if let vo2max { input.vo2MaxMillilitersPerKilogramPerMinute = vo2max }
    if let load { input.loadKilograms = load }
    if let terrain { input.terrainFactor = terrain }
    if let power { input.powerWatts = power }
    if let stepRate { input.stepRatePerMinute = stepRate }
    if let stepHeight { input.stepHeightMeters = stepHeight }
    if let kcalPerStep { input.kilocaloriesPerStep = kcalPerStep }
    if let stride { input.strideMeters = stride }
    if let met { input.metabolicEquivalent = met }
    if let efficiency { input.mechanicalEfficiency = efficiency }
    if let cda { input.dragAreaSquareMeters = cda }
    if let crr { input.rollingResistanceCoefficient = crr }
    if let airDensity { input.airDensityKilogramsPerCubicMeter = airDensity }
    if let bikeMass { input.equipmentMassKilograms = bikeMass }
    if let activity { input.metabolicEquivalent = try METTableLocator.met(forActivity: activity) }
    try input.checkHumanLimits()
    return input
  }
}

extension Geodesy.DistanceMethod: ExpressibleByArgument {}

/// Where a command stores its run: `--db FILE`, or with `--store` the
/// default database (`$ENERGYLAB_DB`, else energylab.sqlite here).
struct StoreOptions: ParsableArguments {
  @Option(help: "Store the run in this SQLite database.") var db: String?
  @Flag(help: "Store the run in the default database ($ENERGYLAB_DB, else energylab.sqlite).") var store =
    false
  var path: String? { db ?? (store ? DatabaseCommands.defaultPath : nil) }
}

/// Track analysis parameters on the command line.
struct TrackOptions: ParsableArguments {
  @Option(help: "Distance between fixes: geodesic (WGS-84) or haversine.")
  var distanceMethod: Geodesy.DistanceMethod = .geodesic
  @Option(help: "Horizontal window for grade, metres (PEM thesis: 20).")
  var gradeWindow: Double = 20
  @Option(help: "Speed below which a step is a stop, m/s (default by --activity).")
  var stopSpeed: Double?
  @Option(
    help: "Kind of movement, for the stop-speed default: walk (0.3 m/s), run (0.8), cycle (1.0), drive (2.0)."
  )
  var movement = Movement.walk
  @Option(
    help:
      "Elevation for gain, loss and grade: auto (cleaned where the recorded elevation jitters, else as recorded), cleaned (running median of 7 fixes, 10 s centred mean, 0.5 m hysteresis) or recorded."
  )
  var elevation = ElevationCleaning.Method.auto
  @Option(help: "Fixes in the centred average for the smoothed elevation gain.")
  var elevationSmoothing = 5
  @Option(help: "Elevation change counted by the hysteresis gain, metres.")
  var elevationHysteresis: Double = 5
  @Option(
    help: "Time zone of times written without an offset (IANA name); default UTC.",
    transform: ArgumentValue.timeZone)
  var tz: NamedTimeZone?
  @Option(help: "Cleaning: drop leading fixes this far (m) from the next (the PEM thesis saw 500 m jumps).")
  var dropStartupJumps: Double?
  @Option(help: "Cleaning: drop fixes with a larger HDOP.") var maxHdop: Double?
  @Option(help: "Cleaning: drop fixes above this elevation, m (Alter Eco: 6000).") var maxAltitude: Double?
  @Option(help: "Cleaning: drop fixes needing a faster speed than this from the last kept fix, m/s.")
  var maxSpeed: Double?
  @Flag(
    help:
      "Join the segments and tracks of a file into one path, so steps cross the gaps between them (default: each segment is a path of its own; gaps are measured, not travelled). Waypoints never join the path."
  )
  var joinSegments = false
  @Option(
    help:
      "A single fix whose steps to both neighbours need more than this speed, m/s, is left out as impossible (default 400, above any airliner's ground speed)."
  )
  var impossibleSpeed: Double = 400
  @Flag(
    help:
      "Keep impossible fixes: those at latitude 0, longitude 0 and single fixes needing impossible speeds.")
  var keepImpossibleFixes = false
  @Flag(
    help:
      "Read a FIT file that ends early up to its last whole message, with a diagnostic saying how many bytes are missing (default: refuse it)."
  )
  var readTruncated = false
  @Flag(
    help:
      "Read a FIT file whose header or file CRC does not match, with a warning naming the byte (default: refuse it)."
  )
  var ignoreCRC = false
  @Option(
    help:
      "A time step between fixes longer than this, hours, is a gap: not costed, not travelled, not split into epochs or hours (default 6)."
  )
  var maxStepHours: Double = 6

  var parameters: TrackAnalysisParameters {
    var p = TrackAnalysisParameters()
    p.distanceMethod = distanceMethod
    p.gradeWindowMeters = gradeWindow
    p.stopSpeedMetersPerSecond = stopSpeed ?? movement.stopSpeedMetersPerSecond
    p.elevationSmoothingFixes = elevationSmoothing
    p.elevationHysteresisMeters = elevationHysteresis
    p.elevationCleaning.method = elevation
    p.cleaning.startupJumpMeters = dropStartupJumps
    p.cleaning.maximumHorizontalDilution = maxHdop
    p.cleaning.maximumAltitudeMeters = maxAltitude
    p.cleaning.maximumSpeedMetersPerSecond = maxSpeed
    p.joinSegments = joinSegments
    p.readTruncatedFiles = readTruncated
    p.ignoreFileCRC = ignoreCRC
    p.maximumStepHours = maxStepHours
    if keepImpossibleFixes {
      p.cleaning.dropNullIsland = false
      p.cleaning.impossibleSpeedMetersPerSecond = nil
      p.cleaning.impossibleJumpMeters = nil
    } else {
      p.cleaning.impossibleSpeedMetersPerSecond = impossibleSpeed
    }
    return p
  }

  /// `--tz`, parsed when the arguments are.
  var timeZone: TimeZone? { tz?.zone }

  /// The option of each parameter the library checks.
  static let flags = [
    "grade_window_m": "--grade-window", "max_step_h": "--max-step-hours", "stop_speed_mps": "--stop-speed",
    "elevation_smoothing_fixes": "--elevation-smoothing", "elevation_hysteresis_m": "--elevation-hysteresis",
    "impossible_speed_mps": "--impossible-speed",
  ]

  /// The parameters check themselves; the error is worded with the option.
  func validate() throws {
    _ = try ParameterCheck.worded(Self.flags) { try parameters.validated() }
  }
}

/// Runs a parameter group's own check (`validated()`) and words its error
/// with the options: each parameter name the library gives (`step_low_pass_hz`)
/// becomes the option that sets it (`--step-low-pass`), in the subject and in
/// what is expected (`below fit_to_s` reads `below --fit-to`).
enum ParameterCheck {
  static func worded<T>(_ flags: [String: String], showingValue: Bool = true, _ check: () throws -> T) throws
    -> T
  {
    do {
      return try check()
    } catch let error as ValueError where error.kind == .outOfRange {
      let expected = error.expected.split(separator: " ", omittingEmptySubsequences: false)
        .map { flags[String($0)] ?? String($0) }.joined(separator: " ")
      let value = showingValue ? "; got \(error.value)" : ""
      throw ValidationError("\(flags[error.subject] ?? error.subject) must be \(expected)\(value)")
    }
  }
}

/// Measured energy expenditure beside the models: a COSMED K5 export, or a
/// CSV whose time and energy columns are named.
/// How a measured reference is cleaned before it is integrated.
/// The unit of a generic measured CSV's energy column.
enum MeasuredEnergyUnit: String, CaseIterable, ExpressibleByArgument {
  case kilocaloriesPerMinute = "kcal/min"
  case kilocaloriesPerHour = "kcal/h"
  case watts = "W"
  case vo2

  init?(argument: String) {
    guard let unit = Self.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) else {
      return nil
    }
    self = unit
  }
}

enum BreathFilterChoice: String, CaseIterable, ExpressibleByArgument {
  case lamarra1987 = "lamarra-1987"
  case none
}

struct MeasuredOptionGroup: ParsableArguments {
  @Option(
    help:
      "Measured expenditure: a COSMED K5 breath-by-breath CSV, or a CSV with --measured-time and --measured-energy."
  )
  var measured: String?
  @Option(help: "Time column of a generic measured CSV (seconds, or ISO-8601 times).") var measuredTime:
    String?
  @Option(help: "Energy column of a generic measured CSV.") var measuredEnergy: String?
  @Option(help: "Unit of the energy column: kcal/min, kcal/h, W, or vo2 (mL/min; with --rer).")
  var measuredUnit: MeasuredEnergyUnit?
  @Option(help: "Respiratory exchange ratio for a VO2 column (Weir 1949), as 0.85.") var rer: Double?
  @Option(
    help: "Longest heart-rate dropout filled by interpolation, as 5s (default 5 s).",
    transform: QuantityParser.durationSeconds)
  var hrGapFill: Double?
  @Option(
    help: ArgumentHelp(
      "How breaths are cleaned before the measured energy is integrated: lamarra-1987 (default) or none.",
      discussion:
        "lamarra-1987 leaves out, as unknown time, impossible breaths (VO2 or energy at or below zero, VO2 under 100 mL/min with VE over 10 L/min), breaths beyond 4 SD of the mean of their 4 neighbours, and gaps over 20 s; none reads the export as it is."
    ))
  var breathFilter: BreathFilterChoice = .lamarra1987

  /// The breath filter chosen.
  var filter: BreathFilter? { breathFilter == .none ? nil : BreathFilter() }

  func validate() throws {
    let generic = [measuredTime, measuredEnergy, measuredUnit?.rawValue].compactMap { $0 }.count
    if generic > 0 && generic < 3 {
      throw ValidationError(
        "a generic measured CSV needs --measured-time, --measured-energy and --measured-unit")
    }
    if generic > 0 && measured == nil {
      throw ValidationError("--measured-time and the like need --measured FILE")
    }
    if measuredUnit == .vo2 && rer == nil {
      throw ValidationError("--measured-unit vo2 needs --rer (as 0.85)")
    }
  }

  /// The measurement, with `file` as its own when it is a measured export
  /// and no other was named.
  func options(timeZone: TimeZone? = nil) -> MeasuredOptions? {
    guard let measured else { return nil }
    var out = MeasuredOptions(path: measured, breathFilter: filter)
    out.timeZone = timeZone
    if let hrGapFill { out.heartRateGapLimitSeconds = hrGapFill }
    if let measuredTime, let measuredEnergy, let unit = measuredUnit {
      out.timeColumn = measuredTime
      out.energyColumn = measuredEnergy
      switch unit {
      case .kilocaloriesPerMinute: out.energyUnit = .kilocaloriesPerMinute
      case .kilocaloriesPerHour: out.energyUnit = .kilocaloriesPerHour
      case .watts: out.energyUnit = .watts
      case .vo2: out.energyUnit = .oxygenUptakeMillilitersPerMinute(respiratoryExchangeRatio: rer ?? .nan)
      }
    }
    return out
  }
}
