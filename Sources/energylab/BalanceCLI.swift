import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

struct BalanceCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "balance",
    abstract:
      "StepMyHealth calorie balance: intake minus steps x kcal per step, progress colour, points, leaderboard."
  )
  @Option(
    help: "A user as NAME:INTAKE_KCAL:STEPS:ALLOWANCE_KCAL (repeatable).",
    transform: ArgumentValue.balanceUser)
  var user: [(name: String, intake: Double, steps: Double, allowance: Double)] = []
  @Option(help: "kcal per step (the thesis uses 0.4).") var kcalPerStep: Double = 0.4
  @OptionGroup var store: StoreOptions
  @OptionGroup var output: FormatOption
  func validate() throws {
    guard !user.isEmpty else { throw ValidationError("balance needs at least one --user") }
    guard kcalPerStep >= 0 else { throw ValidationError("--kcal-per-step must not be negative") }
  }
  func execute(in driver: Driver) throws {
    let users = user.map {
      BalanceCommand.User(
        name: $0.name,
        balance: CalorieBalance(
          intakeKilocalories: $0.intake, steps: $0.steps, allowanceKilocalories: $0.allowance,
          kilocaloriesPerStep: kcalPerStep))
    }
    try BalanceCommand.run(
      users: users,
      kilocaloriesPerStep: kcalPerStep, databasePath: store.path, format: output.format, driver: driver)
  }
}
