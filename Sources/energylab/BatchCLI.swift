import ArgumentParser
import EnergyLabCore
import Foundation
import Pipeline
import Signals
import Tracks

/// How a command over many files runs: files at once, skip-and-log or
/// stop, progress bar or not.
struct FileRunOptions: ParsableArguments {
  @Option(help: "Files read at once (default: the number of cores).") var jobs: Int?
  @Flag(help: "Stop at the first file that cannot be read.") var failFast = false
  @Flag(help: "No progress bar.") var quiet = false

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
  }

  func apply(to context: CommandContext) {
    if quiet { context.progressSink = nil }
  }
}

struct BatchCLI: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "batch",
    abstract:
      "A whole study: every track, accelerometer recording and survey export under the folders, stored.",
    discussion: """
      Each file is read, summarised, run through the default models (energy and
      CO2 by transport mode for tracks; epochs, steps and energy for recordings;
      question summaries for surveys) and stored as one run. Unreadable files are
      reported and skipped; the run ends with a summary line and exits 1 if any
      failed. --shard K/N takes the files whose path relative to their folder
      hashes to shard K, for a Slurm job array (scripts/slurm/); merge the shard
      databases with `energylab db merge`.
      """)
  @Argument(help: "Study folders, searched recursively.") var folders: [String]
  @Option(help: "Results database.") var db: String = DatabaseCommands.defaultPath
  @Option(help: "Process only shard K of N, as 2/8.", transform: BatchCommand.Shard.init)
  var shard: BatchCommand.Shard?
  @OptionGroup var run: FileRunOptions
  @Option(help: "IANA time zone of times without an offset, days and hours (default UTC).") var tz: String?
  @Option(
    parsing: .unconditional, help: "Body mass for the energy models, as 70kg (default 70 kg).",
    transform: { try QuantityParser.massKilograms($0) })
  var mass: Double?
  @Option(help: "Emission factor set (name in Datasets/factors or a CSV path).") var factors: String?
  @Option(
    help:
      "Mode whose factor an activity takes when the factor set lacks its mode, as car (default: an error).")
  var factorFallback: TransportMode?
  @OptionGroup(title: "Steps in accelerometer recordings") var steps: StepOptions

  func validate() throws {
    try checkTimeZone(tz)
    try steps.validate()
  }

  func execute(in context: CommandContext) throws {
    var options = BatchCommand.Options(folders: folders, databasePath: db)
    options.jobs = run.jobs
    options.shard = shard
    options.failFast = run.failFast
    if let tz {
      let zone = try TimeZoneLookup.zone(named: tz)
      options.timeZone = tz
      options.accel.timeZone = zone
    }
    steps.apply(to: &options.accel.analysis)
    if let mass { options.energy.bodyMassKilograms = mass }
    if let factors { options.factorSet = factors }
    options.factorFallback = factorFallback?.rawValue
    run.apply(to: context)
    try BatchCommand.run(options, context: context)
  }
}
