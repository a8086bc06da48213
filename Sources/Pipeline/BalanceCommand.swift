import EnergyLabCore
import EnergyModels
import Reporting
import Store

/// `balance`: the StepMyHealth calorie balance, progress colour, points and
/// leaderboard for one or more users.
package enum BalanceCommand {
  package struct User: Sendable, Hashable {
    package var name: String
    package var balance: CalorieBalance

    package init(name: String, balance: CalorieBalance) {
      self.name = name
      self.balance = balance
    }
  }

  /// The users in leaderboard order (most points first; ties keep the
  /// order given), with the rules the ranking follows.
  package struct Leaderboard: Sendable {
    package var users: [User]
    package var parameters: [NamedParameter]
  }

  package static func leaderboard(users: [User], kilocaloriesPerStep: Double) throws -> Leaderboard {
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

  /// A user in the leaderboard and their 1-based rank: the value the
  /// columns of `balance` read.
  package struct RankedUser: Sendable {
    package var rank: Int
    package var user: User
  }

  /// The columns of `balance`, declared once: the printed table and the
  /// stored rows are both made from this list.
  package static let columns: [ResultColumn<RankedUser>] = [
    .integer("rank", .rank) { $0.rank },
    .text("user") { .string($0.user.name) },
    .number("intake", .kilocalories, digits: 0) { $0.user.balance.intakeKilocalories },
    .number("steps", .steps, digits: 0) { $0.user.balance.steps },
    .number("burned", .kilocalories, digits: 1) {
      $0.user.balance.steps * $0.user.balance.kilocaloriesPerStep
    },
    .number("balance", .kilocalories, digits: 1) { $0.user.balance.balanceKilocalories },
    .number("allowance", .kilocalories, digits: 0) { $0.user.balance.allowanceKilocalories },
    .number("progress", .fraction, digits: 3) { $0.user.balance.progress },
    .text("colour") { .string($0.user.balance.colour.rawValue) },
    .number("points", .points, digits: 1) { $0.user.balance.points },
  ]

  static func ranked(_ board: Leaderboard) -> [RankedUser] {
    board.users.enumerated().map { RankedUser(rank: $0.offset + 1, user: $0.element) }
  }

  /// The leaderboard as the `balance` table.
  package static func table(_ board: Leaderboard) -> ResultTable {
    ResultTable(name: "balance", rows: ranked(board).map { ResultColumns.record(columns, of: $0) })
  }

  /// The leaderboard's numbers as stored rows, one set per user.
  package static func storedRows(_ board: Leaderboard) -> [ResultRow] {
    ranked(board).flatMap { ResultColumns.storedRows(columns, of: $0, subject: $0.user.name) }
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
  package static func run(
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
