import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

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
