import EnergyLabCore
import Evaluation
import Foundation
import Ingest
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// `evaluate modes` on two shipped days of the PALMS validation study
/// (Datasets/palms-mode-validation: 7 March and 6 April 2011, participant
/// 106; MD2K, BSD 3-clause). Expected figures are from the independent
/// oracle scripts/oracles/transport_modes.py, run as
/// `transport_modes.py --truth Datasets/palms-mode-validation/truth
///  --gpx Datasets/palms-mode-validation/gpx/*.gpx
///  --palms Datasets/palms-mode-validation/palms-defaults.csv --counts C`
/// with C the default counts of `ModeModelParameters`.
struct ModeEvaluationTests {
  static let folder = "\(packageRoot)/Datasets/palms-mode-validation"

  static func evaluation() throws -> ModeEvaluationCommand.Evaluation {
    var options = ModeEvaluationCommand.Options(
      truthDirectory: "\(folder)/truth",
      tracks: ["\(folder)/gpx/030711_106.gpx", "\(folder)/gpx/040611_106.gpx"],
      palmsPath: "\(folder)/palms-defaults.csv", timeZone: TimeZone(identifier: "America/Los_Angeles")!)
    options.leaveOneDayOut = false
    return try evaluation(options)
  }

  static func evaluation(_ options: ModeEvaluationCommand.Options) throws -> ModeEvaluationCommand.Evaluation
  {
    try ModeEvaluationCommand.evaluate(options)
  }

  /// Rows walk, cycle, vehicle, stationary; columns the same and then "no
  /// label", as the oracle prints them.
  static func matrix(_ c: ModeConfusion) -> [[Int]] {
    ScoredMode.allCases.map { t in
      (ScoredMode.allCases.map { Optional($0) } + [nil]).map { c.count(truth: t, predicted: $0) }
    }
  }

  @Test func palmsOwnOutputIsScoredAsTheOracleScoresIt() throws {
    let e = try Self.evaluation()
    let palms = try #require(e.scores.first { $0.predictor == "palms" })
    #expect(palms.confusion.epochs == 469)
    #expect(palms.confusion.movingEpochs == 275)
    #expect(
      Self.matrix(palms.confusion) == [
        [58, 34, 1, 24, 0], [0, 63, 0, 1, 0], [0, 1, 85, 8, 0], [12, 9, 7, 166, 0],
      ])
    expectClose(palms.confusion.movingAccuracy, 0.7490909090909091, tolerance: 1e-12, "PALMS moving accuracy")
    expectClose(palms.confusion.walkAsCycleShare, 0.2905982905982906, tolerance: 1e-12, "PALMS walk as cycle")
  }

  @Test func energyLabModesAreTheOraclesViterbiPath() throws {
    let e = try Self.evaluation()
    let mine = try #require(e.scores.first { $0.predictor == "energylab" })
    #expect(
      Self.matrix(mine.confusion) == [
        [101, 0, 1, 15, 0], [2, 62, 0, 0, 0], [0, 0, 93, 1, 0], [22, 1, 2, 169, 0],
      ])
    expectClose(mine.confusion.movingAccuracy, 0.9309090909090909, tolerance: 1e-12, "moving accuracy")
    // Both predictors on the same epochs, left out for the same reasons.
    #expect(e.scores.map(\.confusion.epochs) == [469, 469])
    #expect(e.scores.map(\.confusion.mixedOrUnknown) == [13, 13])
    #expect(e.scores.map(\.confusion.withoutFix) == [556, 556])
  }

  @Test func fittedCountsAreTheOraclesCounts() throws {
    var options = ModeEvaluationCommand.Options(
      truthDirectory: "\(Self.folder)/truth",
      tracks: ["\(Self.folder)/gpx/030711_106.gpx", "\(Self.folder)/gpx/040611_106.gpx"],
      timeZone: TimeZone(identifier: "America/Los_Angeles")!)
    options.leaveOneDayOut = true
    options.fit = true
    let e = try Self.evaluation(options)
    let counts = try #require(e.fitted)
    // transport_modes.py without --counts fits these on the two days.
    #expect(
      counts.emission == [
        [13, 2, 6, 8, 53, 33, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 1, 3, 0, 14, 28, 11, 6, 0, 0, 0, 0, 0, 0, 0, 0],
        [11, 2, 2, 1, 3, 3, 2, 5, 9, 1, 7, 2, 6, 6, 7, 7, 3, 11, 6],
        [168, 9, 7, 5, 4, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      ])
    #expect(counts.transition == [[106, 2, 2, 7], [1, 58, 0, 5], [1, 0, 87, 2], [8, 2, 5, 178]])
    #expect(e.scores.map(\.predictor) == ["energylab", "energylab-held-out"])
  }

  /// The speed bands scored beside the epoch model on the same epochs:
  /// they know no stationary class, so no epoch is called stationary, and
  /// every standing epoch is wrong.
  @Test func speedBandsAreScoredOnTheSameEpochs() throws {
    var options = ModeEvaluationCommand.Options(
      truthDirectory: "\(Self.folder)/truth",
      tracks: ["\(Self.folder)/gpx/030711_106.gpx", "\(Self.folder)/gpx/040611_106.gpx"],
      timeZone: TimeZone(identifier: "America/Los_Angeles")!)
    options.leaveOneDayOut = false
    options.speedBands = SpeedBandParameters()
    let e = try Self.evaluation(options)
    #expect(e.scores.map(\.predictor) == ["energylab", "speed-bands"])
    let bands = e.scores[1].confusion
    #expect(bands.epochs == 469)
    #expect(ScoredMode.allCases.allSatisfy { bands.count(truth: $0, predicted: .stationary) == 0 })
    #expect(bands.recall(.stationary) == 0)
    #expect(e.parameters.contains { $0.name == "mode_walk_max_mps" })
  }
}
