import EnergyLabCore
import TestSupport
import Testing

@testable import Evaluation

struct ModeAgreementTests {
  /// The README's rule: the class of the most seconds, when it holds at
  /// least 16 of 30; unknown seconds count toward no class.
  @Test func anEpochsTruthNeedsSixteenSecondsOfOneClass() {
    var truth = TruthEpochs()
    for s in 0..<16 { truth.add(secondsSince1970: 600 + Double(s), mode: .walk) }
    for s in 16..<30 { truth.add(secondsSince1970: 600 + Double(s), mode: .vehicle) }
    for s in 0..<15 { truth.add(secondsSince1970: 630 + Double(s), mode: .cycle) }
    for s in 15..<30 { truth.add(secondsSince1970: 630 + Double(s), mode: nil) }
    #expect(truth.mode(at: 600) == .walk)
    #expect(truth.mode(at: 630) == nil)
    #expect(truth.mode(at: 660) == nil)
  }

  /// A confusion matrix worked by hand: walk 8 right, 2 as cycle; cycle 5
  /// right; vehicle 3 right, 1 stationary; stationary 4 right, 1 as walk.
  /// Moving accuracy (8 + 5 + 3) / 19; walk precision 8 / 9, recall 8 / 10,
  /// F1 2 (8/9)(8/10) / (8/9 + 8/10) = 16 / 19.
  @Test func scoresOfAHandWorkedMatrix() {
    var c = ModeConfusion()
    for (t, p, n) in [
      (ScoredMode.walk, ScoredMode.walk, 8), (.walk, .cycle, 2), (.cycle, .cycle, 5), (.vehicle, .vehicle, 3),
      (.vehicle, .stationary, 1), (.stationary, .stationary, 4), (.stationary, .walk, 1),
    ] {
      for _ in 0..<n { c.add(truth: t, predicted: p) }
    }
    var halves = ModeConfusion()
    halves.merge(c)
    #expect(halves == c)
    #expect(c.epochs == 24)
    #expect(c.movingEpochs == 19)
    expectClose(c.movingAccuracy, 16.0 / 19, tolerance: 1e-15, "moving accuracy")
    expectClose(c.accuracy, 20.0 / 24, tolerance: 1e-15, "accuracy")
    expectClose(c.walkAsCycleShare, 0.2, tolerance: 1e-15, "walk as cycle")
    expectClose(c.precision(.walk), 8.0 / 9, tolerance: 1e-15, "walk precision")
    expectClose(c.recall(.walk), 0.8, tolerance: 1e-15, "walk recall")
    expectClose(c.f1(.walk), 16.0 / 19, tolerance: 1e-15, "walk F1")
    expectClose(c.precision(.cycle), 5.0 / 7, tolerance: 1e-15, "cycle precision")
  }

  @Test func unknownIsNeverZero() {
    let c = ModeConfusion()
    #expect(c.movingAccuracy == nil)
    #expect(c.walkAsCycleShare == nil)
    #expect(c.f1(.walk) == nil)
  }

  @Test(arguments: [
    ("Walk", ScoredMode.walk), ("In-Out Walk", .walk), ("Bike", .cycle), ("Car", .vehicle), ("Bus", .vehicle),
    ("Stand", .stationary), ("Sit", .stationary), ("Some Movement", .stationary),
  ])
  func observedLabels(label: String, mode: ScoredMode) {
    #expect(ScoredMode(observed: label) == mode)
  }

  @Test func mixedAndUnknownLabelsScoreNothing() {
    for label in ["Some Movement/Walk", "-1", "", "Sit/Some Movement"] {
      #expect(ScoredMode(observed: label) == nil)
    }
  }
}

/// A confusion's rows and columns follow `ScoredMode.allCases`; each mode's
/// `index` is its place there (a switch, so no lookup can fail).
struct ScoredModeIndexTests {
  @Test func everyModesIndexIsItsPlaceInAllCases() {
    #expect(ScoredMode.allCases.map(\.index) == Array(0..<ScoredMode.allCases.count))
  }
}
