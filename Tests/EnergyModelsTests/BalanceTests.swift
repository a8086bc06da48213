import EnergyLabCore
import EnergyModels
import Testing

/// StepMyHealth rules (L553-577, L693-705), by hand.
struct CalorieBalanceTests {
  /// 2600 kcal eaten, 5000 steps x 0.4 = 2000 burned: balance 600; of a
  /// 2000 allowance progress 0.3 (orange), 30 points.
  @Test func thesisRule() {
    let b = CalorieBalance(intakeKilocalories: 2600, steps: 5000, allowanceKilocalories: 2000)
    #expect(b.balanceKilocalories == 600)
    #expect(b.progress == 0.3)
    #expect(b.colour == .orange)
    #expect(b.points == 30)
  }

  @Test(arguments: [
    (2100.0, CalorieBalance.Colour.red), (2000, .green), (1001, .green), (1000, .orange), (0, .orange),
  ])
  func colourThresholds(balance: Double, colour: CalorieBalance.Colour) {
    #expect(
      CalorieBalance(intakeKilocalories: balance, steps: 0, allowanceKilocalories: 2000).colour == colour)
  }
}

struct DurationTextTests {
  @Test(arguments: [
    ("45 mins", 45.0), ("1 hour 5 mins", 65), ("2 hours", 120), ("1h20min", 80), ("90 minutes", 90),
    ("1 day 2 hours", 1560),
    ("1 hour and 30 mins", 90),
  ])
  func readsRoutingTimes(text: String, minutes: Double) throws {
    #expect(try DurationText.minutes(text) == minutes)
  }

  @Test(arguments: ["soon", "", "5 parsecs", "mins 5"])
  func rejectsOthers(text: String) {
    let error = #expect(throws: ValueError.self) { try DurationText.minutes(text) }
    #expect(error?.value == text)
  }
}
