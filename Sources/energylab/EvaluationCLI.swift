import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

struct EvaluateCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "evaluate",
    abstract:
      "Evaluate models against a reference: a published table or measured expenditure; transport modes against observed truth.",
    subcommands: [EvaluateReferenceCLI.self, EvaluateMeasuredCLI.self, EvaluateModesCLI.self],
    defaultSubcommand: EvaluateReferenceCLI.self)
}

struct EvaluateMeasuredCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "measured",
    abstract: "Evaluate models against measured expenditure in a table of participants and conditions.",
    discussion: """
      One row per participant and condition (a treadmill stage): the rows of a
      participant are repeated measures. Example:
        energylab evaluate measured stages.csv --id ID --measured VO2.kg:mL/kg/min \
          --input enmo=ENMO:mg --input speed=speed:kmh --input mass=Weight:kg \
          --models hildebrand-2014-actigraph-hip-adult,acsm-walking --by speed
      Inputs: speed (kmh, mps, mph, m/min), mass (kg, lb), enmo and mad (mg, g),
      counts and vm-counts (cpm), heart-rate, resting-hr and max-hr (bpm; 0 is
      a dropout), vo2max (mL/kg/min), age (years), height (m, cm), sex (1=male,
      1=female or m/f).
      """)

  @Argument(help: "CSV table with a header: one row per participant and condition.") var table: String
  @Option(help: "Column of participant ids.") var id: String
  @Option(
    help: "Measured column and its unit, as VO2.kg:mL/kg/min (mL/kg/min, mL/min, kcal/min or W).",
    transform: ArgumentValue.measuredColumn)
  var measured: (column: String, unit: MeasuredEvaluationCommand.MeasuredUnit)
  @Option(
    help: "A model input read from a column, as enmo=ENMO:mg (repeatable).",
    transform: MeasuredEvaluationCommand.InputColumn.init(parsing:))
  var input: [MeasuredEvaluationCommand.InputColumn] = []
  @Option(help: "Comma-separated model identifiers.", transform: ArgumentValue.models) var models: [ModelID]
  @Option(help: "A column whose values are reported apart, as speed.") var by: String?
  @OptionGroup var store: StoreOptions
  @OptionGroup var output: FormatOption

  func validate() throws {
    guard !models.isEmpty else { throw ValidationError("--models names no model (as acsm-walking)") }
  }

  func execute(in driver: Driver) throws {
    try MeasuredEvaluationCommand.run(
      .init(
        path: table, idColumn: id, measuredColumn: measured.column, measuredUnit: measured.unit,
        inputs: input,
        modelIDs: models.map(\.id), byColumn: by, format: output.format), databasePath: store.path,
      driver: driver)
  }
}

struct EvaluateModesCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "modes",
    abstract: "Score transport modes per 30 s epoch against an observer's second-by-second truth.",
    discussion: """
      Reads every .csv in --truth (Date, Time, Mode per second, local time of
      --truth-tz), classifies the tracks, and scores each epoch whose truth
      holds one class for at least 16 of its 30 seconds and in which a track
      has a fix. Prints accuracy, per-mode precision, recall and F1, the
      confusion matrix and the score per day, for EnergyLab's model, for the
      same model fitted without each day (leave-one-day-out) and, with
      --palms, for PALMS's own output on the same epochs.
      Example: energylab evaluate modes --truth truth/ --truth-tz America/Los_Angeles --palms palms.csv gpx/*.gpx
      """)
  @Argument(help: "GPS tracks of the same days.") var tracks: [String]
  @Option(help: "Folder of truth CSV files, one per day.") var truth: String
  @Option(
    help: "Time zone of the truth's (and --palms's) local times (IANA name).",
    transform: ArgumentValue.timeZone)
  var truthTz: NamedTimeZone
  @Option(help: "PALMS output CSV (dateTime, tripMode) to score on the same epochs.") var palms: String?
  @Flag(help: "Skip the leave-one-day-out scores.") var noHeldOut = false
  @Flag(help: "Also print the model's counts fitted on every day.") var fit = false
  @Flag(help: "Also score the speed bands (the classifier before the epoch model) on the same epochs.")
  var speedBands = false
  @Option(help: "Write the confusion charts (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
  @OptionGroup var track: TrackOptions
  @OptionGroup var run: FileRunOptions
  @OptionGroup var store: StoreOptions
  @OptionGroup var output: FormatOption

  func execute(in driver: Driver) throws {
    run.apply(to: driver.context)
    var options = ModeEvaluationCommand.Options(
      truthDirectory: truth, tracks: tracks, palmsPath: palms, timeZone: truthTz.zone)
    options.trackParameters = track.parameters
    options.leaveOneDayOut = !noHeldOut
    options.fit = fit
    if speedBands { options.speedBands = SpeedBandParameters() }
    options.chartsDirectory = charts
    options.databasePath = store.path
    options.format = output.format
    options.jobs = run.jobs
    try ModeEvaluationCommand.run(options, driver: driver)
  }
}

struct EvaluateReferenceCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "reference",
    abstract:
      "Evaluate models against every cell of a reference table (the default: `evaluate --models ...`).",
    discussion: """
      Inputs the table does not state (the Stanford walking table states no
      speed) must be given with --assume and are printed with the results.
      """)

  @Option(help: "Comma-separated model identifiers.", transform: ArgumentValue.models) var models: [ModelID]
  @Option(
    help: "Reference table name in Datasets/reference/ or a CSV path.", completion: Completions.references)
  var reference: String
  @Option(
    parsing: .upToNextOption, help: "Assumed inputs, as speed=3mph grade=0.", transform: Assumption.init)
  var assume: [Assumption] = []
  @Flag(help: "Also print every cell.") var cells = false
  @Option(help: "Write charts (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
  @OptionGroup var store: StoreOptions
  var db: String? { store.path }
  @OptionGroup var output: FormatOption

  func validate() throws {
    guard !models.isEmpty else {
      throw ValidationError("--models names no model (as acsm-walking,cameron-walking)")
    }
  }

  func execute(in driver: Driver) throws {
    try EvaluateCommand.run(
      .init(
        modelIDs: models.map(\.id), reference: reference, assumptions: assume,
        printCells: cells,
        chartsDirectory: charts, databasePath: db, format: output.format), driver: driver)
  }
}

struct SweepCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "sweep",
    abstract: "Error of models against a reference table as an assumed input varies; where each matches it.",
    discussion:
      "Example: energylab sweep --models acsm-walking --reference stanford-walking --vary speed --from 2mph --to 6mph --step 0.1mph --assume grade=0"
  )

  @Option(help: "Comma-separated model identifiers.", transform: ArgumentValue.models) var models: [ModelID]
  @Option(
    help: "Reference table name in Datasets/reference/ or a CSV path.", completion: Completions.references)
  var reference: String
  @Option(help: "Input to vary: speed, grade or mass.") var vary: SweepCommand.Input
  @Option(help: "First value, with unit (2mph, 0%, 50kg).") var from: String
  @Option(help: "Last value, with unit.") var to: String
  @Option(help: "Step, with unit.") var step: String
  @Option(parsing: .upToNextOption, help: "Other assumed inputs, as grade=0.", transform: Assumption.init)
  var assume: [Assumption] = []
  @Option(help: "Write the chart (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
  @OptionGroup var store: StoreOptions
  @OptionGroup var output: FormatOption

  /// --from, --to and --step in the swept input's unit (m/s, fraction, kg).
  func range() throws -> (first: Double, last: Double, increment: Double) {
    func value(_ text: String, _ option: String) throws -> Double {
      do {
        switch vary {
        case .speed: return try QuantityParser.speedMetersPerSecond(text)
        case .grade: return try QuantityParser.gradeFraction(text)
        case .mass: return try QuantityParser.massKilograms(text)
        }
      } catch { throw ValidationError("\(option) \"\(text)\": \(error)") }
    }
    return (try value(from, "--from"), try value(to, "--to"), try value(step, "--step"))
  }

  func validate() throws {
    let (first, last, increment) = try range()
    guard increment > 0, last >= first else {
      throw ValidationError("sweep needs --from <= --to and a positive --step")
    }
    guard (last - first) / increment < 10_000 else {
      throw ValidationError("a sweep of more than 10000 values is too long; use a larger --step")
    }
    guard !assume.contains(where: { $0.name == vary.rawValue }) else {
      throw ValidationError("\(vary.rawValue) is swept; do not also --assume it")
    }
  }

  func execute(in driver: Driver) throws {
    let (first, last, increment) = try range()
    try SweepCommand.run(
      .init(
        modelIDs: models.map(\.id), reference: reference, parameter: vary, from: first, to: last,
        step: increment,
        assumptions: assume, chartsDirectory: charts, format: output.format
      ),
      driver: driver, databasePath: store.path)
  }
}

struct AgreementCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "agreement",
    abstract: "Agreement of energy models on the same tracks, pair by pair, per epoch.",
    discussion: """
      Example: energylab agreement walk.gpx --models acsm-walking,keytel-2005 --mass 70kg --age 30 --sex male

      With --against measured, each model is compared with measured expenditure
      over the same whole epochs: a COSMED K5 export given as the track (it holds
      positions per breath), or --measured FILE aligned by time with the tracks.
      """
  )

  @Argument(help: "Track files: GPX, TCX, FIT, or COSMED K5 CSV (with heart rate for heart-rate models).")
  var files: [String]
  @Option(help: "Comma-separated model identifiers (at least two).", transform: ArgumentValue.models)
  var models: [ModelID]
  @Option(
    help: "Epoch over which energy rates are compared, as 60s or 1min.",
    transform: QuantityParser.durationSeconds)
  var epoch: Double = 60
  @OptionGroup var store: StoreOptions
  var db: String? { store.path }
  @Option(help: "Centred moving average of step speeds over N fixes (1 = none).") var speedSmoothing = 1
  @OptionGroup var subject: SubjectOptions
  @OptionGroup var track: TrackOptions
  @Option(help: "Folder for the Bland-Altman chart of each pair of models.") var charts: String?
  @Option(
    help:
      "Compare each model with a reference instead of with each other: measured (expenditure) or power (a power meter, against a power model such as martin-1998-cycling)."
  )
  var against: String?
  @Option(
    help:
      "Equivalence zone of the bias for two one-sided tests, as 10% (of the mean reference) or 0.5 (in kcal/min, or W).",
    transform: ArgumentValue.equivalenceZone)
  var equivalence: AgreementIndices.Zone?
  @OptionGroup(title: "Measured expenditure") var measured: MeasuredOptionGroup
  @OptionGroup var output: FormatOption

  func validate() throws {
    if let against, against != "measured" && against != "power" {
      throw ValidationError(
        "--against takes measured (the measured expenditure) or power (the power meter); got \(against)")
    }
    guard models.count >= (against == nil ? 2 : 1) else {
      throw ValidationError(
        against == nil
          ? "agreement needs at least two --models (or one with --against measured)"
          : "agreement needs a model")
    }
    if against == "measured" && measured.measured == nil,
      let track = files.first(where: { !TrackCommands.isMeasuredExport($0) })
    {
      throw ValidationError("\(track) is not a measured export: give its measurement with --measured FILE")
    }
    if measured.measured != nil && against != "measured" {
      throw ValidationError("--measured is compared with --against measured")
    }
    guard epoch > 0 else { throw ValidationError("--epoch must be positive") }
    guard speedSmoothing >= 1 else { throw ValidationError("--speed-smoothing must be at least 1") }
  }

  func execute(in driver: Driver) throws {
    try AgreementCommands.models(
      files: files, modelIDs: models.map(\.id), subject: try subject.modelInput(),
      epochSeconds: epoch, speedSmoothingFixes: speedSmoothing,
      track: track.parameters, format: output.format, databasePath: db, chartsDirectory: charts,
      measured: measured.options(), againstMeasured: against == "measured", againstPower: against == "power",
      zone: equivalence, breathFilter: measured.filter, sources: try subject.sources(), driver: driver)
  }
}

struct StatsCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats", abstract: "Statistics on any table.", subcommands: [Agreement.self])

  struct Agreement: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Agreement of two columns of a CSV (differences are a minus b): bias, limits, MAE, RMSE, MAPE, r, CCC, ICC.",
      discussion: """
        The limits of agreement take the form two tests choose (the trend and the
        spread of the differences against the means): absolute, ratio (on the
        logarithms), regression-based or none. With --id, rows of one participant
        are repeated measures (Bland & Altman 2007) whenever a participant has
        more than one row, with MOVER intervals (Zou 2013).
        """
    )
    @Argument(help: "CSV file with a header.") var file: String
    @Option(help: "Column a (the method under test).") var a: String
    @Option(help: "Column b (the reference).") var b: String
    @Option(help: "Column of participant ids: several rows of one participant are repeated measures.")
    var id: String?
    @Option(
      help:
        "Equivalence zone of the bias for two one-sided tests, as 10% (of the mean reference) or 0.5 (in the columns' unit).",
      transform: ArgumentValue.equivalenceZone)
    var equivalence: AgreementIndices.Zone?
    @Option(
      help:
        "Unit of both columns, named in the output's keys (as kcal: bias_kcal, loa_lower_kcal, ...); letters, digits and _."
    )
    var unit: String?
    @Option(help: "Folder for the Bland-Altman chart.") var charts: String?
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption

    func validate() throws {
      if let unit,
        unit.isEmpty || !unit.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
      {
        throw ValidationError("--unit \"\(unit)\" must be letters, digits and _ (as kcal or kcal_per_min)")
      }
    }

    func execute(in driver: Driver) throws {
      try AgreementCommands.statsAgreement(
        path: file, a: a, b: b, id: id, unit: unit, zone: equivalence, chartsDirectory: charts,
        databasePath: store.path, format: output.format, driver: driver)
    }
  }
}
