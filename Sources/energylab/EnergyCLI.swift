import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

extension TransportMode: ExpressibleByArgument {}

struct EnergyCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "energy",
    abstract: "Energy of tracks under a model, per file, activity or fix, and in total.",
    discussion: """
      With --by-mode, tracks are split into walk, run, cycle, bus, car and train
      activities, and each mode has its own model (defaults: acsm-walking,
      acsm-running, met at 7.5 MET for cycling, and resting for passive travel;
      change with --model-for cycle=acsm-cycling). A cycling activity whose
      steps carry power is costed from its measured work by power-meter unless
      --model-for names the cycling model. The activity a file declares
      (TCX Sport, GPX <type>) sets the mode of its segments; bands of median
      speed classify only what is undeclared; --mode sets one mode for every
      step, over both.
      """)

  @Argument(help: "Track files: GPX, TCX, FIT, or COSMED K5 CSV.") var files: [String]
  @Option(help: "Model identifier (see `energylab models list`).")
  var model = ModelID(argument: "acsm-walking")!
  @Flag(
    help:
      "Split tracks into activities by mode (what a file declares, else --classifier); one model per mode.")
  var byMode = false
  @Option(
    help:
      "Modes where a file declares none: epoch-hmm (walk, cycle, vehicle, stationary; the default) or speed-bands (walk, run, cycle, bus, car, train, plane)."
  )
  var classifier = ModeClassifierChoice.epochHMM
  @Option(help: "Model of a mode, as walk=acsm-gait (repeatable).", transform: ArgumentValue.modeModel)
  var modelFor: [ModeModel] = []
  @Option(
    help:
      "One transport mode for every step (walk, run, cycle, ...), over what files declare; implies --by-mode."
  )
  var mode: TransportMode?
  @Flag(help: "One row per fix instead of per file or activity.") var perFix = false
  @Option(help: "Centred moving average of step speeds over N fixes before the model (1 = none).")
  var speedSmoothing = 1
  @OptionGroup(title: "Measured expenditure") var measured: MeasuredOptionGroup
  @OptionGroup var subject: SubjectOptions
  @OptionGroup var track: TrackOptions
  @OptionGroup var store: StoreOptions
  var db: String? { store.path }
  @OptionGroup var output: FormatOption

  func validate() throws {
    if !modelFor.isEmpty && !byMode && mode == nil {
      throw ValidationError("--model-for needs --by-mode or --mode")
    }
    guard speedSmoothing >= 1 else { throw ValidationError("--speed-smoothing must be at least 1") }
  }

  func execute(in driver: Driver) throws {
    var options = EnergyCommand.Options(files: files, modelID: model.id, subject: try subject.modelInput())
    options.track = track.parameters
    options.byMode = byMode || mode != nil
    options.givenMode = mode
    options.modes = classifier.inference
    options.measured = measured.options()
    options.breathFilter = measured.filter
    options.perFix = perFix
    options.speedSmoothingFixes = speedSmoothing
    options.sources = try subject.sources()
    options.databasePath = db
    options.format = output.format
    for entry in modelFor { options.modelForMode[entry.mode] = entry.model.id }
    try EnergyCommand.run(options, driver: driver)
  }
}
