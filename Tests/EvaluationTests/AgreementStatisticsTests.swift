import EnergyLabCore
import TestSupport
import Testing

@testable import Evaluation

/// Intervals, repeated measures and the indices beyond the limits of
/// agreement, against values printed by `scripts/oracles/agreement.py`
/// (numpy 2.4.6, scipy 1.17.1, pingouin 0.7.0): scipy.stats.nct for the
/// exact intervals (Carkeet 2015), pingouin.intraclass_corr for ICC(A,1)
/// (its ICC2) and ICC(C,1) (its ICC3), McGraw and Wong's intervals with
/// scipy.stats.f, Lin's z-transform interval, scipy.odr for Deming's line,
/// scipy.stats.ttest_1samp for the two one-sided tests, and the published
/// worked example of Bland and Altman (2007, J Biopharm Stat 17:571-582,
/// section 3: cardiac output by RV and IC, 12 subjects, 60 pairs).
struct AgreementStatisticsTests {
  /// D1 of the oracle: five pairs.
  static let d1a = [10.2, 11.5, 9.8, 12.1, 10.9]
  static let d1b = [10.0, 10.8, 9.9, 11.2, 10.1]
  /// D3 of the oracle: 30 pairs whose spread grows with the mean.
  static let d3a = [
    1.9888, 2.2014, 2.4476, 3.0495, 3.1727, 4.1308, 4.9669, 5.59, 4.8302, 6.443, 5.4259, 6.4888, 7.7735,
    8.4537, 7.8243, 8.9028, 8.8552, 8.6876, 8.1709, 10.1303, 10.7363, 11.4166, 11.6097, 12.9269, 12.1124,
    10.9523, 13.2281, 14.4686, 11.6298, 11.76,
  ]
  static let d3b = [
    2.0, 2.4138, 2.8276, 3.2414, 3.6552, 4.069, 4.4828, 4.8966, 5.3103, 5.7241, 6.1379, 6.5517, 6.9655,
    7.3793, 7.7931, 8.2069, 8.6207, 9.0345, 9.4483, 9.8621, 10.2759, 10.6897, 11.1034, 11.5172, 11.931,
    12.3448, 12.7586, 13.1724, 13.5862, 14.0,
  ]
  /// Bland and Altman (2007), Table 1: (subject, RV, IC), cardiac output
  /// in L/min; differences RV minus IC.
  static let cardiac: [(Int, Double, Double)] = [
    (1, 7.83, 6.57), (1, 7.42, 5.62), (1, 7.89, 6.90), (1, 7.12, 6.57), (1, 7.88, 6.35), (2, 6.16, 4.06),
    (2, 7.26, 4.29), (2, 6.71, 4.26), (2, 6.54, 4.09), (3, 4.75, 4.71), (3, 5.24, 5.50), (3, 4.86, 5.08),
    (3, 4.78, 5.02), (3, 6.05, 6.01), (3, 5.42, 5.67), (4, 4.21, 4.14), (4, 3.61, 4.20), (4, 3.72, 4.61),
    (4, 3.87, 4.68), (4, 3.92, 5.04), (5, 3.13, 3.03), (5, 2.98, 2.86), (5, 2.85, 2.77), (5, 3.17, 2.46),
    (5, 3.09, 2.32), (5, 3.12, 2.43), (6, 5.92, 5.90), (6, 6.42, 5.81), (6, 5.92, 5.70), (6, 6.27, 5.76),
    (7, 7.13, 5.09), (7, 6.62, 4.63), (7, 6.58, 4.61), (7, 6.93, 5.09), (8, 4.54, 4.72), (8, 4.81, 4.61),
    (8, 5.11, 4.36), (8, 5.29, 4.20), (8, 5.39, 4.36), (8, 5.57, 4.20), (9, 4.48, 3.17), (9, 4.92, 3.12),
    (9, 3.97, 2.96), (10, 4.22, 4.35), (10, 4.65, 4.62), (10, 4.74, 3.16), (10, 4.44, 3.53), (10, 4.50, 3.53),
    (11, 6.78, 7.20), (11, 6.07, 6.09), (11, 6.52, 7.00), (11, 6.42, 7.10), (11, 6.41, 7.40),
    (11, 5.76, 6.80),
    (12, 5.06, 4.50), (12, 4.72, 4.20), (12, 4.90, 3.80), (12, 4.80, 3.80), (12, 4.90, 4.20),
    (12, 5.10, 4.50),
  ]

  /// `expected` to 1e-9 of its magnitude (1e-12 absolute near zero).
  func expectNear(
    _ actual: Double?, _ expected: Double, _ what: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    expectClose(
      actual, expected, tolerance: max(1e-12, 1e-9 * abs(expected)), what, sourceLocation: sourceLocation)
  }

  /// The non-central t against scipy.stats.nct.
  @Test func noncentralT() {
    expectNear(NoncentralT.cdf(3.0, degreesOfFreedom: 4, noncentrality: 4.3827), 0.13863659787439192, "cdf")
    expectNear(NoncentralT.cdf(10.0, degreesOfFreedom: 29, noncentrality: 10.735), 0.3061533562249009, "cdf")
    let delta30 = 1.96 * 30.0.squareRoot()
    expectNear(
      NoncentralT.quantile(0.025, degreesOfFreedom: 29, noncentrality: delta30), 7.944039674941311,
      "ppf 0.025")
    expectNear(
      NoncentralT.quantile(0.975, degreesOfFreedom: 29, noncentrality: delta30), 15.098719783783265,
      "ppf 0.975")
    let delta5 = 1.96 * 5.0.squareRoot()
    expectNear(
      NoncentralT.quantile(0.025, degreesOfFreedom: 4, noncentrality: delta5), 2.064317935930756, "ppf 0.025")
    expectNear(
      NoncentralT.quantile(0.975, degreesOfFreedom: 4, noncentrality: delta5), 13.360547606410417, "ppf 0.975"
    )
    // With no non-centrality it is Student's t.
    expectNear(
      NoncentralT.cdf(2.0, degreesOfFreedom: 7, noncentrality: 0), StudentT.cdf(2, degreesOfFreedom: 7), "t")
  }

  /// Five pairs: the exact intervals of the limits are much wider than the
  /// 1986 approximation's (-1.268 to 0.582 and 0.418 to 2.268).
  @Test func exactIntervalsOfFivePairs() throws {
    let c = try #require(ConstantLimits(zip(Self.d1a, Self.d1b).map { $0 - $1 }))
    expectNear(c.bias, 0.5, "bias")
    expectNear(c.standardDeviation, 0.4301162633521315, "sd")
    expectNear(c.lower, -0.3430278761701777, "lower")
    expectNear(c.upper, 1.3430278761701777, "upper")
    expectNear(c.biasInterval.lower, -0.03405987924627074, "bias interval")
    expectNear(c.biasInterval.upper, 1.0340598792462707, "bias interval")
    expectNear(c.lowerInterval.lower, -2.0699526448354826, "lower limit interval")
    expectNear(c.lowerInterval.upper, 0.10292051676975233, "lower limit interval")
    expectNear(c.upperInterval.lower, 0.8970794832302477, "upper limit interval")
    expectNear(c.upperInterval.upper, 3.0699526448354826, "upper limit interval")
    #expect(c.upperInterval.method == "95 % exact interval, non-central t (Carkeet 2015)")
    #expect(c.components == nil)
  }

  /// Bland and Altman's (Lancet 1986) peak-flow data, with 1.96 SD: the
  /// exact intervals (scripts/oracles/limits_forms.py).
  @Test func exactIntervalsOfPeakFlow() throws {
    let c = try #require(ConstantLimits(zip(wright, miniWright).map { $0 - $1 }))
    expectNear(c.lowerInterval.lower, -124.16282778447427, "lower limit interval")
    expectNear(c.lowerInterval.upper, -53.09606118755834, "lower limit interval")
    expectNear(c.upperInterval.lower, 48.86076706991128, "upper limit interval")
    expectNear(c.upperInterval.upper, 119.9275336668272, "upper limit interval")
  }

  /// D1: ICC(A,1), ICC(C,1), Lin's CCC, Deming's line and the two
  /// one-sided tests.
  @Test func indicesOfFivePairs() throws {
    let agreement = PairedAgreement(predicted: Self.d1a, reference: Self.d1b, zone: .percentOfReference(10))
    let i = try #require(agreement.indices)
    expectNear(i.iccAbsolute.value, 0.718329794762914, "ICC(A,1)")
    expectNear(i.iccAbsolute.interval.lower, -0.09599897609331734, "ICC(A,1) lower")
    expectNear(i.iccAbsolute.interval.upper, 0.9655699334634262, "ICC(A,1) upper")
    expectNear(i.iccConsistency.value, 0.845833333333331, "ICC(C,1)")
    expectNear(i.iccConsistency.interval.lower, 0.10976446643847983, "ICC(C,1) lower")
    expectNear(i.iccConsistency.interval.upper, 0.9827578443062855, "ICC(C,1) upper")
    let ccc = try #require(i.concordance)
    expectNear(ccc.value, 0.67107438016529, "CCC")
    expectNear(ccc.interval.lower, 0.12994722544176462, "CCC lower")
    expectNear(ccc.interval.upper, 0.9041866717497525, "CCC upper")
    let slope = try #require(i.demingSlope)
    let intercept = try #require(i.demingIntercept)
    expectNear(slope.value, 1.6792483667647131, "Deming slope")
    expectNear(intercept.value, -6.564183014353018, "Deming intercept")
    expectNear(slope.interval.lower, 0.7648672413589287, "Deming slope lower")
    expectNear(slope.interval.upper, 2.5936294921704977, "Deming slope upper")
    expectNear(intercept.interval.lower, -16.110452914236703, "Deming intercept lower")
    expectNear(intercept.interval.upper, 2.982086885530668, "Deming intercept upper")
    let e = try #require(i.equivalence)
    expectNear(e.margin, 1.04, "margin: 10 % of the mean reference 10.4")
    expectNear(e.pLower, 0.0006600388267929575, "p lower")
    expectNear(e.pUpper, 0.024224303622893236, "p upper")
    #expect(e.isEquivalent)
    expectNear(e.interval.lower, 0.08993108304367076, "90 % interval")
    expectNear(e.interval.upper, 0.9100689169563292, "90 % interval")
    // Against -/+0.5 units the bias of 0.5 cannot be shown equivalent.
    let narrow = try #require(
      PairedAgreement(predicted: Self.d1a, reference: Self.d1b, zone: .units(0.5)).indices?.equivalence)
    expectNear(narrow.pLower, 0.003260863359814269, "p lower")
    expectNear(narrow.pUpper, 0.5, "p upper")
    #expect(!narrow.isEquivalent)
  }

  /// D3: the differences do not trend but their spread grows (p 0.0012),
  /// so constant limits would hold everywhere but at the top (80 % of the
  /// upper third inside them); on the logarithms neither trends, and the
  /// ratio limits cover every third.
  @Test func growingSpreadGivesRatioLimits() throws {
    let l = try #require(LimitsOfAgreement(predicted: Self.d3a, reference: Self.d3b))
    #expect(l.form == .ratio)
    expectNear(l.differenceTrend.pValue, 0.9912797769259326, "trend p")
    expectNear(l.spreadTrend.slope, 0.08771687885511446, "spread slope")
    expectNear(l.spreadTrend.pValue, 0.0012248683873729387, "spread p")
    let r = try #require(l.ratio)
    expectNear(r.bias, 0.9953967292558703, "ratio bias")
    expectNear(r.limits.lower, 0.8207198684178041, "ratio lower")
    expectNear(r.limits.upper, 1.207250715793431, "ratio upper")
    expectNear(r.lowerInterval.lower, 0.7588119480019131, "ratio lower interval")
    expectNear(r.lowerInterval.upper, 0.8629473051822703, "ratio lower interval")
    expectNear(r.upperInterval.lower, 1.1481751465739918, "ratio upper interval")
    expectNear(r.upperInterval.upper, 1.3057446594275113, "ratio upper interval")
    #expect(l.coverage.map(\.share) == [1, 1, 1])
    #expect(l.coverage.map(\.count) == [10, 10, 10])
    let p = try #require(l.percentage)
    expectNear(p.lower, -19.7270179435515, "percentage lower")
    expectNear(p.upper, 18.810403194486693, "percentage upper")
    expectNear(p.lowerInterval.lower, -27.558731005514243, "percentage lower interval")
    expectNear(p.upperInterval.upper, 26.642116256449437, "percentage upper interval")
    // The constant limits, had they been chosen: the oracle's coverage of
    // 1.0, 1.0 and 0.8 by thirds.
    let c = l.constant
    let sorted = zip(Self.d3a, Self.d3b).sorted { $0.0 + $0.1 < $1.0 + $1.1 }
    let inside = sorted.map { $0.0 - $0.1 >= c.lower && $0.0 - $0.1 <= c.upper }
    #expect(
      [inside[0..<10], inside[10..<20], inside[20..<30]].map { $0.filter { $0 }.count } == [10, 10, 8])
    #expect(
      l.reason
        == "differences do not trend with the mean (slope 0.000505, p = 0.991), their spread grows with it (slope 0.0877, p = 0.001); as ratios (logarithms) neither does (slope 0.0373, p = 0.263; spread slope 0.00559, p = 0.765): ratio limits"
    )
  }

  /// Bland and Altman (2007), section 3: the published variance components
  /// and limits (residual mean square 0.170714026, subject mean square
  /// 4.2090856, divisor 4.9818182, total variance 0.98133606, bias
  /// 0.6021667, limits -1.3394565 and 2.5437899; printed by Stata in single
  /// precision, hence 1e-6).
  @Test func repeatedMeasuresOfCardiacOutput() throws {
    let c = try #require(
      ConstantLimits(Self.cardiac.map { $0.1 - $0.2 }, groups: Self.cardiac.map(\.0)))
    let v = try #require(c.components)
    #expect(v.participants == 12 && v.pairs == 60)
    expectClose(v.meanSquareWithin, 0.170714026, tolerance: 1e-6, "MS within")
    expectClose(v.meanSquareBetween, 4.2090856, tolerance: 1e-6, "MS between")
    expectClose(v.divisor, 4.9818182, tolerance: 1e-6, "divisor")
    expectClose(v.betweenVariance + v.withinVariance, 0.98133606, tolerance: 1e-6, "total variance")
    expectClose(c.bias, 0.6021667, tolerance: 1e-6, "bias")
    expectClose(c.lower, -1.3394565, tolerance: 1e-6, "lower limit")
    expectClose(c.upper, 2.5437899, tolerance: 1e-6, "upper limit")
    #expect(c.participants == 12)
    #expect(c.upperInterval.method == "95 % MOVER interval, repeated measures (Zou 2013)")
    // Pooled as if independent, the SD is smaller and the limits narrower.
    let pooled = try #require(ConstantLimits(Self.cardiac.map { $0.1 - $0.2 }))
    #expect(pooled.upper - pooled.lower < c.upper - c.lower)
  }

  /// The MOVER intervals (Zou 2013) on the balanced subset of the cardiac
  /// data (subjects 3, 5, 8, 11 and 12, six pairs each), where Zou's
  /// components equal the analysis of variance's: the oracle's
  /// `D2balanced.zou[t]` (t on m - 1 degrees of freedom for the mean).
  @Test func moverIntervalsOfBalancedRepeatedMeasures() throws {
    let kept = Self.cardiac.filter { [3, 5, 8, 11, 12].contains($0.0) }
    let c = try #require(ConstantLimits(kept.map { $0.1 - $0.2 }, groups: kept.map(\.0)))
    expectNear(c.bias, 0.223, "bias")
    expectNear(c.lower, -1.1035944997122016, "lower")
    expectNear(c.upper, 1.5495944997122018, "upper")
    expectNear(c.lowerInterval.lower, -3.2672873425267355, "lower limit interval")
    expectNear(c.lowerInterval.upper, -0.2841847233917304, "lower limit interval")
    expectNear(c.upperInterval.lower, 0.7301847233917306, "upper limit interval")
    expectNear(c.upperInterval.upper, 3.7132873425267356, "upper limit interval")
  }

  /// Participants given but each with one pair: independent pairs.
  @Test func onePairPerParticipantIsIndependent() throws {
    let l = try #require(
      LimitsOfAgreement(
        predicted: Self.d1a, reference: Self.d1b, participants: ["p1", "p2", "p3", "p4", "p5"]))
    #expect(l.nesting == .independent)
    #expect(l.participants == 5)
    let nested = try #require(
      LimitsOfAgreement(
        predicted: Self.cardiac.map(\.1), reference: Self.cardiac.map(\.2),
        participants: Self.cardiac.map { "s\($0.0)" }))
    #expect(nested.nesting == .repeatedMeasures)
    #expect(nested.participants == 12 && nested.count == 60)
  }

  /// The regression limits' bootstrap repeats with its seed and its
  /// intervals hold the limits they bracket.
  @Test func regressionIntervalsRepeatAndBracket() throws {
    let predicted = [
      12.0, 16.125, 22.375, 26.8125, 33.5, 36.625, 43.625, 47.5625, 55.0, 57.125,
      64.875, 68.3125, 76.5, 77.625, 86.125, 89.0625, 98.0, 98.125, 107.375,
    ]
    let reference = [
      8.0, 13.875, 17.625, 23.1875, 26.5, 33.375, 36.375, 42.4375, 45.0, 52.875,
      55.125, 61.6875, 63.5, 72.375, 73.875, 80.9375, 82.0, 91.875, 92.625,
    ]
    let l = try #require(LimitsOfAgreement(predicted: predicted, reference: reference))
    let again = try #require(LimitsOfAgreement(predicted: predicted, reference: reference))
    let r = try #require(l.regression)
    #expect(r.intervals.count == 3)
    #expect(r.intervals == again.regression?.intervals)
    for interval in r.intervals {
      let limits = r.limits(atMean: interval.mean)
      #expect(interval.lower.lower < limits.lower && limits.lower < interval.lower.upper)
      #expect(interval.upper.lower < limits.upper && limits.upper < interval.upper.upper)
    }
  }

  /// Percentage errors are unknown where a reference is at or near zero: a
  /// sign-mixed set, and one whose smallest reference is under 10 % of the
  /// mean reference.
  @Test func percentErrorsNearZeroAreUnknown() {
    var mixed = ErrorAccumulator()
    for (a, b) in [(1.0, -0.5), (2.0, 1.5), (3.0, 2.0)] { mixed.add(predicted: a, reference: b) }
    #expect(mixed.statistics().meanAbsolutePercentageError == nil)
    #expect(mixed.statistics().withinToleranceShare == nil)
    #expect(mixed.statistics().percentErrorUnknownReason?.contains("at or below zero") == true)
    var small = ErrorAccumulator()
    // Mean reference 7.34; 0.2 is under 10 % of it.
    for (a, b) in [(1.0, 0.2), (11.0, 10.8), (11.0, 11.02)] { small.add(predicted: a, reference: b) }
    #expect(small.statistics().meanAbsolutePercentageError == nil)
    #expect(
      small.statistics().percentErrorUnknownReason?.contains("under 10 % of the mean reference") == true)
    var fine = ErrorAccumulator()
    for (a, b) in [(11.0, 10.0), (9.0, 10.0)] { fine.add(predicted: a, reference: b) }
    expectClose(fine.statistics().meanAbsolutePercentageError, 10, tolerance: 1e-12)
  }
}
