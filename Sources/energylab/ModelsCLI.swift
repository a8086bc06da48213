import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

struct ModelsCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "models", abstract: "List, explain and evaluate energy models.",
    subcommands: [List.self, Explain.self, Eval.self])

  struct List: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Every model with its equation, inputs, range and citation.")
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try ModelsCommands.list(format: output.format, driver: driver)
    }
  }

  struct Explain: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "A model's equation, units, valid range and citation.")
    @Argument(help: "Model identifier.", completion: Completions.models) var id: String
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try ModelsCommands.explain(id: id, format: output.format, driver: driver)
    }
  }

  struct Eval: DriverCommand {
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
    @Option(
      help: "A published value to set beside EnergyLab's, as kcal_per_min=4.55 (repeatable).",
      transform: ModelsCommands.PublishedValue.init)
    var published: [ModelsCommands.PublishedValue] = []
    @Option(help: "Where the published values come from.") var publishedSource: String?
    @OptionGroup var output: FormatOption

    func execute(in driver: Driver) throws {
      var input = try subject.modelInput()
      input.speedMetersPerSecond = speed
      input.gradeFraction = grade
      input.steps = steps
      input.durationSeconds = minutes.map { $0 * 60 }
      input.distanceMeters = distance
      try ModelsCommands.eval(
        id: id, input: input, published: published,
        publishedSource: publishedSource, sources: try subject.sources(), format: output.format,
        driver: driver)
    }
  }
}
