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
  @Option(help: "Sex: male or female.") var sex: String?
  @Option(
    parsing: .unconditional, help: "Body height, as 1.75m or 175cm.", transform: QuantityParser.lengthMeters)
  var height: Double?
  @Option(
    parsing: .unconditional, help: "Heart rate, as 150bpm (or 150: bpm is the only unit).",
    transform: QuantityParser.heartRateBeatsPerMinute)
  var heartRate: Double?
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
  @Option(help: "Mechanical efficiency of the kinetic models, in (0, 1]; default 1.") var efficiency: Double?
  @Option(help: "Activity code of the MET table Datasets/met/compendium-2011.csv (model met).") var activity:
    String?
  @Option(help: "Subjects CSV (id, body_mass_kg, age_years, sex, height_m, vo2max_ml_kg_min).") var subjects:
    String?
  @Option(help: "Subject id in --subjects.") var subject: String?

  /// The model input from the subject's file row, then the flags (flags win).
  func modelInput() throws -> ModelInput {
    var input = ModelInput()
    if let subjects {
      guard let id = subject else { throw UsageError("--subjects needs --subject ID") }
      let all = try SubjectsReader.read(path: subjects)
      guard let row = all.first(where: { $0.id == id }) else {
        throw UsageError(
          "no subject \"\(id)\" in \(subjects); it lists \(all.map(\.id).joined(separator: ", "))")
      }
      input.bodyMassKilograms = row.bodyMassKilograms
      input.ageYears = row.ageYears
      input.sex = row.sex
      input.heightMeters = row.heightMeters
      input.vo2MaxMillilitersPerKilogramPerMinute = row.vo2MaxMillilitersPerKilogramPerMinute
    } else if subject != nil {
      throw UsageError("--subject needs --subjects FILE")
    }
    if let mass { input.bodyMassKilograms = mass }
    if let age { input.ageYears = age }
    if let sex {
      guard let value = Sex(rawValue: sex.lowercased()) else {
        throw UsageError("cannot read --sex \"\(sex)\"; expected male or female")
      }
      input.sex = value
    }
    if let height { input.heightMeters = height }
    if let heartRate { input.heartRateBeatsPerMinute = heartRate }
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
    if let activity { input.metabolicEquivalent = try METTableLocator.met(forActivity: activity) }
    if let m = input.bodyMassKilograms, !(m > 0 && m < 500) {
      throw UsageError(
        "body mass \(Fixed.format(m, digits: 1)) kg is not a human body mass; expected 1-500 kg")
    }
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
  var movement = "walk"
  @Option(help: "Fixes in the centred average for the smoothed elevation gain.")
  var elevationSmoothing = 5
  @Option(help: "Elevation change counted by the hysteresis gain, metres.")
  var elevationHysteresis: Double = 5
  @Option(help: "Time zone of times written without an offset (IANA name); default UTC.")
  var tz: String?
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

  var parameters: TrackAnalysisParameters {
    var p = TrackAnalysisParameters()
    p.distanceMethod = distanceMethod
    p.gradeWindowMeters = gradeWindow
    p.stopSpeedMetersPerSecond = stopSpeed ?? TrackAnalysisParameters.stopSpeedDefaults[movement] ?? 0.3
    p.elevationSmoothingFixes = elevationSmoothing
    p.elevationHysteresisMeters = elevationHysteresis
    p.cleaning.startupJumpMeters = dropStartupJumps
    p.cleaning.maximumHorizontalDilution = maxHdop
    p.cleaning.maximumAltitudeMeters = maxAltitude
    p.cleaning.maximumSpeedMetersPerSecond = maxSpeed
    p.joinSegments = joinSegments
    if keepImpossibleFixes {
      p.cleaning.dropNullIsland = false
      p.cleaning.impossibleSpeedMetersPerSecond = nil
      p.cleaning.impossibleJumpMeters = nil
    } else {
      p.cleaning.impossibleSpeedMetersPerSecond = impossibleSpeed
    }
    return p
  }

  func timeZone() throws -> TimeZone? {
    guard let tz else { return nil }
    let zone = try TimeZoneLookup.zone(named: tz)
    return zone
  }

  func validate() throws {
    guard gradeWindow > 0 else { throw ValidationError("--grade-window must be positive") }
    guard (stopSpeed ?? 0) >= 0 else { throw ValidationError("--stop-speed must not be negative") }
    guard TrackAnalysisParameters.stopSpeedDefaults[movement] != nil else {
      throw ValidationError("--movement must be walk, run, cycle or drive")
    }
    guard elevationSmoothing >= 1 else { throw ValidationError("--elevation-smoothing must be at least 1") }
    guard elevationHysteresis >= 0 else {
      throw ValidationError("--elevation-hysteresis must not be negative")
    }
    guard impossibleSpeed > 0 else { throw ValidationError("--impossible-speed must be positive") }
  }
}

extension TransportMode: ExpressibleByArgument {}

struct EnergyCLI: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "energy",
    abstract: "Energy of tracks under a model, per file, activity or fix, and in total.",
    discussion: """
      With --by-mode, tracks are split into walk, run, cycle, bus, car and train
      activities by bands of median speed, and each mode has its own model
      (defaults: acsm-walking, acsm-running, met at 7.5 MET for cycling, and
      resting for passive travel; change with --model-for cycle=acsm-cycling).
      """)

  @Argument(help: "GPX files.") var files: [String]
  @Option(help: "Model identifier (see `energylab models list`).", completion: Completions.models)
  var model = "acsm-walking"
  @Flag(help: "Split tracks into activities by speed band; one model per mode.") var byMode = false
  @Option(help: "Model of a mode, as walk=acsm-gait (repeatable).") var modelFor: [String] = []
  @Flag(help: "One row per fix instead of per file or activity.") var perFix = false
  @Option(help: "Centred moving average of step speeds over N fixes before the model (1 = none).")
  var speedSmoothing = 1
  @OptionGroup var subject: SubjectOptions
  @OptionGroup var track: TrackOptions
  @OptionGroup var store: StoreOptions
  var db: String? { store.path }
  @OptionGroup var output: FormatOption

  func execute(in context: CommandContext) throws {
    var options = EnergyCommand.Options(files: files, modelID: model, subject: try subject.modelInput())
    options.track = track.parameters
    options.byMode = byMode
    options.perFix = perFix
    options.speedSmoothingFixes = speedSmoothing
    options.databasePath = db
    options.format = output.format
    for entry in modelFor {
      let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let mode = TransportMode(rawValue: parts[0]) else {
        throw UsageError(
          "cannot read --model-for \"\(entry)\"; expected MODE=MODEL with MODE one of \(TransportMode.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      options.modelForMode[mode] = parts[1]
    }
    if !modelFor.isEmpty && !byMode { throw UsageError("--model-for needs --by-mode") }
    guard speedSmoothing >= 1 else { throw UsageError("--speed-smoothing must be at least 1") }
    try EnergyCommand.run(options, context: context)
  }
}

struct EvaluateCLI: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "evaluate",
    abstract: "Evaluate models against every cell of a reference table.",
    discussion: """
      Inputs the table does not state (the Stanford walking table states no
      speed) must be given with --assume and are printed with the results.
      """)

  @Option(help: "Comma-separated model identifiers.") var models: String
  @Option(
    help: "Reference table name in Datasets/reference/ or a CSV path.", completion: Completions.references)
  var reference: String
  @Option(parsing: .upToNextOption, help: "Assumed inputs, as speed=3mph grade=0.") var assume: [String] = []
  @Flag(help: "Also print every cell.") var cells = false
  @Option(help: "Write charts (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
  @OptionGroup var store: StoreOptions
  var db: String? { store.path }
  @OptionGroup var output: FormatOption

  func execute(in context: CommandContext) throws {
    let ids = models.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
    try EvaluateCommand.run(
      .init(
        modelIDs: ids, reference: reference, assumptions: try assume.map(Assumption.init(parsing:)),
        printCells: cells,
        chartsDirectory: charts, databasePath: db, format: output.format), context: context)
  }
}

struct SweepCLI: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "sweep",
    abstract: "Error of models against a reference table as an assumed input varies; where each matches it.",
    discussion:
      "Example: energylab sweep --models acsm-walking --reference stanford-walking --vary speed --from 2mph --to 6mph --step 0.1mph --assume grade=0"
  )

  @Option(help: "Comma-separated model identifiers.") var models: String
  @Option(
    help: "Reference table name in Datasets/reference/ or a CSV path.", completion: Completions.references)
  var reference: String
  @Option(help: "Input to vary: speed, grade or mass.") var vary: String
  @Option(help: "First value, with unit (2mph, 0%, 50kg).") var from: String
  @Option(help: "Last value, with unit.") var to: String
  @Option(help: "Step, with unit.") var step: String
  @Option(parsing: .upToNextOption, help: "Other assumed inputs, as grade=0.") var assume: [String] = []
  @Option(help: "Write the chart (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
  @OptionGroup var output: FormatOption

  func execute(in context: CommandContext) throws {
    let ids = models.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
    try SweepCommand.run(
      .init(
        modelIDs: ids, reference: reference, parameter: vary, from: from, to: to, step: step,
        assumptions: try assume.map(Assumption.init(parsing:)), chartsDirectory: charts, format: output.format
      ),
      context: context)
  }
}

struct AgreementCLI: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "agreement",
    abstract: "Agreement of energy models on the same tracks, pair by pair, per epoch.",
    discussion:
      "Example: energylab agreement walk.gpx --models acsm-walking,keytel-2005 --mass 70kg --age 30 --sex male"
  )

  @Argument(help: "GPX files (with heart rate for heart-rate models).") var files: [String]
  @Option(help: "Comma-separated model identifiers (at least two).") var models: String
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
  @OptionGroup var output: FormatOption

  func execute(in context: CommandContext) throws {
    let ids = models.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
      !$0.isEmpty
    }
    try AgreementCommands.models(
      files: files, modelIDs: ids, subject: try subject.modelInput(),
      epochSeconds: epoch, speedSmoothingFixes: max(1, speedSmoothing),
      track: track.parameters, format: output.format, databasePath: db, chartsDirectory: charts,
      context: context)
  }
}

struct StatsCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats", abstract: "Statistics on any table.", subcommands: [Agreement.self])

  struct Agreement: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Agreement of two columns of a CSV (differences are a minus b): bias, limits, MAE, RMSE, MAPE, r, CCC."
    )
    @Argument(help: "CSV file with a header.") var file: String
    @Option(help: "Column a (the method under test).") var a: String
    @Option(help: "Column b (the reference).") var b: String
    @Option(
      help:
        "Unit of both columns, named in the output's keys (as kcal: bias_kcal, loa_lower_kcal, ...); letters, digits and _."
    )
    var unit: String?
    @Option(help: "Folder for the Bland-Altman chart.") var charts: String?
    @OptionGroup var output: FormatOption

    func validate() throws {
      if let unit,
        unit.isEmpty || !unit.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
      {
        throw ValidationError("--unit \"\(unit)\" must be letters, digits and _ (as kcal or kcal_per_min)")
      }
    }

    func execute(in context: CommandContext) throws {
      try AgreementCommands.statsAgreement(
        path: file, a: a, b: b, unit: unit, chartsDirectory: charts, format: output.format, context: context)
    }
  }
}

extension ProfileBinning: ExpressibleByArgument {}

struct ProfileCLI: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "profile",
    abstract: "Energy and CO2 of trips per mode, binned by hour, day, week, month or year in a time zone.",
    discussion: """
      Trips are split into activities by speed band (modes the factor set lacks
      hand their band to the next faster mode). Energy: ACSM on foot, MET 7.5
      cycling, resting VO2 when travelling passively (PEM thesis). CO2:
      distance x the factor set's factor. An activity spanning bins is split in
      proportion to its time in each. Defaults: --factors alter-eco-2020,
      --mass 70kg; both are named in the output.
      """)

  @Argument(help: "GPX files.") var files: [String]
  @Option(help: "Bins: hour, hour-of-day, day, week, month, year, activity or session.") var by:
    ProfileBinning = .day
  @Option(
    help: "Emission factor set in Datasets/factors/ (default alter-eco-2020) or a CSV path.",
    completion: Completions.factorSets)
  var factors: String?
  @Option(
    help:
      "Mode whose factor an activity takes when the factor set has none for its own mode, as car (with a warning; default: an error)."
  )
  var factorFallback: String?
  @Option(
    parsing: .unconditional, help: "Body mass, as 65kg (default 70kg).",
    transform: { try QuantityParser.massKilograms($0) })
  var mass: Double?
  @Option(help: "Write charts (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
  @OptionGroup var store: StoreOptions
  var db: String? { store.path }
  @OptionGroup var track: TrackOptions
  @OptionGroup var output: FormatOption

  func execute(in context: CommandContext) throws {
    // --tz (from the track options) sets both the bins' zone and the zone of
    // times written without an offset.
    var options = ProfileCommand.Options(files: files, binning: by, timeZone: track.tz ?? "UTC")
    options.factorSet = factors
    options.factorFallback = factorFallback
    options.bodyMassKilograms = mass
    options.track = track.parameters
    options.chartsDirectory = charts
    options.databasePath = db
    options.format = output.format
    try ProfileCommand.run(options, context: context)
  }
}

struct FootprintCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "footprint",
    abstract: "Flight emissions and the carbon gamification thesis's annual calculator.",
    subcommands: [Flights.self, Annual.self])

  struct Flights: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "CO2 of flights by great-circle distance between airports (Datasets/airports/airports.csv).",
      discussion:
        "Example: energylab footprint flights STN-CAG:return STN-TFS:return --factors alter-eco-2020 --factors carbon-gamification-2022"
    )
    @Argument(help: "Flights as FROM-TO[:return][:TRIPS].") var flights: [String]
    @Option(help: "Factor set with a plane or flight factor (repeatable; default alter-eco-2020).")
    var factors: [String] = []
    @Option(help: "A published total in tonnes to compare with (repeatable).") var published: [Double] = []
    @Option(help: "Where the published totals come from.") var publishedSource: String?
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try FootprintCommands.flights(
        trips: flights, factorSets: factors, published: published, publishedSource: publishedSource,
        format: output.format, context: context)
    }
  }

  struct Annual: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Annual footprint: home, car, flights, diet and goods (carbon gamification thesis, Fig 7.5).")
    @Option(help: "Electricity used per month, kWh.") var electricityKwh: Double?
    @Option(help: "Electricity bill per month, euro (used when no kWh is given).") var electricityBill:
      Double?
    @Option(help: "Electricity supplier, as electric-ireland (default all-island-mix).") var supplier =
      "all-island-mix"
    @Option(help: "Heating fuel: natural-gas, kerosene, lpg, peat, coal-1 or coal-2.") var heating: String?
    @Option(help: "People in the household.") var occupants: Double = 1
    @Option(help: "Petrol burned per week, litres.") var petrol: Double = 0
    @Option(help: "Diesel burned per week, litres.") var diesel: Double = 0
    @Option(help: "A flight as FROM-TO[:return][:TRIPS] (repeatable).") var flight: [String] = []
    @Option(help: "Diet: vegan, vegetarian, pescatarian, low-meat, medium-meat or high-meat.") var diet =
      "medium-meat"
    @Option(
      help: "Servings per week as FOOD=N (beef, pork, poultry, rice, fish, coffee, cheese, milk; repeatable)."
    )
    var servings: [String] = []
    @Option(help: "Food wasted per week, kg (default the UK average 3.486).") var foodWaste: Double?
    @Option(help: "Spending per month as ITEM=EUR (clothing, electronics, streaming; repeatable).") var spend:
      [String] = []
    @Option(help: "Mobile data per month, GB.") var mobileData: Double = 0
    @OptionGroup var output: FormatOption

    func pairs(_ items: [String], option: String) throws -> [String: Double] {
      var out: [String: Double] = [:]
      for item in items {
        let parts = item.split(separator: "=").map(String.init)
        guard parts.count == 2, let value = Double(parts[1]), value >= 0 else {
          throw UsageError("cannot read --\(option) \"\(item)\"; expected NAME=NUMBER")
        }
        out[parts[0], default: 0] += value
      }
      return out
    }

    func execute(in context: CommandContext) throws {
      var input = AnnualFootprintInput()
      input.electricityKilowattHoursPerMonth = electricityKwh
      input.electricityBillEurosPerMonth = electricityBill
      input.supplier = supplier
      input.heatingFuel = heating
      input.occupants = occupants
      input.petrolLitresPerWeek = petrol
      input.dieselLitresPerWeek = diesel
      if !flight.isEmpty {
        let airports = try FactorReaders.airports(path: FootprintCommands.airportsPath)
        input.flights = try flight.map { try FootprintCommands.trip($0, airports: airports) }
      }
      input.diet = diet
      input.servingsPerWeek = try pairs(servings, option: "servings")
      input.foodWasteKilogramsPerWeek = foodWaste
      input.goodsEurosPerMonth = try pairs(spend, option: "spend")
      input.mobileDataGigabytesPerMonth = mobileData
      try FootprintCommands.annual(input, format: output.format, context: context)
    }
  }
}

/// How a survey export is read, shared by the survey commands.
struct SurveyInputOptions: ParsableArguments {
  @Argument(
    help:
      "Survey export: Google Forms, Microsoft Forms, Qualtrics, SurveyMonkey, LimeSurvey CSV or an aggregate file."
  )
  var export: String
  @Option(
    help:
      "Scale of a question, as QUESTION=SCALE (agreement5, agreement7, likelihood5, ease5, quality5, definitely5, yesno, yesmaybeno, points5, points7, severity or one of --scales); repeatable."
  )
  var scale: [String] = []
  @Option(help: "CSV of custom scales: scale,label,value,role (role empty, neutral or na).") var scales:
    String?
  @Option(help: "A multi-select question whose options share one cell (Google Forms, Qualtrics); repeatable.")
  var multi: [String] = []
  @Option(help: "A reverse-scored question (its scale is coded from the other end); repeatable.")
  var reverse: [String] = []
  @Option(
    help:
      "Export dialect: plain (one row per respondent), qualtrics, google-forms, microsoft-forms, surveymonkey, limesurvey or aggregate (default: detected, plain as the fallback)."
  )
  var dialect: String?
  @Option(help: "Cells read as no answer in a plain CSV, comma-separated (default NA,N/A,-99; empty always).")
  var missing: String?
  @Option(help: "The respondent id column of a plain CSV (default: a column named id, respondent_id, ...).")
  var idColumn: String?

  var input: SurveyCommands.Input {
    var input = SurveyCommands.Input(path: export)
    input.dialect = dialect
    if let missing { input.missingCodes = missing.split(separator: ",").map(String.init) }
    input.idColumn = idColumn
    input.scales = scale
    input.scaleFile = scales
    input.multiSelect = multi
    input.reverse = reverse
    return input
  }
}

struct SurveyCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "survey",
    abstract: "Survey exports and published aggregates: summaries, SUS, crosstabs, group tests.",
    subcommands: [Summary.self, Sus.self, Asq.self, Crosstab.self, Compare.self])

  struct Asq: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "asq",
      abstract: "After-Scenario Questionnaire per task: mean of three 1-7 items, with 95 % interval.")
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "A task as NAME=ITEM1,ITEM2,ITEM3 (ease, time, support); repeatable.") var task: [String] =
      []
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      let tasks = try task.map { text -> (name: String, items: [String]) in
        guard let eq = text.firstIndex(of: "=") else {
          throw UsageError("cannot read --task \"\(text)\"; expected NAME=Q1,Q2,Q3")
        }
        return (String(text[..<eq]), text[text.index(after: eq)...].split(separator: ",").map(String.init))
      }
      guard !tasks.isEmpty else { throw UsageError("survey asq needs at least one --task") }
      try SurveyCommands.asq(survey.input, tasks: tasks, format: output.format, context: context)
    }
  }

  struct Summary: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Per question: n, counts, percentages, median and IQR, top-two-box with Wilson interval; partial data kept partial."
    )
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "Keyword codebook for open-ended answers: CSV theme,keywords (keywords separated by |).")
    var codebook: String?
    @Option(help: "Write charts (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
    @OptionGroup var store: StoreOptions
    var db: String? { store.path }
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try SurveyCommands.summary(
        survey.input, codebookPath: codebook, chartsDirectory: charts, databasePath: db,
        format: output.format, context: context)
    }
  }

  struct Sus: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "sus",
      abstract: "System Usability Scale per respondent and overall, with 95 % interval and adjective.")
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "The ten SUS items in order, comma-separated (default: the ten questions answered 1-5).")
    var items: String?
    @Option(help: "Write the score distribution chart into this folder.") var charts: String?
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try SurveyCommands.sus(
        survey.input, items: items?.split(separator: ",").map(String.init) ?? [], chartsDirectory: charts,
        format: output.format, context: context)
    }
  }

  struct Crosstab: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Contingency table, chi-square test of independence and Cramer's V.")
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "Question for rows (id, text or part of it).") var rows: String
    @Option(help: "Question for columns.") var cols: String
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try SurveyCommands.crosstab(
        survey.input, rows: rows, columns: cols, format: output.format, context: context)
    }
  }

  struct Compare: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "An ordinal question across groups: Mann-Whitney U (2 groups) or Kruskal-Wallis H, with effect sizes."
    )
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "Ordinal question to compare.") var question: String
    @Option(help: "Question whose answers form the groups.") var by: String
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try SurveyCommands.compare(
        survey.input, question: question, by: by, format: output.format, context: context)
    }
  }
}

struct BalanceCLI: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "balance",
    abstract:
      "StepMyHealth calorie balance: intake minus steps x kcal per step, progress colour, points, leaderboard."
  )
  @Option(help: "A user as NAME:INTAKE_KCAL:STEPS:ALLOWANCE_KCAL (repeatable).") var user: [String] = []
  @Option(help: "kcal per step (the thesis uses 0.4).") var kcalPerStep: Double = 0.4
  @OptionGroup var output: FormatOption
  func execute(in context: CommandContext) throws {
    try BalanceCommand.run(
      users: try user.map { try BalanceCommand.User(parsing: $0, kilocaloriesPerStep: kcalPerStep) },
      kilocaloriesPerStep: kcalPerStep, format: output.format, context: context)
  }
}

struct DurationCLI: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "duration",
    abstract: "Read travel times written as text (\"1 hour 5 mins\") into minutes; compare with actual ones.")
  @Argument(help: "Durations as text, as \"45 mins\" or \"1 hour 5 mins\".") var texts: [String]
  @Option(help: "Actual durations in the same order, for predicted-against-actual errors (repeatable).")
  var actual: [String] = []
  @OptionGroup var output: FormatOption
  func execute(in context: CommandContext) throws {
    try DurationCommand.run(texts: texts, actual: actual, format: output.format, context: context)
  }
}

struct ModelsCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "models", abstract: "List, explain and evaluate energy models.",
    subcommands: [List.self, Explain.self, Eval.self])

  struct List: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Every model with its equation, inputs, range and citation.")
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      ModelsCommands.list(format: output.format, context: context)
    }
  }

  struct Explain: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "A model's equation, units, valid range and citation.")
    @Argument(help: "Model identifier.", completion: Completions.models) var id: String
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try ModelsCommands.explain(id: id, format: output.format, context: context)
    }
  }

  struct Eval: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Evaluate a model on inputs given as options.",
      discussion: "Example: energylab models eval acsm-walking --speed 2.9mph --grade 2% --mass 65kg")
    @Argument(help: "Model identifier.", completion: Completions.models) var id: String
    @Option(
      parsing: .unconditional, help: "Speed, as 1.34mps, 4.8kmh, 3mph or 80m/min.",
      transform: QuantityParser.speedMetersPerSecond)
    var speed: Double?
    @Option(
      parsing: .unconditional, help: "Grade, as 5% or -10% (or a fraction between -1 and 1, as 0.05).",
      transform: CommandLineQuantity.grade)
    var grade: Double?
    @OptionGroup var subject: SubjectOptions
    @Option(help: "Step count.") var steps: Double?
    @Option(help: "Duration in minutes.") var minutes: Double?
    @Option(
      parsing: .unconditional, help: "Distance, as 1mi, 1.6km or 1600m.",
      transform: QuantityParser.distanceMeters)
    var distance: Double?
    @Option(help: "A published value to set beside EnergyLab's, as kcal_per_min=4.55 (repeatable).")
    var published: [String] = []
    @Option(help: "Where the published values come from.") var publishedSource: String?
    @OptionGroup var output: FormatOption

    func execute(in context: CommandContext) throws {
      var input = try subject.modelInput()
      input.speedMetersPerSecond = speed
      input.gradeFraction = grade
      input.steps = steps
      input.durationSeconds = minutes.map { $0 * 60 }
      input.distanceMeters = distance
      try ModelsCommands.eval(
        id: id, input: input, published: try published.map(ModelsCommands.PublishedValue.init(parsing:)),
        publishedSource: publishedSource, format: output.format, context: context)
    }
  }
}

struct TrackCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "track", abstract: "Synthesise, summarise and segment tracks.",
    subcommands: [Synth.self, Summary.self, Segments.self, Plot.self])

  struct Plot: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Charts of a track: speed by mode over time, elevation and grade over distance, activities by mode.")
    @Argument(help: "GPX or TCX file.") var file: String
    @Option(help: "Write the charts (PNG, SVG, .gp, .dat) into this folder (default: charts/).") var charts:
      String?
    @OptionGroup var track: TrackOptions
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try TrackCommands.plot(
        file: file, parameters: track.parameters, defaultTimeZone: try track.timeZone(),
        chartsDirectory: charts ?? (context.figuresDirectory == nil ? "charts" : nil),
        format: output.format, context: context)
    }
  }

  struct Synth: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a synthetic walk as GPX: a straight geodesic at constant speed and grade.")
    @Option(name: .shortAndLong, help: "Output GPX file.") var output: String
    @Option(
      parsing: .unconditional, help: "Horizontal speed, as 1.2mps or 2.9mph.",
      transform: QuantityParser.speedMetersPerSecond)
    var speed: Double = 1.2
    @Option(
      parsing: .unconditional, help: "Grade, as 2% or -10% (or a fraction, as 0.02).",
      transform: CommandLineQuantity.grade)
    var grade: Double = 0
    @Option(
      parsing: .unconditional, help: "Duration, as 600s or 10min.", transform: QuantityParser.durationSeconds)
    var duration: Double = 600
    @Option(help: "Seconds between fixes.") var interval: Double = 1
    @Option(help: "Start latitude, degrees.") var latitude: Double = 50.8671
    @Option(help: "Start longitude, degrees.") var longitude: Double = -0.0873
    @Option(help: "Start elevation, metres.") var elevation: Double = 50
    @Option(help: "Direction, degrees clockwise from north.") var azimuth: Double = 45
    @Option(help: "Start time, ISO-8601.") var start = "2012-05-08T09:00:00Z"
    @Option(help: "Standard deviation of horizontal position noise, metres.") var noise: Double = 0
    @Option(help: "Seed of the noise.") var seed: UInt64 = 1
    @Option(help: "Track name.") var name = "synthetic walk"
    @Option(
      parsing: .unconditional, help: "Heart rate written with every fix, as 120bpm (Garmin extension).",
      transform: QuantityParser.heartRateBeatsPerMinute)
    var heartRate: Double?
    @Option(
      help: "Follow the waypoints (or route/track points) of this GPX at --speed instead of a straight line.")
    var route: String?
    @Option(help: "A leg as SPEED,GRADE,DURATION (as 1.3mps,0,10min); repeat for a multi-leg track.")
    var leg: [String] = []

    func validate() throws {
      guard interval > 0 else { throw ValidationError("--interval must be positive") }
      guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
        throw ValidationError("--latitude must be within -90..90 and --longitude within -180..180")
      }
      guard noise >= 0 else { throw ValidationError("--noise must not be negative") }
    }

    func execute(in context: CommandContext) throws {
      var spec = SyntheticTrackSpec()
      spec.speedMetersPerSecond = speed
      spec.gradeFraction = grade
      spec.durationSeconds = duration
      spec.sampleIntervalSeconds = interval
      spec.startLatitudeDegrees = latitude
      spec.startLongitudeDegrees = longitude
      spec.startElevationMeters = elevation
      spec.azimuthDegrees = azimuth
      guard let t = ISO8601.parse(start) else {
        throw UsageError("cannot read --start \"\(start)\"; expected ISO-8601")
      }
      spec.startSecondsSince1970 = t.secondsSince1970
      spec.horizontalNoiseMeters = noise
      spec.seed = seed
      spec.name = name
      spec.heartRateBeatsPerMinute = heartRate
      if let route { spec.route = try TrackCommands.readTrack(route).points }
      spec.legs = try leg.map { text in
        let parts = text.split(separator: ",").map(String.init)
        guard parts.count == 3 else {
          throw UsageError("cannot read --leg \"\(text)\"; expected SPEED,GRADE,DURATION")
        }
        return SyntheticTrackSpec.Leg(
          speedMetersPerSecond: try QuantityParser.speedMetersPerSecond(parts[0]),
          gradeFraction: try QuantityParser.gradeFraction(parts[1]),
          durationSeconds: try QuantityParser.durationSeconds(parts[2]))
      }
      try TrackCommands.synth(spec, outputPath: output, context: context)
    }
  }

  struct Summary: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Distance, duration, speeds, elevation and grade of GPX/TCX files, in constant memory per file.",
      discussion:
        "Unreadable files are reported and skipped; the run then exits 1 (--fail-fast stops at the first).")
    @Argument(help: "GPX or TCX files.") var files: [String]
    @OptionGroup var track: TrackOptions
    @OptionGroup var run: FileRunOptions
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      run.apply(to: context)
      try TrackCommands.summary(
        files: files, parameters: track.parameters, defaultTimeZone: try track.timeZone(),
        failFast: run.failFast, jobs: run.jobs,
        format: output.format, context: context)
    }
  }

  struct Segments: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Activities of a track by transport mode: mode, start, end, distance, duration."
    )
    @Argument(help: "GPX or TCX file.") var file: String
    @Option(
      help:
        "Classifier: speed-bands (walk, run, cycle, bus, car, train, plane) or alter-eco (the Alter Eco thesis's rules)."
    )
    var classifier = "speed-bands"
    @Option(help: "Alter Eco: regions of interest CSV (name,kind,latitude_deg,longitude_deg,radius_m).")
    var regions: String?
    @Option(
      parsing: .unconditional,
      help: "Alter Eco: the user's cycling speed, replacing the 4 m/s car threshold (as 6mps or 20kmh).",
      transform: QuantityParser.speedMetersPerSecond)
    var cyclingSpeed: Double?
    @OptionGroup var track: TrackOptions
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      var alterEco: AlterEcoParameters?
      switch classifier {
      case "speed-bands": break
      case "alter-eco":
        var p = AlterEcoParameters()
        if let cyclingSpeed { p.carSpeedMetersPerSecond = cyclingSpeed }
        alterEco = p
      default: throw UsageError("unknown classifier \"\(classifier)\"; expected speed-bands or alter-eco")
      }
      try TrackCommands.segments(
        file: file, parameters: track.parameters, defaultTimeZone: try track.timeZone(), alterEco: alterEco,
        regionsPath: regions, format: output.format, context: context)
    }
  }
}

struct DatabaseCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "db", abstract: "Inspect, check and export the results store.",
    discussion: "Without --db the store is $ENERGYLAB_DB, else energylab.sqlite in the current folder.",
    subcommands: [Info.self, Export.self, Check.self, Merge.self, Compare.self])

  struct Merge: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Combine shard databases into one, idempotently (runs of the same key are replaced).")
    @Argument(help: "The merged database (created when missing).") var output: String
    @Argument(help: "Shard databases.") var shards: [String]
    func execute(in context: CommandContext) throws {
      try DatabaseCommands.merge(output: output, shards: shards, context: context)
    }
  }

  struct Compare: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Whether two databases hold the same results; exit 1 with the first difference if not.")
    @Argument(help: "A database.") var a: String
    @Argument(help: "Another database.") var b: String
    func execute(in context: CommandContext) throws { try DatabaseCommands.compare(a, b, context: context) }
  }

  struct Check: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run SQLite's integrity check; exit 1 unless it says ok.")
    @Option(help: "Database file.") var db: String = DatabaseCommands.defaultPath
    func execute(in context: CommandContext) throws { try DatabaseCommands.check(path: db, context: context) }
  }

  struct Info: ContextCommand {
    static let configuration = CommandConfiguration(abstract: "Applied migrations and rows per table.")
    @Option(help: "Database file.") var db: String = DatabaseCommands.defaultPath
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try DatabaseCommands.info(path: db, format: output.format, context: context)
    }
  }

  struct Export: ContextCommand {
    static let configuration = CommandConfiguration(abstract: "Print a table of the store.")
    @Option(help: "Database file.") var db: String = DatabaseCommands.defaultPath
    @Option(
      help:
        "Table: runs, inputs, parameters, results, predictions, error_summaries, tracks, activities, epochs, reference_values or survey_results."
    )
    var table: String
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try DatabaseCommands.export(path: db, table: table, format: output.format, context: context)
    }
  }
}
