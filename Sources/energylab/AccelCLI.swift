import ArgumentParser
import EnergyLabCore
import Estimation
import Foundation
import Ingest
import Pipeline
import Signals

/// What to do with the seconds an ActiGraph slept in idle sleep mode, for
/// the `accel` commands and `batch`.
struct IdleSleepOptions: ParsableArguments {
  enum Mode: String, ExpressibleByArgument, CaseIterable {
    case fill, gap
  }
  @Option(
    help: ArgumentHelp(
      "ActiGraph .gt3x idle sleep: fill (the default: the seconds the device slept hold its last sample, as ActiLife fills them) or gap (leave them out, with the time left out in a diagnostic).",
      valueName: "fill|gap"))
  var idleSleep: Mode?
  @Flag(
    help: ArgumentHelp("Same as --idle-sleep fill, the default (kept for old scripts).", visibility: .hidden))
  var fillIdleSleep = false

  func validate() throws {
    if fillIdleSleep, idleSleep == .gap {
      throw ValidationError("--fill-idle-sleep and --idle-sleep gap contradict each other; give one")
    }
  }

  var fills: Bool { (idleSleep ?? .fill) == .fill }
}

/// The step detector's settings, for every command that counts steps in
/// raw acceleration (the `accel` commands and `batch`).
struct StepOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Where the device was worn: phone (hand, armband, neck pouch, bag, pocket), wrist, or waist (a belt at the hip or lower back; also written hip or lower-back); sets the step threshold (default phone; unstated, a warning says when the waist's threshold finds many more steps).",
      valueName: "location"))
  var wearLocation: WearLocation?
  @Option(
    help:
      "Smallest filtered peak that counts as a step, g (default from --wear-location: 0.05 for a phone or the wrist, 0.02 at the waist; see README Limits)."
  )
  var stepThreshold: Double?
  @Option(help: "Share of the mean of the bout's last four peaks a step must reach (default 0.3).")
  var stepRelativePeak: Double?
  @Option(help: "Peaks closer than this are one step, s (default 0.3).") var stepMinInterval: Double?
  @Option(help: "Low-pass corner of the step filter, Hz (default 2.5).") var stepLowPass: Double?
  @Flag(help: "Do not count a step in an interval of about two steps whose peak fell below the thresholds.")
  var noStepGapFill = false
  @Flag(
    help:
      "Do not start a new bout where the step rhythm breaks, nor ask a bout's first steps to keep a rhythm.")
  var noStepRhythm = false

  /// The option of each parameter the step detector checks.
  static let flags = [
    "step_peak_threshold_g": "--step-threshold", "step_relative_peak": "--step-relative-peak",
    "step_min_interval_s": "--step-min-interval", "step_low_pass_hz": "--step-low-pass",
  ]

  /// The step detector's parameters check themselves; the error is worded
  /// with the option.
  func validate() throws {
    var steps = StepDetectionParameters()
    apply(to: &steps)
    _ = try ParameterCheck.worded(Self.flags, showingValue: false) { try steps.validated() }
  }

  func apply(to analysis: inout AccelAnalysisParameters) {
    analysis.suggestWearLocation = wearLocation == nil && stepThreshold == nil
    analysis.wearLocationStated = wearLocation != nil
    apply(to: &analysis.steps)
  }

  private func apply(to steps: inout StepDetectionParameters) {
    if let wearLocation {
      steps.wearLocation = wearLocation
      steps.peakThresholdG = wearLocation.peakThresholdG
    }
    if let stepThreshold { steps.peakThresholdG = stepThreshold }
    if let stepRelativePeak { steps.relativePeakFraction = stepRelativePeak }
    if let stepMinInterval { steps.minimumStepIntervalSeconds = stepMinInterval }
    if let stepLowPass { steps.lowPassHz = stepLowPass }
    if noStepGapFill { steps.gapFillMinimumRatio = 0 }
    if noStepRhythm {
      steps.rhythmMinimumRatio = 0
      steps.boutRegularityRatio = 0
    }
  }
}

/// How to read an accelerometer file and analyse it; every option
/// overrides what detection would guess.
struct AccelReadOptions: ParsableArguments {
  @Option(
    help:
      "Input dialect: actigraph-raw, actigraph-counts, axivity, ukbiobank-epoch, geneactiv, empatica-e4, phone, generic, or the device files axivity-cwa, geneactiv-bin, actigraph-gt3x (default: detected from the content)."
  )
  var dialect: AccelFormat?
  @Option(help: "Time column, by name or 1-based position.") var time: String?
  @Option(
    help:
      "How the time column is written: datetime, unix-s, unix-ms, unix-ns, elapsed (seconds), elapsed-ms or sensor-ns (Android sensor clock)."
  )
  var timeFormat: AccelTimeFormat?
  @Option(help: "X column, by name or 1-based position.") var x: String?
  @Option(help: "Y column, by name or 1-based position.") var y: String?
  @Option(help: "Z column, by name or 1-based position.") var z: String?
  @Option(help: "Acceleration unit: g, m/s2 or mg (default: stated in the header, else from gravity's size).")
  var unit: AccelUnit?
  @Option(help: "Date order of date-times: ymd, mdy or dmy.") var dateOrder: DateOrder?
  @Option(
    help: "Start of elapsed times or of files without a time column, ISO-8601 with an offset.",
    transform: { try ArgumentValue.instant($0, requireOffset: true) })
  var start: Double?
  @Option(help: "Sample rate of files without a time column, Hz.") var sampleRate: Double?
  @Option(
    help: "IANA time zone of local times, days and hours (default UTC), as Europe/London.",
    transform: ArgumentValue.timeZone)
  var tz: NamedTimeZone?
  @Option(
    help:
      "Intensity cut-points: \(CutPoints.all.map(\.id).joined(separator: ", ")) (default: hildebrand-wrist-actigraph for raw acceleration, hildebrand-hip-actigraph with --wear-location waist, freedson-1998 for counts).",
    transform: ArgumentValue.cutPoints)
  var cutPoints: CutPoints?
  @Option(
    help:
      "Epoch the cut-points classify, as 5s or 60s (default: the one they were published for, 60 s for freedson-1998 and 5 s for the others); another applies them there anyway, with a warning.",
    transform: QuantityParser.durationSeconds)
  var intensityEpoch: Double?
  @OptionGroup var idleSleep: IdleSleepOptions
  @Flag(
    help:
      "Auto-calibrate raw acceleration against gravity first (van Hees et al. 2014; default off: the file's values are used as read). Reads the file twice."
  )
  var calibrate = false
  @Option(help: "A 10 s window is still for calibration when every axis's SD is below this, mg (default 13).")
  var calibrationStillSd: Double?
  @Flag(
    help:
      "Detect non-wear (van Hees et al. 2011/2013) and leave it out of ENMO, MAD, intensity minutes, steps and energy (default off). Reads the file twice."
  )
  var nonWear = false
  @Option(help: "Non-wear: an axis is still below this SD over the window, mg (default 13).")
  var nonWearSd: Double?
  @Option(help: "Non-wear: ...and below this range, mg (default 50).") var nonWearRange: Double?
  @Option(help: "Non-wear: window length, min, a whole multiple of 15 (default 60).") var nonWearWindow:
    Double?
  @Option(help: "A day is valid with at least this many hours of wear (default 16).") var validDayHours:
    Double?
  @Option(help: "Length of an MVPA bout, min (default 10).") var mvpaBout: Double?
  @Option(help: "Share of a bout's epochs that must be MVPA, 0-1 (default 0.8).") var mvpaBoutShare: Double?
  @OptionGroup var steps: StepOptions

  /// The option of each parameter the accelerometer analysis checks.
  static let flags = StepOptions.flags.merging([
    "sample_rate_hz": "--sample-rate", "intensity_epoch_s": "--intensity-epoch",
    "calibration_still_sd_mg": "--calibration-still-sd", "non_wear_sd_mg": "--non-wear-sd",
    "non_wear_range_mg": "--non-wear-range", "non_wear_window_min": "--non-wear-window",
    "valid_day_min_wear_h": "--valid-day-hours", "mvpa_bout_min": "--mvpa-bout",
    "mvpa_bout_share": "--mvpa-bout-share",
  ]) { step, _ in step }

  /// The analysis parameters check themselves; the error is worded with
  /// the option.
  func validate() throws {
    try steps.validate()
    _ = try ParameterCheck.worded(Self.flags, showingValue: false) { try options().validated() }
    try idleSleep.validate()
  }

  func options() throws -> AccelOptions {
    var o = AccelOptions()
    o.map.format = dialect
    o.map.timeFormat = timeFormat
    o.map.unit = unit
    o.map.dateOrder = dateOrder
    o.map.time = time.map(ColumnReference.init)
    o.map.x = x.map(ColumnReference.init)
    o.map.y = y.map(ColumnReference.init)
    o.map.z = z.map(ColumnReference.init)
    o.map.start = start
    o.map.sampleRateHz = sampleRate
    if let tz { o.timeZone = tz.zone }
    if let cutPoints { o.analysis.cutPoints = cutPoints }
    o.analysis.intensityEpochSeconds = intensityEpoch
    o.fillIdleSleep = idleSleep.fills
    if calibrate || calibrationStillSd != nil {
      var c = AutoCalibrationParameters()
      if let calibrationStillSd { c.stillSDMilliG = calibrationStillSd }
      o.calibration = c
    }
    if nonWear || nonWearSd != nil || nonWearRange != nil || nonWearWindow != nil {
      var n = NonWearParameters()
      if let nonWearSd { n.sdMilliG = nonWearSd }
      if let nonWearRange { n.rangeMilliG = nonWearRange }
      if let nonWearWindow { n.windowMinutes = nonWearWindow }
      o.nonWear = n
    }
    if let validDayHours { o.analysis.dayRules.minimumWearHours = validDayHours }
    if let mvpaBout { o.analysis.dayRules.boutMinutes = mvpaBout }
    if let mvpaBoutShare { o.analysis.dayRules.boutShare = mvpaBoutShare }
    steps.apply(to: &o.analysis)
    return o
  }
}

/// The subject behind accelerometer energy.
/// Registered accelerometer equations for `accel energy` and `batch`.
struct AccelEquationArguments: ParsableArguments {
  @Option(
    name: .customLong("model"),
    help: ArgumentHelp(
      "A registered accelerometer equation to apply as well, each on its own epoch (repeat or separate by commas): \(AccelEquation.all.map(\.id).joined(separator: ", ")).",
      valueName: "id"))
  var equations: [String] = []
  @Option(help: "Sex (male or female), for the equations that take it (santos-lozano-2013-adult, -older).")
  var sex: Sex?

  func apply(to o: inout AccelEnergyOptions) throws {
    o.equations = try equations.flatMap { $0.split(separator: ",").map(String.init) }.map {
      try AccelEquation.named($0).id
    }
    if let sex { o.sex = sex }
  }
}

struct AccelEnergyArguments: ParsableArguments {
  @Option(
    parsing: .unconditional, help: "Body mass, as 65kg or 143lb (default 70 kg).",
    transform: { try QuantityParser.massKilograms($0) })
  var mass: Double?
  @Option(
    parsing: .unconditional, help: "Body height, as 1.75m or 175cm; stride = 0.415 x height.",
    transform: QuantityParser.lengthMeters)
  var height: Double?
  @Option(
    parsing: .unconditional, help: "Stride (step) length, as 0.7m or 70cm.",
    transform: QuantityParser.lengthMeters)
  var stride: Double?
  @Option(help: "Energy per step for steps-fixed, kcal.") var kcalPerStep: Double?

  func options() throws -> AccelEnergyOptions {
    var o = AccelEnergyOptions()

    if let mass { o.bodyMassKilograms = try HumanLimits.check(mass, .bodyMass) }
    o.heightMeters = try height.map { try HumanLimits.check($0, .height) }
    o.strideMeters = stride
    o.kilocaloriesPerStep = kcalPerStep
    return o
  }
}

struct AccelCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accel", abstract: "Accelerometer recordings: summaries, epochs, days and energy.",
    discussion: """
      Reads ActiGraph (raw and counts), Axivity, UK Biobank epoch and phone-app
      CSV exports, or any CSV through --time/--x/--y/--z, plain or gzipped;
      and the devices' own files: Axivity .cwa, GENEActiv .bin and ActiGraph
      .gt3x, told apart by their content.
      """,
    subcommands: [
      Summary.self, Epochs.self, Days.self, Energy.self, Plot.self, Convert.self, Synth.self,
    ])

  struct Summary: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Samples, rate, time span, steps, ENMO and intensity minutes of each file.",
      discussion:
        "Unreadable files are reported and skipped; the run then exits 1 (--fail-fast stops at the first).")
    @Argument(help: "Accelerometer files (.csv, .csv.gz, .cwa, .bin, .gt3x).") var files: [String]
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var run: FileRunOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      run.apply(to: driver.context)
      try AccelCommands.summary(
        files: files, options: try read.options(), jobs: run.jobs, failFast: run.failFast,
        databasePath: store.path, format: output.format, driver: driver)
    }
  }

  struct Epochs: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "The epoch table: samples, coverage, ENMO, MAD, steps, counts and intensity per epoch.")
    @Argument(help: "Accelerometer file (CSV, .cwa, .bin or .gt3x).") var file: String
    @Option(help: "Epoch length, as 60s, 5s or 1min.", transform: QuantityParser.durationSeconds)
    var epoch: Double = 60
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func validate() throws {
      guard epoch > 0 else { throw ValidationError("--epoch must be positive") }
    }
    func execute(in driver: Driver) throws {
      try AccelCommands.epochs(
        file: file, epochSeconds: epoch, options: try read.options(), databasePath: store.path,
        format: output.format, driver: driver)
    }
  }

  struct Days: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Daily summaries: recorded hours, steps, ENMO, intensity minutes and energy by model.")
    @Argument(help: "Accelerometer file (CSV, .cwa, .bin or .gt3x).") var file: String
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var subject: AccelEnergyArguments
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try AccelCommands.days(
        file: file, options: try read.options(), energy: try subject.options(), databasePath: store.path,
        format: output.format, driver: driver)
    }
  }

  struct Energy: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Energy by model (MET by intensity, per-step, stride, kinetic), its hour-of-day profile and the StepMyHealth calorie balance."
    )
    @Argument(help: "Accelerometer file (CSV, .cwa, .bin or .gt3x).") var file: String
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var subject: AccelEnergyArguments
    @OptionGroup var equation: AccelEquationArguments
    @Option(help: "Energy eaten, kcal: adds the StepMyHealth calorie balance.") var intake: Double?
    @Option(help: "Daily allowance of the calorie balance, kcal (default 2000).") var allowance: Double?
    @Flag(help: "Also print energy and steps per local hour of the day.") var hourly = false
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      var energy = try subject.options()
      try equation.apply(to: &energy)
      try AccelCommands.energy(
        file: file, options: try read.options(), energy: energy, intakeKilocalories: intake,
        allowanceKilocalories: allowance, hourly: hourly, databasePath: store.path, format: output.format,
        driver: driver)
    }
  }
}

extension AccelCLI {
  struct Synth: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a synthetic recording (time,x,y,z in g) whose steps are known by construction.",
      discussion: "Movements: still, walk (2 steps/s, 0.3 g), run (2.8 steps/s, 0.8 g).")
    @Option(name: .shortAndLong, help: "Output CSV file.") var output: String
    @Option(
      help: "A leg as MOVEMENT,DURATION (as walk,10min); repeat for more legs (default walk,1min).",
      transform: ArgumentValue.recordingLeg)
    var leg: [(movement: SyntheticMovement, seconds: Double)] = []
    @Option(help: "Sample rate, Hz.") var rate: Double = 100
    @Option(
      help: "Start time, ISO-8601 with an offset (default 2026-03-02T08:00:00Z).",
      transform: { try ArgumentValue.instant($0, requireOffset: true) })
    var start: Double?
    @Option(help: "Standard deviation of the noise on each axis, g.") var noise: Double = 0.01
    @Option(help: "Seed of the noise.") var seed: UInt64 = 1

    func validate() throws {
      guard rate > 0, rate <= 10_000 else { throw ValidationError("--rate must be in (0, 10000] Hz") }
      guard noise >= 0 else { throw ValidationError("--noise must not be negative") }
    }

    func execute(in driver: Driver) throws {
      var spec = SyntheticRecordingSpec()
      spec.rateHz = rate
      spec.noiseG = noise
      spec.seed = seed
      if let start { spec.startSecondsSince1970 = start }
      if !leg.isEmpty { spec.legs = leg }
      try AccelCommands.synth(spec, outputPath: output, driver: driver)
    }
  }
}

extension AccelCLI {
  struct Plot: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Charts of a recording by local time: acceleration per epoch, steps and energy per hour; wear per day with --non-wear."
    )
    @Argument(help: "Accelerometer file (CSV, .cwa, .bin or .gt3x).") var file: String
    @Option(help: "Write the charts (PNG, SVG, .gp, .dat) into this folder (default: charts/).") var charts:
      String?
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var subject: AccelEnergyArguments
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try AccelCommands.plot(
        file: file, options: try read.options(), energy: try subject.options(),
        chartsDirectory: charts ?? (driver.printer.figuresDirectory == nil ? "charts" : nil),
        format: output.format, driver: driver)
    }
  }
}

extension AccelCLI {
  struct Convert: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a recording (a device's .cwa, .bin or .gt3x, or any CSV read) as time,x,y,z CSV in g.",
      discussion:
        "Times are ISO-8601 UTC to the microsecond; a temperature column (°C) follows where the device records one."
    )
    @Argument(help: "Accelerometer file.") var file: String
    @Option(name: .shortAndLong, help: "Output CSV file.") var output: String
    @OptionGroup var read: AccelReadOptions
    func execute(in driver: Driver) throws {
      try AccelCommands.convert(file: file, outputPath: output, options: try read.options(), driver: driver)
    }
  }
}
