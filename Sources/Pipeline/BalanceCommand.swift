import EnergyLabCore
import EnergyModels
import Reporting

/// `balance`: the StepMyHealth calorie balance, progress colour, points and
/// leaderboard for one or more users.
public enum BalanceCommand {
  public struct User: Sendable, Hashable {
    public var name: String
    public var balance: CalorieBalance

    public init(name: String, balance: CalorieBalance) {
      self.name = name
      self.balance = balance
    }
  }

  /// The users in leaderboard order (most points first; ties keep the
  /// order given), with the rules the ranking follows.
  public struct Leaderboard: Sendable {
    public var users: [User]
    public var parameters: [NamedParameter]
  }

  public static func leaderboard(users: [User], kilocaloriesPerStep: Double) throws -> Leaderboard {
    guard !users.isEmpty else { throw UsageError(.missing, "balance needs at least one user") }
    let ranked = users.enumerated().sorted { a, b in
      a.element.balance.points != b.element.balance.points
        ? a.element.balance.points > b.element.balance.points : a.offset < b.offset
    }.map(\.element)
    return Leaderboard(
      users: ranked,
      parameters: [
        NamedParameter(
          name: "kcal_per_step", value: Fixed.shortest(kilocaloriesPerStep),
          meaning: "StepMyHealth thesis L553-554 uses 0.4"),
        NamedParameter(
          name: "colour_rule", value: "red > 1, green > 0.5, else orange",
          meaning: "StepMyHealth thesis L555-577"),
        NamedParameter(
          name: "leaderboard", value: "points descending", meaning: "StepMyHealth thesis L693-705"),
      ])
  }

  /// The leaderboard as the `balance` table.
  public static func table(_ board: Leaderboard) -> ResultTable {
    let rows = board.users.enumerated().map { rank, user in
      let b = user.balance
      return ResultRecord([
        "rank": .integer(rank + 1), "user": .string(user.name),
        "intake_kcal": .number(b.intakeKilocalories, 0),
        "steps": .number(b.steps, 0), "burned_kcal": .number(b.steps * b.kilocaloriesPerStep, 1),
        "balance_kcal": .number(b.balanceKilocalories, 1),
        "allowance_kcal": .number(b.allowanceKilocalories, 0),
        "progress": .number(b.progress, 3), "colour": .string(b.colour.rawValue),
        "points": .number(b.points, 1),
      ])
    }
    return ResultTable(name: "balance", rows: rows)
  }

  public static func run(
    users: [User], kilocaloriesPerStep: Double, format: OutputFormat?, context: CommandContext
  ) throws {
    let board = try leaderboard(users: users, kilocaloriesPerStep: kilocaloriesPerStep)
    context.provenance.addParameters(board.parameters)
    context.emit(table(board), format: format)
  }
}
