import ArgumentParser
import EnergyLabCore
import Foundation
import Ingest
import Pipeline
import Signals

/// How to read an accelerometer file and analyse it; every option
/// overrides what detection would guess.
struct AccelReadOptions: ParsableArguments {
  @Option(
    help:
      "Input dialect: actigraph-raw, actigraph-counts, axivity, ukbiobank-epoch, phone or generic (default: detected)."
  )
  var dialect: String?
  @Option(help: "Time column, by name or 1-based position.") var time: String?
  @Option(
    help:
      "How the time column is written: datetime, unix-s, unix-ms, unix-ns, elapsed or sensor-ns (Android sensor clock)."
  )
  var timeFormat: String?
  @Option(help: "X column, by name or 1-based position.") var x: String?
  @Option(help: "Y column, by name or 1-based position.") var y: String?
  @Option(help: "Z column, by name or 1-based position.") var z: String?
  @Option(help: "Acceleration unit: g, m/s2 or mg (default: stated in the header, else from gravity's size).")
  var unit: String?
  @Option(help: "Date order of date-times: ymd, mdy or dmy.") var dateOrder: String?
  @Option(help: "Start of elapsed times or of files without a time column, ISO-8601.") var start: String?
  @Option(help: "Sample rate of files without a time column, Hz.") var sampleRate: Double?
  @Option(help: "IANA time zone of local times, days and hours (default UTC), as Europe/London.") var tz:
    String?
  @Option(help: "Intensity cut-points: \(CutPoints.all.map(\.id).joined(separator: ", ")).") var cutPoints:
    String?
  @Option(help: "Smallest filtered peak that counts as a step, g.") var stepThreshold: Double?
  @Option(help: "Share of the mean of the bout's last four peaks a step must reach (default 0.3).")
  var stepRelativePeak: Double?
  @Option(help: "Peaks closer than this are one step, s (default 0.3).") var stepMinInterval: Double?
  @Option(help: "Low-pass corner of the step filter, Hz (default 2.5).") var stepLowPass: Double?

  func options() throws -> AccelOptions {
    var o = AccelOptions()
    func parse<T: RawRepresentable>(_ text: String?, _ what: String, _ all: [T]) throws -> T?
    where T.RawValue == String {
      guard let text else { return nil }
      guard let value = T(rawValue: text) else {
        throw UsageError(
          "unknown \(what) \"\(text)\"; expected \(all.map(\.rawValue).joined(separator: ", "))")
      }
      return value
    }
    o.map.format = try parse(dialect, "--dialect", AccelFormat.allCases)
    o.map.timeFormat = try parse(timeFormat, "--time-format", AccelTimeFormat.allCases)
    o.map.unit = try parse(unit, "--unit", AccelUnit.allCases)
    o.map.dateOrder = try parse(dateOrder, "--date-order", DateOrder.allCases)
    o.map.time = time.map(ColumnReference.init)
    o.map.x = x.map(ColumnReference.init)
    o.map.y = y.map(ColumnReference.init)
    o.map.z = z.map(ColumnReference.init)
    if let start {
      guard let t = ISO8601.parse(start), t.hadOffset else {
        throw UsageError(
          "cannot read --start \"\(start)\"; expected ISO-8601 with an offset, as 2024-03-01T08:00:00Z")
      }
      o.map.start = t.secondsSince1970
    }
    if let sampleRate {
      guard sampleRate > 0 else { throw UsageError("--sample-rate must be positive") }
      o.map.sampleRateHz = sampleRate
    }
    if let tz {
      let zone = try TimeZoneLookup.zone(named: tz)
      o.timeZone = zone
    }
    if let cutPoints {
      guard let c = CutPoints.named(cutPoints) else {
        throw UsageError(
          "unknown cut-points \"\(cutPoints)\"; expected \(CutPoints.all.map(\.id).joined(separator: ", "))")
      }
      o.analysis.cutPoints = c
    }
    if let stepThreshold {
      guard stepThreshold > 0 else { throw UsageError("--step-threshold must be positive") }
      o.analysis.steps.peakThresholdG = stepThreshold
    }
    if let stepRelativePeak {
      guard (0..<1).contains(stepRelativePeak) else {
        throw UsageError("--step-relative-peak must be at least 0 and below 1")
      }
      o.analysis.steps.relativePeakFraction = stepRelativePeak
    }
    if let stepMinInterval {
      guard stepMinInterval > 0, stepMinInterval < o.analysis.steps.maximumStepIntervalSeconds else {
        throw UsageError("--step-min-interval must be positive and below the 1.25 s that ends a bout")
      }
      o.analysis.steps.minimumStepIntervalSeconds = stepMinInterval
    }
    if let stepLowPass {
      guard stepLowPass > o.analysis.steps.highPassHz, stepLowPass <= 10 else {
        throw UsageError("--step-low-pass must be above the 0.5 Hz high-pass and at most 10 Hz")
      }
      o.analysis.steps.lowPassHz = stepLowPass
    }
    return o
  }
}

/// The subject behind accelerometer energy.
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
    if let mass { o.bodyMassKilograms = mass }
    o.heightMeters = height
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
      CSV exports, or any CSV through --time/--x/--y/--z, plain or gzipped.
      """,
    subcommands: [Summary.self, Epochs.self, Days.self, Energy.self, Plot.self, Synth.self])

  struct Summary: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Samples, rate, time span, steps, ENMO and intensity minutes of each file.",
      discussion:
        "Unreadable files are reported and skipped; the run then exits 1 (--fail-fast stops at the first).")
    @Argument(help: "Accelerometer CSV files (.csv or .csv.gz).") var files: [String]
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var run: FileRunOptions
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      run.apply(to: context)
      try AccelCommands.summary(
        files: files, options: try read.options(), jobs: run.jobs, failFast: run.failFast,
        format: output.format,
        context: context)
    }
  }

  struct Epochs: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "The epoch table: samples, coverage, ENMO, MAD, steps, counts and intensity per epoch.")
    @Argument(help: "Accelerometer CSV file.") var file: String
    @Option(help: "Epoch length, as 60s, 5s or 1min.", transform: QuantityParser.durationSeconds)
    var epoch: Double = 60
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      let seconds = epoch
      guard seconds > 0 else { throw UsageError("--epoch must be positive") }
      try AccelCommands.epochs(
        file: file, epochSeconds: seconds, options: try read.options(), format: output.format,
        context: context)
    }
  }

  struct Days: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Daily summaries: recorded hours, steps, ENMO, intensity minutes and energy by model.")
    @Argument(help: "Accelerometer CSV file.") var file: String
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var subject: AccelEnergyArguments
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try AccelCommands.days(
        file: file, options: try read.options(), energy: try subject.options(), format: output.format,
        context: context)
    }
  }

  struct Energy: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Energy by model (MET by intensity, per-step, stride, kinetic), its hour-of-day profile and the StepMyHealth calorie balance."
    )
    @Argument(help: "Accelerometer CSV file.") var file: String
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var subject: AccelEnergyArguments
    @Option(help: "Energy eaten, kcal: adds the StepMyHealth calorie balance.") var intake: Double?
    @Option(help: "Daily allowance of the calorie balance, kcal (default 2000).") var allowance: Double?
    @Flag(help: "Also print energy and steps per local hour of the day.") var hourly = false
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try AccelCommands.energy(
        file: file, options: try read.options(), energy: try subject.options(), intakeKilocalories: intake,
        allowanceKilocalories: allowance, hourly: hourly, format: output.format, context: context)
    }
  }
}

extension AccelCLI {
  struct Synth: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a synthetic recording (time,x,y,z in g) whose steps are known by construction.",
      discussion: "Movements: still, walk (2 steps/s, 0.3 g), run (2.8 steps/s, 0.8 g).")
    @Option(name: .shortAndLong, help: "Output CSV file.") var output: String
    @Option(help: "A leg as MOVEMENT,DURATION (as walk,10min); repeat for more legs.") var leg: [String] = [
      "walk,1min"
    ]
    @Option(help: "Sample rate, Hz.") var rate: Double = 100
    @Option(help: "Start time, ISO-8601 with an offset.") var start = "2026-03-02T08:00:00Z"
    @Option(help: "Standard deviation of the noise on each axis, g.") var noise: Double = 0.01
    @Option(help: "Seed of the noise.") var seed: UInt64 = 1

    func execute(in context: CommandContext) throws {
      var spec = SyntheticRecordingSpec()
      guard rate > 0, rate <= 10_000 else { throw UsageError("--rate must be in (0, 10000] Hz") }
      guard noise >= 0 else { throw UsageError("--noise must not be negative") }
      spec.rateHz = rate
      spec.noiseG = noise
      spec.seed = seed
      guard let t = ISO8601.parse(start), t.hadOffset else {
        throw UsageError("cannot read --start \"\(start)\"; expected ISO-8601 with an offset")
      }
      spec.startSecondsSince1970 = t.secondsSince1970
      spec.legs = try leg.map { text in
        let parts = text.split(separator: ",").map(String.init)
        guard parts.count == 2, let movement = SyntheticMovement.presets.first(where: { $0.name == parts[0] })
        else {
          throw UsageError(
            "cannot read --leg \"\(text)\"; expected MOVEMENT,DURATION with still, walk or run")
        }
        return (movement, try QuantityParser.durationSeconds(parts[1]))
      }
      try AccelCommands.synth(spec, outputPath: output, context: context)
    }
  }
}

extension AccelCLI {
  struct Plot: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Charts of a recording by local time: acceleration per epoch, steps and energy per hour.")
    @Argument(help: "Accelerometer CSV file.") var file: String
    @Option(help: "Write the charts (PNG, SVG, .gp, .dat) into this folder (default: charts/).") var charts:
      String?
    @OptionGroup var read: AccelReadOptions
    @OptionGroup var subject: AccelEnergyArguments
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try AccelCommands.plot(
        file: file, options: try read.options(), energy: try subject.options(),
        chartsDirectory: charts ?? (context.figuresDirectory == nil ? "charts" : nil),
        format: output.format, context: context)
    }
  }
}
