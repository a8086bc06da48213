import TestSupport
import Testing

@testable import Evaluation

/// The choice of form of the Bland-Altman limits (Bland and Altman 1999:
/// difference D = a - b on mean A, the trend of D and of its spread |R| on
/// A; ratio limits from ln a - ln b; regression-based limits
/// b0 + b1 A -/+ 1.96 sqrt(pi/2) (c0 + c1 A) from D on A and |R| on A).
/// The tests on the logarithms and the spread are printed by
/// `scripts/oracles/limits_forms.py` (scipy 1.17.1) on the same pairs; the
/// other expected values are from numpy 2.4.6 and scipy 1.17.1
/// (scipy.stats.linregress), printed by this script:
///
/// ```python
/// import numpy as np
/// from scipy import stats
///
/// def analyse(name, predicted, reference, at):
///     a = np.array(predicted); b = np.array(reference)
///     A = (a + b) / 2; D = a - b
///     t = stats.linregress(A, D)
///     s = D.std(ddof=1)
///     print(name, "n", len(A), "A", A.min(), A.max())
///     print(" D~A slope", repr(t.slope), "p", repr(t.pvalue))
///     print(" bias", repr(D.mean()), "sd", repr(s), "limits", repr(D.mean() - 1.96 * s), repr(D.mean() + 1.96 * s))
///     if (A > 0).all() or (A < 0).all():
///         P = 100 * D / A
///         u = stats.linregress(A, P)
///         q = P.std(ddof=1)
///         print(" P~A slope", repr(u.slope), "p", repr(u.pvalue))
///         print(" pct bias", repr(P.mean()), "sd", repr(q), "limits", repr(P.mean() - 1.96 * q), repr(P.mean() + 1.96 * q))
///     v = stats.linregress(A, np.abs(D - (t.intercept + t.slope * A)))
///     print(" b0", repr(t.intercept), "b1", repr(t.slope), "c0", repr(v.intercept), "c1", repr(v.slope))
///     for m in at:
///         centre = t.intercept + t.slope * m
///         half = 1.96 * np.sqrt(np.pi / 2) * (v.intercept + v.slope * m)
///         print(" at", m, "sd", repr(np.sqrt(np.pi / 2) * (v.intercept + v.slope * m)), "limits", repr(centre - half), repr(centre + half))
///
/// analyse("a", [15.3, 24.8, 35.1, 44.6, 55.2, 65.0, 74.9, 85.3, 94.7, 105.1],
///         [10, 20, 30, 40, 50, 60, 70, 80, 90, 100], [])
/// analyse("b", [21.05, 31.455, 42.04, 52.35, 63.12, 73.5, 83.92, 94.77, 104.8, 115.555, 125.7, 136.695],
///         [18.95, 28.545, 37.96, 47.65, 56.88, 66.5, 76.08, 85.23, 95.2, 104.445, 114.3, 123.305], [])
/// analyse("c", [12.0, 16.125, 22.375, 26.8125, 33.5, 36.625, 43.625, 47.5625, 55.0, 57.125,
///               64.875, 68.3125, 76.5, 77.625, 86.125, 89.0625, 98.0, 98.125, 107.375],
///         [8.0, 13.875, 17.625, 23.1875, 26.5, 33.375, 36.375, 42.4375, 45.0, 52.875,
///          55.125, 61.6875, 63.5, 72.375, 73.875, 80.9375, 82.0, 91.875, 92.625], [10, 50, 100])
/// analyse("d", [-33.25, -29.0, -22.125, -17.125, -10.25, -6.0, 0.875, 5.875, 12.75, 17.0, 23.875, 28.875, 35.75],
///         [-26.75, -21.0, -17.875, -12.875, -9.75, -4.0, -0.875, 4.125, 7.25, 13.0, 16.125, 21.125, 24.25], [-30, 0, 30])
/// analyse("e", [11.65, 21.85, 32.575, 42.925, 53.65, 63.85, 74.575, 84.925],
///         [8.35, 18.15, 27.425, 37.075, 46.35, 56.15, 65.425, 75.075], [])
/// analyse("f", [16.75, 24.5, 38.25, 47.0, 59.75, 69.5, 81.25, 92.0, 103.0, 114.0, 125.0, 136.0],
///         [3.25, 15.5, 21.75, 33.0, 40.25, 50.5, 58.75, 68.0, 77.0, 86.0, 95.0, 104.0], [120])
/// ```
struct LimitsOfAgreementTests {
  /// `expected` to 1e-6 of its magnitude.
  func expectRelative(
    _ actual: Double?, _ expected: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectClose(actual, expected, tolerance: 1e-6 * abs(expected), what, sourceLocation: sourceLocation)
  }

  /// Pairs (a, b) with mean A and difference D: a = A + D / 2, b = A - D / 2.
  struct Pairs {
    var predicted: [Double]
    var reference: [Double]

    init(means: [Double], differences: [Double]) {
      predicted = zip(means, differences).map { $0 + $1 / 2 }
      reference = zip(means, differences).map { $0 - $1 / 2 }
    }
  }

  /// (a) A constant difference of 5 with scatter: no trend (p 0.878) and
  /// no change of spread (p 0.688), absolute limits.
  @Test func constantDifferenceGivesAbsoluteLimits() throws {
    let l = try #require(
      LimitsOfAgreement(
        predicted: [15.3, 24.8, 35.1, 44.6, 55.2, 65.0, 74.9, 85.3, 94.7, 105.1],
        reference: [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]))
    #expect(l.form == .absolute)
    #expect(l.count == 10)
    #expect(l.nesting == .independent)
    expectRelative(l.differenceTrend.slope, -0.00045233312333599514, "slope")
    expectRelative(l.differenceTrend.pValue, 0.8781071341606999, "p")
    expectRelative(l.spreadTrend.pValue, 0.6875270308715734, "spread p")
    expectRelative(l.bias, 5.000000000000001, "bias")
    expectRelative(l.standardDeviation, 0.24494897427831663, "sd")
    expectRelative(l.absoluteLimits.lower, 4.5199000104145, "lower")
    expectRelative(l.absoluteLimits.upper, 5.480099989585502, "upper")
    #expect(l.regression == nil)
    #expect(l.limits(atMean: 50) == l.absoluteLimits)
    #expect(l.limits(atMean: 200) == nil)
    #expect(l.coverage.map(\.third) == ["lower", "middle", "upper"])
    #expect(l.coverage.map(\.count) == [3, 3, 4])
    #expect(l.coverage.allSatisfy { $0.share == 1 })
    #expect(
      l.reason
        == "differences do not trend with the mean (slope -0.000452, p = 0.878), their spread does not change with it (slope -0.000597, p = 0.688): absolute limits"
    )
  }

  /// (b) D = 10 % of A times (1 + e), e a fixed scatter of -6 % to +6 %
  /// unrelated to A: D trends (p 9e-12) and so does its spread (p 0.026);
  /// on the logarithms neither (p 0.639 and 0.940): ratio limits.
  @Test func proportionalDifferenceGivesRatioLimits() throws {
    let l = try #require(
      LimitsOfAgreement(
        predicted: [21.05, 31.455, 42.04, 52.35, 63.12, 73.5, 83.92, 94.77, 104.8, 115.555, 125.7, 136.695],
        reference: [18.95, 28.545, 37.96, 47.65, 56.88, 66.5, 76.08, 85.23, 95.2, 104.445, 114.3, 123.305]))
    #expect(l.form == .ratio)
    expectRelative(l.differenceTrend.slope, 0.09966783216783216, "slope")
    #expect(l.differenceTrend.pValue < 0.001)
    expectRelative(l.spreadTrend.pValue, 0.025541449928662988, "spread p")
    let r = try #require(l.ratio)
    expectRelative(r.trend.pValue, 0.6390410393835122, "log trend p")
    expectRelative(r.spread.pValue, 0.9396980390245541, "log spread p")
    expectRelative(r.bias, 1.1053559167687965, "ratio bias")
    expectRelative(r.limits.lower, 1.0965826951150401, "ratio lower")
    expectRelative(r.limits.upper, 1.1141993286768117, "ratio upper")
    #expect(l.regression == nil)
    // At mean 100 the ratio limits are differences 2 A (r - 1) / (r + 1).
    let atHundred = try #require(l.limits(atMean: 100))
    expectRelative(atHundred.lower, 200 * (1.0965826951150401 - 1) / (1.0965826951150401 + 1), "lower at 100")
    expectRelative(atHundred.upper, 200 * (1.1141993286768117 - 1) / (1.1141993286768117 + 1), "upper at 100")
    #expect(l.coverage.allSatisfy { $0.share == 1 })
  }

  /// A model 10 % high everywhere: ln a - ln b is ln 1.1 at every pair (up
  /// to rounding), so the ratio limits have zero width.
  @Test func exactRatioGivesRatioLimits() throws {
    let reference = [10.0, 20, 30, 40]
    let l = try #require(LimitsOfAgreement(predicted: reference.map { $0 * 1.1 }, reference: reference))
    #expect(l.form == .ratio)
    let r = try #require(l.ratio)
    expectClose(r.bias, 1.1, tolerance: 1e-9)
    expectClose(r.limits.lower, 1.1, tolerance: 1e-9)
    expectClose(r.limits.upper, 1.1, tolerance: 1e-9)
  }

  /// (c) D = 2 + 0.1 A + e (0.5 + 0.05 A), A 10 to 100: D and its spread
  /// trend, and ln a - ln b still trends (p 0.0027): regression-based
  /// limits.
  @Test func ratiosThatStillTrendGiveRegressionLimits() throws {
    let l = try #require(
      LimitsOfAgreement(
        predicted: [
          12.0, 16.125, 22.375, 26.8125, 33.5, 36.625, 43.625, 47.5625, 55.0, 57.125,
          64.875, 68.3125, 76.5, 77.625, 86.125, 89.0625, 98.0, 98.125, 107.375,
        ],
        reference: [
          8.0, 13.875, 17.625, 23.1875, 26.5, 33.375, 36.375, 42.4375, 45.0, 52.875,
          55.125, 61.6875, 63.5, 72.375, 73.875, 80.9375, 82.0, 91.875, 92.625,
        ]))
    #expect(l.form == .regression)
    expectRelative(l.differenceTrend.pValue, 0.0007340831515820161, "p")
    expectRelative(l.spreadTrend.pValue, 0.0002674858581895687, "spread p")
    expectRelative(l.ratio?.trend.pValue, 0.0026875296816091013, "log trend p")
    let r = try #require(l.regression)
    expectRelative(r.b0, 1.980263157894738, "b0")
    expectRelative(r.b1, 0.10131578947368418, "b1")
    expectRelative(r.c0, 0.45383194829178186, "c0")
    expectRelative(r.c1, 0.03619575253924285, "c1")
    #expect(r.meanRange == 10...100)
    expectRelative(r.standardDeviation(atMean: 50), 2.8370264151698508, "sd at 50")
    let atFifty = try #require(l.limits(atMean: 50))
    expectRelative(atFifty.lower, 1.4854808578460386, "lower at 50")
    expectRelative(atFifty.upper, 12.606624405311855, "upper at 50")
    let atTen = try #require(l.limits(atMean: 10))
    expectRelative(atTen.lower, 0.989437710966059, "lower at 10")
    expectRelative(atTen.upper, 4.9974043942971, "upper at 10")
    let atHundred = r.limits(atMean: 100)
    expectRelative(atHundred.lower, 2.105534791446013, "lower at 100")
    expectRelative(atHundred.upper, 22.118149419080297, "upper at 100")
    #expect(l.limits(atMean: 101) == nil)
    #expect(
      l.reason
        == "differences trend with the mean (slope 0.101, p < 0.001), their spread grows with it (slope 0.0362, p < 0.001); as ratios (logarithms) the differences still trend (slope -0.0777, p = 0.003): regression-based limits over means 10 to 100"
    )
  }

  /// (d) D = 1 + 0.3 A + 1.5 e, A from -30 to 30: ratios of values that
  /// cross zero mean nothing, so the regression limits hold.
  @Test func meansAcrossZeroGiveRegressionLimits() throws {
    let l = try #require(
      LimitsOfAgreement(
        predicted: [
          -33.25, -29.0, -22.125, -17.125, -10.25, -6.0, 0.875, 5.875, 12.75, 17.0, 23.875, 28.875, 35.75,
        ],
        reference: [
          -26.75, -21.0, -17.875, -12.875, -9.75, -4.0, -0.875, 4.125, 7.25, 13.0, 16.125, 21.125, 24.25,
        ]
      ))
    #expect(l.form == .regression)
    #expect(l.ratio == nil)
    #expect(l.percentage == nil)
    let r = try #require(l.regression)
    expectRelative(r.b0, 1.1153846153846154, "b0")
    expectRelative(r.b1, 0.3024725274725275, "b1")
    expectRelative(r.c0, 1.1449704142011834, "c0")
    expectRelative(r.c1, -0.0030431107354184305, "c1")
    let atThirty = try #require(l.limits(atMean: 30))
    expectRelative(atThirty.lower, 7.601207183904489, "lower at 30")
    expectRelative(atThirty.upper, 12.777913695216391, "upper at 30")
    let atMinusThirty = try #require(l.limits(atMean: -30))
    expectRelative(atMinusThirty.lower, -10.99566777228646, "lower at -30")
    expectRelative(atMinusThirty.upper, -4.92191464529596, "upper at -30")
    #expect(
      l.reason
        == "differences trend with the mean (slope 0.302, p < 0.001), their spread does not change with it (slope -0.00304, p = 0.626); some values are at or below zero, so ratios cannot be taken: regression-based limits over means -30 to 30"
    )
  }

  /// (e) Eight pairs, D = 2 + 0.1 A + 0.3 e: D trends (p < 0.001), so does
  /// ln a - ln b (p 0.001), and eight pairs are under the minimum of ten for
  /// regression-based limits.
  @Test func tooFewPairsForRegressionGiveNoLimits() throws {
    let l = try #require(
      LimitsOfAgreement(
        predicted: [11.65, 21.85, 32.575, 42.925, 53.65, 63.85, 74.575, 84.925],
        reference: [8.35, 18.15, 27.425, 37.075, 46.35, 56.15, 65.425, 75.075]))
    #expect(l.form == .none)
    #expect(l.parameters.minimumRegressionPairs == 10)
    expectRelative(l.ratio?.trend.pValue, 0.00108050288192727, "log trend p")
    #expect(l.regression == nil)
    #expect(l.limits(atMean: 40) == nil)
    #expect(l.coverage.isEmpty)
    // The absolute summary is still reported, for the record.
    expectRelative(l.bias, 6.5, "bias")
    #expect(
      l.reason
        == "differences trend with the mean (slope 0.0979, p < 0.001), their spread does not change with it (slope -0.00143, p = 0.370); as ratios (logarithms) the differences still trend (slope -0.0901, p = 0.001); 8 pairs are too few for regression-based limits (at least 10): no limits of agreement apply"
    )
  }

  /// Scatter shrinking to nothing from A = 80 on: the fitted SD,
  /// sqrt(pi/2) (c0 + c1 A), is below zero at A = 120, so the regression
  /// limits cross and none apply.
  @Test func negativeFittedSDGivesNoLimits() throws {
    let l = try #require(
      LimitsOfAgreement(
        predicted: [16.75, 24.5, 38.25, 47.0, 59.75, 69.5, 81.25, 92.0, 103.0, 114.0, 125.0, 136.0],
        reference: [3.25, 15.5, 21.75, 33.0, 40.25, 50.5, 58.75, 68.0, 77.0, 86.0, 95.0, 104.0]))
    #expect(l.form == .none)
    expectRelative(l.spreadTrend.slope, -0.031091984938138806, "spread slope")
    expectRelative(l.spreadTrend.intercept, 3.209013209013209, "spread intercept")
    #expect(l.regression == nil)
    #expect(l.reason.hasSuffix("at mean 120: no limits of agreement apply"), "\(l.reason)")
  }

  @Test func fewerThanThreePairsOrOneMeanHaveNoTest() {
    #expect(LimitsOfAgreement(predicted: [1, 2], reference: [1, 2]) == nil)
    #expect(LimitsOfAgreement(predicted: [1, 2, 3], reference: [3, 2, 1]) == nil)
    #expect(LimitsOfAgreement(predicted: [1, .nan, 3, 4], reference: [1, 2, .infinity, 4]) == nil)
  }

  /// The regression multiplier is 1.96 sqrt(pi / 2) = 2.45650 (Bland and
  /// Altman's 2.46).
  @Test func regressionMultiplier() {
    expectClose(LimitsOfAgreement.Regression.limitsMultiplier, 2.4565, tolerance: 1e-4)
  }
}
