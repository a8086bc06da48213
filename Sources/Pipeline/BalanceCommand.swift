import EnergyLabCore
import EnergyModels
import Reporting
import Store

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

  /// The leaderboard's numbers as stored rows, one set per user.
  public static func storedRows(_ board: Leaderboard) -> [ResultRow] {
    board.users.enumerated().flatMap { rank, user in
      let b = user.balance
      return [
        ResultRow(subject: user.name, metric: "rank", value: Double(rank + 1), unit: "rank"),
        ResultRow(subject: user.name, metric: "burned", value: b.steps * b.kilocaloriesPerStep, unit: "kcal"),
        ResultRow(subject: user.name, metric: "balance", value: b.balanceKilocalories, unit: "kcal"),
        ResultRow(subject: user.name, metric: "progress", value: b.progress, unit: "fraction"),
        ResultRow(subject: user.name, metric: "points", value: b.points, unit: "points"),
      ]
    }
  }

  /// The leaderboard `balance` computed, with the command line its run is
  /// stored under.
  struct BalanceOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic] { [] }
    var command: String
    var board: Leaderboard
    var format: OutputFormat?

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      RunRecord(
        command: command, recordedAt: recordedAt, inputs: inputs, parameters: board.parameters,
        results: storedRows(board))
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(table(board), format: format)
      return out
    }
  }

  /// `balance`: compute, then store and print through the driver. The
  /// users' values are the command's own (its key names them).
  public static func run(
    users: [User], kilocaloriesPerStep: Double, databasePath: String? = nil, format: OutputFormat?,
    driver: Driver
  ) throws {
    let board = try leaderboard(users: users, kilocaloriesPerStep: kilocaloriesPerStep)
    let command =
      "balance "
      + users.map {
        let b = $0.balance
        return
          "--user \($0.name):\(Fixed.shortest(b.intakeKilocalories)):\(Fixed.shortest(b.steps)):\(Fixed.shortest(b.allowanceKilocalories))"
      }.joined(separator: " ")
    try driver.finish(
      BalanceOutcome(
        inputs: [], parameters: board.parameters, command: command, board: board, format: format),
      database: databasePath)
  }
}
