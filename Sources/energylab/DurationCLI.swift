import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

struct DurationCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "duration",
    abstract: "Read travel times written as text (\"1 hour 5 mins\") into minutes; compare with actual ones.")
  @Argument(help: "Durations as text, as \"45 mins\" or \"1 hour 5 mins\".") var texts: [String]
  @Option(help: "Actual durations in the same order, for predicted-against-actual errors (repeatable).")
  var actual: [String] = []
  @OptionGroup var output: FormatOption
  func validate() throws {
    guard actual.isEmpty || actual.count == texts.count else {
      throw ValidationError("give one --actual per duration (\(texts.count)), or none")
    }
  }
  func execute(in driver: Driver) throws {
    try DurationCommand.run(texts: texts, actual: actual, format: output.format, driver: driver)
  }
}
