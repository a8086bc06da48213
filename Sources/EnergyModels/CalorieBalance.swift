import EnergyLabCore

/// The StepMyHealth thesis's calorie balance, progress colour and points
/// (L553-577, L693-705):
/// ```
/// balance  = intake (kcal) - steps x kcal per step (0.4)
/// progress = balance / allowance
/// colour   = red if progress > 1, green if > 0.5, otherwise orange
/// points   = progress x 100; leaderboard by points, descending
/// ```
public struct CalorieBalance: Sendable, Hashable {
  public enum Colour: String, Sendable, Hashable {
    case red, green, orange
  }

  public var intakeKilocalories: Double
  public var steps: Double
  public var allowanceKilocalories: Double
  public var kilocaloriesPerStep: Double

  public init(
    intakeKilocalories: Double, steps: Double, allowanceKilocalories: Double,
    kilocaloriesPerStep: Double = 0.4
  ) {
    self.intakeKilocalories = intakeKilocalories
    self.steps = steps
    self.allowanceKilocalories = allowanceKilocalories
    self.kilocaloriesPerStep = kilocaloriesPerStep
  }

  public var balanceKilocalories: Double { intakeKilocalories - steps * kilocaloriesPerStep }
  public var progress: Double { balanceKilocalories / allowanceKilocalories }
  /// The thesis's thresholds, in its order: above 1 red, above 0.5 green, else orange.
  public var colour: Colour { progress > 1 ? .red : progress > 0.5 ? .green : .orange }
  public var points: Double { progress * 100 }
}
