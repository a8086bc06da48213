import EnergyLabCore
import Evaluation
import Foundation
import TestSupport
import Testing

/// Bland JM, Altman DG. Statistical methods for assessing agreement between
/// two methods of clinical measurement. Lancet 1986; i: 307-310, Table 1:
/// peak expiratory flow (l/min) of 17 subjects, first reading on the Wright
/// and on the mini Wright meter.
let wright: [Double] = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
let miniWright: [Double] = [
  512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451,
]

struct BlandAltmanTests {
  func accumulate(_ a: [Double], _ b: [Double]) -> ErrorAccumulator {
    var acc = ErrorAccumulator()
    for (x, y) in zip(a, b) { acc.add(predicted: x, reference: y) }
    return acc
  }

  /// The paper: mean difference (Wright minus mini) -2.1 l/min, SD 38.8;
  /// limits (with 2 SD) -79.7 and 75.5. (Its approximate intervals of the
  /// limits are replaced by exact ones: `exactIntervalsOfPeakFlow`.)
  @Test func lancet1986PeakFlowExample() {
    let s = accumulate(wright, miniWright).statistics(limitsMultiplier: 2)
    #expect(s.count == 17)
    expectClose(s.bias, -2.1, tolerance: 0.05)
    expectClose(s.sdDifference, 38.8, tolerance: 0.05)
    expectClose(s.limitsOfAgreementLower, -79.7, tolerance: 0.1)
    expectClose(s.limitsOfAgreementUpper, 75.5, tolerance: 0.1)
  }

  /// Hand calculation: a = (1, 2, 3), b = (2, 3, 4). Differences all -1:
  /// bias -1, SD 0, MAE 1, RMSE 1, MAPE (1/2 + 1/3 + 1/4)/3 = 36.11 %,
  /// Pearson r 1; Lin's CCC = 2 s_ab / (s_a^2 + s_b^2 + (mean_a - mean_b)^2)
  /// = 2(2/3) / (2/3 + 2/3 + 1) = 4/7.
  @Test func handCalculation() {
    let s = accumulate([1, 2, 3], [2, 3, 4]).statistics()
    expectClose(s.bias, -1, tolerance: 1e-12)
    #expect(abs(s.sdDifference) < 1e-7)
    expectClose(s.meanAbsoluteError, 1, tolerance: 1e-12)
    expectClose(s.rootMeanSquareError, 1, tolerance: 1e-12)
    let mape: Double = 100 * (1.0 / 2 + 1.0 / 3 + 1.0 / 4) / 3
    expectClose(s.meanAbsolutePercentageError, mape, tolerance: 1e-9)
    expectClose(s.pearsonR, 1, tolerance: 1e-12)
    expectClose(s.concordanceCorrelation, 4.0 / 7, tolerance: 1e-12)
    #expect(s.maximumAbsoluteError == 1)
    // |d|/|b| = 0.5, 0.333, 0.25: none is within 20 %.
    #expect(s.withinToleranceShare == 0)
  }

  /// Pearson r of the Wright against the mini Wright readings: 0.9433
  /// (scipy.stats.pearsonr on Table 1 gives 0.943279).
  @Test func pearsonOfPeakFlow() {
    expectClose(accumulate(wright, miniWright).statistics().pearsonR, 0.943279, tolerance: 1e-6)
  }

  @Test func withinTwentyPercentCountsTheBoundary() {
    let s = accumulate([120, 80, 130, 100], [100, 100, 100, 100]).statistics()
    #expect(s.withinToleranceShare == 0.75)
  }
}

/// Properties every reduction must keep: order does not matter, merging is
/// associative and equals adding one by one, and MAE <= RMSE.
struct AccumulatorPropertyTests {
  static func randomPairs(seed: UInt64, count: Int) -> [(Double, Double)] {
    var state = seed
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    return (0..<count).map { _ in (next() * 100 - 20, next() * 80 + 1) }
  }

  static func close(_ x: Double, _ y: Double) -> Bool {
    x.isNaN && y.isNaN || abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
  }

  static func close(_ x: Double?, _ y: Double?) -> Bool {
    guard let x, let y else { return x == nil && y == nil }
    return close(x, y)
  }

  static func same(_ a: ErrorStatistics, _ b: ErrorStatistics) -> Bool {
    a.count == b.count && close(a.bias, b.bias) && close(a.sdDifference, b.sdDifference)
      && close(a.meanAbsoluteError, b.meanAbsoluteError)
      && close(a.rootMeanSquareError, b.rootMeanSquareError)
      && close(a.meanAbsolutePercentageError, b.meanAbsolutePercentageError) && close(a.pearsonR, b.pearsonR)
      && close(a.concordanceCorrelation, b.concordanceCorrelation)
      && close(a.maximumAbsoluteError, b.maximumAbsoluteError)
      && close(a.withinToleranceShare, b.withinToleranceShare)
  }

  @Test(arguments: [1 as UInt64, 2, 3, 4, 5])
  func permutationInvariance(seed: UInt64) {
    let pairs = Self.randomPairs(seed: seed, count: 200)
    var forward = ErrorAccumulator()
    for (a, b) in pairs { forward.add(predicted: a, reference: b) }
    var backward = ErrorAccumulator()
    for (a, b) in pairs.reversed() { backward.add(predicted: a, reference: b) }
    var shuffled = ErrorAccumulator()
    for i in pairs.indices.sorted(by: { ($0 * 7919) % 200 < ($1 * 7919) % 200 }) {
      shuffled.add(predicted: pairs[i].0, reference: pairs[i].1)
    }
    #expect(Self.same(forward.statistics(), backward.statistics()))
    #expect(Self.same(forward.statistics(), shuffled.statistics()))
  }

  @Test(arguments: [11 as UInt64, 12, 13])
  func mergeIsAssociativeAndMatchesSequentialAdds(seed: UInt64) {
    let pairs = Self.randomPairs(seed: seed, count: 90)
    var parts = [ErrorAccumulator(), ErrorAccumulator(), ErrorAccumulator()]
    var all = ErrorAccumulator()
    for (i, (a, b)) in pairs.enumerated() {
      parts[i * 3 / pairs.count].add(predicted: a, reference: b)
      all.add(predicted: a, reference: b)
    }
    var left = parts[0]
    left.merge(parts[1])
    left.merge(parts[2])
    var right = parts[1]
    right.merge(parts[2])
    var rightFirst = parts[0]
    rightFirst.merge(right)
    #expect(Self.same(left.statistics(), rightFirst.statistics()))
    #expect(Self.same(left.statistics(), all.statistics()))
    var withEmpty = all
    withEmpty.merge(ErrorAccumulator())
    #expect(Self.same(withEmpty.statistics(), all.statistics()))
  }

  @Test(arguments: [21 as UInt64, 22, 23, 24])
  func maeNeverExceedsRMSE(seed: UInt64) {
    var acc = ErrorAccumulator()
    for (a, b) in Self.randomPairs(seed: seed, count: 50) { acc.add(predicted: a, reference: b) }
    let s = acc.statistics()
    #expect(s.meanAbsoluteError <= s.rootMeanSquareError + 1e-12)
    #expect(s.maximumAbsoluteError >= s.rootMeanSquareError - 1e-12)
  }
}

struct StudentTTests {
  /// Quantiles from standard t tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
  @Test(arguments: [(1.0, 12.706), (2, 4.303), (10, 2.228), (16, 2.120), (30, 2.042), (120, 1.980)])
  func upperTwoAndAHalfPercentPoints(df: Double, t: Double) {
    expectClose(StudentT.quantile(0.975, degreesOfFreedom: df), t, tolerance: 0.0006)
  }

  @Test func largeDegreesApproachTheNormal() {
    expectClose(StudentT.quantile(0.975, degreesOfFreedom: 1e7), 1.959964, tolerance: 1e-5)
    expectClose(StudentT.cdf(0, degreesOfFreedom: 5), 0.5, tolerance: 1e-12)
  }
}
