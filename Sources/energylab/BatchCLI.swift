import ArgumentParser
import EnergyLabCore
import EnergyModels
import Foundation
import Ingest
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
    if quiet {
      context.progressSink = nil
      context.progressLog = nil
    }
  }
}

struct BatchCLI: DriverCommand {
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

      A rerun into the same database leaves every file whose run (or failure)
      is stored from the same content under the same options (their digest is
      the run's batch_options parameter) and does the rest, so a killed task or
      a resubmitted array does only what is missing; --rerun does every file.
      A file that cannot be read is stored as a run `batch failed FILE` with
      its error. Progress: a bar on a terminal, otherwise a line a minute on
      standard error (files done and failed, rate, time left).

      --subjects FILE gives the participants (id, body_mass_kg, age_years, sex,
      height_m, resting_hr_bpm, max_hr_bpm, vo2max_ml_kg_min); a file is a
      participant's when a folder on its path within the study is the id
      (--subject-match folder, the default) or its name begins with the id
      (--subject-match file, as P01_walk.gpx). Each run stores the participant
      and their values; a file no participant matches uses the defaults, and
      says so.
      """)
  @Argument(help: "Study folders, searched recursively.") var folders: [String]
  @Option(help: "Results database.") var db: String = DatabaseCommands.defaultPath
  @Option(help: "Process only shard K of N, as 2/8.", transform: BatchCommand.Shard.init)
  var shard: BatchCommand.Shard?
  @OptionGroup var run: FileRunOptions
  @Option(
    help: "IANA time zone of times without an offset, days and hours (default UTC).",
    transform: ArgumentValue.timeZone)
  var tz: NamedTimeZone?
  @Option(
    parsing: .unconditional, help: "Body mass for the energy models, as 70kg (default 70 kg).",
    transform: { try QuantityParser.massKilograms($0) })
  var mass: Double?
  @Option(help: "Emission factor set (name in Datasets/factors or a CSV path).") var factors: String?
  @Option(
    help:
      "Mode whose factor an activity takes when the factor set lacks its mode, as car (default: an error).")
  var factorFallback: TransportMode?
  @Option(help: "Participants CSV (id, body_mass_kg, age_years, sex, height_m, resting_hr_bpm, ...).")
  var subjects: String?
  @Option(help: "How files are matched to participants: folder or file (default folder).")
  var subjectMatch: SubjectMatch = .folder
  @Option(
    help: "Model of a mode for tracks, as walk=pandolf-1977 (repeatable).", transform: ArgumentValue.modeModel
  )
  var modelFor: [ModeModel] = []
  @Flag(
    help:
      "Follow symbolic links that lead out of the study folders (default: skipped with a warning; links inside are followed)."
  )
  var followLinks = false
  @Flag(
    help:
      "Process every file again (default: a file whose run, or failure, the database already holds from the same content under the same options is left as stored, so a rerun or a resubmitted array task does only what is missing)."
  )
  var rerun = false
  @Flag(
    help:
      "Accelerometer recordings: auto-calibrate raw acceleration against gravity first, as accel summary --calibrate (van Hees et al. 2014; default off). Reads each raw recording twice."
  )
  var calibrate = false
  @Flag(
    help:
      "Accelerometer recordings: detect non-wear and leave it out, as accel summary --non-wear (van Hees et al. 2011/2013; default off). Reads each raw recording twice."
  )
  var nonWear = false
  @OptionGroup var idleSleep: IdleSleepOptions
  @OptionGroup(title: "Accelerometer energy equations") var equation: AccelEquationArguments
  @Flag(
    help:
      "FIT tracks: read a file that ends early up to its last whole message, with a diagnostic saying how many bytes are missing (default: the file fails)."
  )
  var readTruncated = false
  @Flag(
    help:
      "FIT tracks: read a file whose header or file CRC does not match, with a warning naming the byte (default: the file fails)."
  )
  var ignoreCRC = false
  @OptionGroup(title: "Steps in accelerometer recordings") var steps: StepOptions

  func validate() throws {
    try steps.validate()
    try idleSleep.validate()
  }

  func execute(in driver: Driver) throws {
    var options = BatchCommand.Options(folders: folders, databasePath: db)
    options.jobs = run.jobs
    options.shard = shard
    options.failFast = run.failFast
    options.followLinks = followLinks
    options.rerun = rerun
    if let tz {
      options.timeZone = tz
      options.accel.timeZone = options.timeZone.zone
    }
    steps.apply(to: &options.accel.analysis)
    if calibrate { options.accel.calibration = AutoCalibrationParameters() }
    if nonWear { options.accel.nonWear = NonWearParameters() }
    options.accel.fillIdleSleep = idleSleep.fills
    options.track.readTruncatedFiles = readTruncated
    options.track.ignoreFileCRC = ignoreCRC
    if let mass { options.energy.bodyMassKilograms = try HumanLimits.check(mass, .bodyMass) }
    try equation.apply(to: &options.energy)
    if let factors { options.factorSet = factors }
    options.factorFallback = factorFallback
    if let subjects {
      options.subjects = try SubjectsReader.read(path: subjects)
      options.subjectsPath = subjects
    }
    options.subjectMatch = subjectMatch
    for entry in modelFor { options.modelForMode[entry.mode] = entry.model.id }
    run.apply(to: driver.context)
    try BatchCommand.run(options, driver: driver)
  }
}
