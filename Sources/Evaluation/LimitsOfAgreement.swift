import EnergyLabCore
import Foundation

/// Bland-Altman limits of agreement between two methods, in the form the
/// data support: absolute, percentage of the mean, regression-based, or
/// none.
///
/// With a = predicted, b = reference, D = a - b (difference, units of the
/// inputs) and A = (a + b) / 2 (mean, same units), the form is chosen by
/// testing it, each test a two-sided Student t on the least-squares slope
/// (n - 2 degrees of freedom) at `Parameters.significanceLevel` (5 %):
///
/// 1. Regress D on A. No trend: **absolute** limits,
///    ```
///    mean(D) -/+ 1.96 SD(D)
///    ```
/// 2. A trend, and both values of every pair of one sign (then every
///    percentage lies within -/+200 %; pairs that cross or touch zero, the
///    source of limits such as -13,736 %, never qualify) with the smallest
///    |A| at least `Parameters.smallestMeanFraction` (default 0: no further
///    restriction) of the largest: regress
///    P = 100 D / A (percent of the mean) on A. No trend left: **percentage**
///    limits,
///    ```
///    mean(P) -/+ 1.96 SD(P)    (percent)
///    ```
/// 3. Otherwise (the trend remains in P, or percentages of these means are
///    meaningless): **regression**-based limits when there are at least
///    `Parameters.minimumRegressionPairs` (10) pairs and the fitted SD is
///    positive over the observed range of A. Regress D on A, then the
///    absolute residuals |R| = |D - D^| on A:
///    ```
///    D^   = b0 + b1 A
///    |R|^ = c0 + c1 A
///    limits(A) = D^ -/+ 1.96 sqrt(pi / 2) (c0 + c1 A)  ~  D^ -/+ 2.46 (c0 + c1 A)
///    ```
///    since for normal residuals E|R| = SD sqrt(2 / pi).
/// 4. Else **none**: no constant limits apply, and `reason` says why.
///
/// `reason` states the tests and their outcome in one sentence, for the
/// report. Limits are for the population the pairs came from, over the
/// observed range of means only. Caveat: a slope that is not significant
/// is taken as no trend, and with few pairs the tests have little power.
///
/// Bland JM, Altman DG (1999), "Measuring agreement in method comparison
/// studies", Statistical Methods in Medical Research 8:135-160: the
/// relationship between difference and magnitude, and the regression
/// approach for non-uniform differences (regress D on A, then |R| on A;
/// limits D^ -/+ 2.46 (c0 + c1 A)).
public struct LimitsOfAgreement: Sendable, Hashable {
  /// The form of the limits.
  public enum Form: String, Sendable, Hashable, CaseIterable {
    /// mean(D) -/+ 1.96 SD(D), in the units of the inputs.
    case absolute
    /// mean(P) -/+ 1.96 SD(P) with P = 100 D / A, in percent of the mean.
    case percentage
    /// D^(A) -/+ 2.46 (c0 + c1 A), in the units of the inputs, over the
    /// observed range of A.
    case regression
    /// No constant limits apply; `reason` says why.
    case none
  }

  /// The thresholds of the decision; recorded with the result.
  public struct Parameters: Sendable, Hashable {
    /// Level of the slope tests, in (0, 1); default 0.05.
    public var significanceLevel: Double
    /// Percentages of the mean are used only when every mean has the same
    /// sign and the smallest |A| is at least this fraction of the largest
    /// |A|, in (0, 1]; default 0.05 (a percentage at the smallest mean is at
    /// most 20 times as sensitive as one at the largest).
    public var smallestMeanFraction: Double
    /// Fewest pairs for regression-based limits, at least 3; default 10
    /// (two lines, four coefficients).
    public var minimumRegressionPairs: Int

    public init(
      significanceLevel: Double = 0.05, smallestMeanFraction: Double = 0, minimumRegressionPairs: Int = 10
    ) {
      self.significanceLevel = significanceLevel
      self.smallestMeanFraction = smallestMeanFraction
      self.minimumRegressionPairs = minimumRegressionPairs
    }
  }

  /// A least-squares line y = intercept + slope x and the t-test of
  /// slope = 0.
  ///
  /// ```
  /// slope = Sxy / Sxx,  SE = sqrt(RSS / (n - 2) / Sxx),  t = slope / SE
  /// p = 2 (1 - T_{n-2}(|t|))
  /// ```
  /// A line without residual scatter has an exact slope: p is 0, or 1 for
  /// a zero slope. Values of y that differ only by rounding (spread below
  /// 1e-12 of their magnitude) count as constant: slope 0, p 1.
  public struct Trend: Sendable, Hashable {
    public var count: Int
    /// Units of y per unit of x.
    public var slope: Double
    /// Units of y.
    public var intercept: Double
    public var slopeStandardError: Double
    /// Two-sided p-value of slope = 0.
    public var pValue: Double

    /// Whether the slope differs from zero at `level`.
    public func isSignificant(at level: Double) -> Bool { pValue < level }

    /// `nil` with fewer than three points or when every x is the same.
    init?(x: [Double], y: [Double]) {
      let n = min(x.count, y.count)
      guard n >= 3 else { return nil }
      let meanX = x.prefix(n).reduce(0, +) / Double(n)
      let meanY = y.prefix(n).reduce(0, +) / Double(n)
      var sxx = 0.0
      var sxy = 0.0
      var syy = 0.0
      var largestY = 0.0
      for i in 0..<n {
        sxx += (x[i] - meanX) * (x[i] - meanX)
        sxy += (x[i] - meanX) * (y[i] - meanY)
        syy += (y[i] - meanY) * (y[i] - meanY)
        largestY = max(largestY, abs(y[i]))
      }
      guard sxx > 0 else { return nil }
      count = n
      let roundingSpread = 1e-12 * largestY
      if syy <= Double(n) * roundingSpread * roundingSpread {
        slope = 0
        intercept = meanY
        slopeStandardError = 0
        pValue = 1
        return
      }
      slope = sxy / sxx
      intercept = meanY - slope * meanX
      var rss = 0.0
      for i in 0..<n {
        let r = y[i] - (intercept + slope * x[i])
        rss += r * r
      }
      // Scatter below rounding of the fitted values is no scatter.
      if rss <= 1e-24 * syy {
        slopeStandardError = 0
        pValue = slope == 0 ? 1 : 0
        return
      }
      let degrees = Double(n - 2)
      slopeStandardError = (rss / degrees / sxx).squareRoot()
      let t = abs(slope / slopeStandardError)
      pValue = 2 * (1 - StudentT.cdf(t, degreesOfFreedom: degrees))
    }
  }

  /// A lower and an upper limit of agreement for the difference D, in the
  /// units of the inputs (or percent, for `PercentageLimits`).
  public struct Limits: Sendable, Hashable {
    public var lower: Double
    public var upper: Double

    public init(lower: Double, upper: Double) {
      self.lower = lower
      self.upper = upper
    }
  }

  /// Limits for P = 100 D / A, in percent of the mean.
  /// ```
  /// bias = mean(P),  limits = bias -/+ 1.96 SD(P)   (SD with n - 1)
  /// ```
  public struct PercentageLimits: Sendable, Hashable {
    /// Percent of the mean.
    public var bias: Double
    /// Percent of the mean.
    public var standardDeviation: Double
    /// Percent of the mean.
    public var limits: Limits
  }

  /// Regression-based limits (Bland and Altman 1999, regression approach
  /// for non-uniform differences):
  /// ```
  /// D^(A)   = b0 + b1 A                      bias at mean A
  /// SD(A)   = sqrt(pi / 2) (c0 + c1 A)       from |R|^ = c0 + c1 A
  /// limits  = D^(A) -/+ 1.96 SD(A)
  /// ```
  /// b0, c0 in the units of the inputs; b1, c1 dimensionless. Fitted over
  /// `meanRange`, where c0 + c1 A > 0; outside it the lines extrapolate.
  public struct Regression: Sendable, Hashable {
    /// Intercept and slope of D on A.
    public var b0: Double
    public var b1: Double
    /// Intercept and slope of the absolute residuals |D - D^| on A.
    public var c0: Double
    public var c1: Double
    /// Smallest to largest observed mean A, units of the inputs.
    public var meanRange: ClosedRange<Double>

    /// 1.96 sqrt(pi / 2) = 2.4565: limits are D^ -/+ this times the fitted
    /// mean absolute residual.
    public static let limitsMultiplier = 1.96 * (Double.pi / 2).squareRoot()

    public init(b0: Double, b1: Double, c0: Double, c1: Double, meanRange: ClosedRange<Double>) {
      self.b0 = b0
      self.b1 = b1
      self.c0 = c0
      self.c1 = c1
      self.meanRange = meanRange
    }

    /// D^ = b0 + b1 A, units of the inputs.
    public func bias(atMean mean: Double) -> Double { b0 + b1 * mean }

    /// SD of D at mean A: sqrt(pi / 2) (c0 + c1 A), units of the inputs.
    public func standardDeviation(atMean mean: Double) -> Double {
      (Double.pi / 2).squareRoot() * (c0 + c1 * mean)
    }

    /// D^(A) -/+ 1.96 sqrt(pi / 2) (c0 + c1 A), units of the inputs.
    public func limits(atMean mean: Double) -> Limits {
      let halfWidth = Self.limitsMultiplier * (c0 + c1 * mean)
      return Limits(lower: bias(atMean: mean) - halfWidth, upper: bias(atMean: mean) + halfWidth)
    }
  }

  /// The chosen form.
  public var form: Form
  /// One sentence: the tests, their outcome and the form chosen.
  public var reason: String
  public var parameters: Parameters
  /// Pairs with both values finite.
  public var count: Int
  /// Smallest to largest mean A, units of the inputs.
  public var meanRange: ClosedRange<Double>
  /// mean(D), units of the inputs; reported whatever the form.
  public var bias: Double
  /// SD(D) with n - 1, units of the inputs.
  public var standardDeviation: Double
  /// mean(D) -/+ 1.96 SD(D): the limits when `form` is `.absolute`; for
  /// other forms only a summary that the data do not support.
  public var absoluteLimits: Limits
  /// D on A: the test of step 1.
  public var differenceTrend: Trend
  /// 100 D / A on A: the test of step 2; `nil` when it was not run (no
  /// trend in D, or means not all of one sign and away from zero).
  public var percentageTrend: Trend?
  /// Present when `form` is `.percentage`.
  public var percentage: PercentageLimits?
  /// Present when `form` is `.regression`.
  public var regression: Regression?

  /// The limits for D at mean A, units of the inputs: constant for
  /// `.absolute`, A x (percentage limits) / 100 for `.percentage`, the
  /// regression limits for `.regression`. `nil` for `.none` and for a mean
  /// outside `meanRange`, where nothing was observed.
  public func limits(atMean mean: Double) -> Limits? {
    guard meanRange.contains(mean) else { return nil }
    switch form {
    case .absolute:
      return absoluteLimits
    case .percentage:
      guard let percentage else { return nil }
      let a = mean * percentage.limits.lower / 100
      let b = mean * percentage.limits.upper / 100
      return Limits(lower: min(a, b), upper: max(a, b))
    case .regression:
      return regression?.limits(atMean: mean)
    case .none:
      return nil
    }
  }

  /// Chooses and computes the limits for `predicted` against `reference`
  /// (pairs with a non-finite value are left out). `nil` with fewer than
  /// three pairs or when every mean is the same: no trend can be tested.
  public init?(predicted: [Double], reference: [Double], parameters: Parameters = Parameters()) {
    precondition(parameters.significanceLevel > 0 && parameters.significanceLevel < 1)
    precondition(parameters.smallestMeanFraction >= 0 && parameters.smallestMeanFraction <= 1)
    precondition(parameters.minimumRegressionPairs >= 3)
    let pairs = zip(predicted, reference).filter { $0.0.isFinite && $0.1.isFinite }
    let means = pairs.map { ($0.0 + $0.1) / 2 }
    let differences = pairs.map { $0.0 - $0.1 }
    guard let trend = Trend(x: means, y: differences), let lowest = means.min(), let highest = means.max()
    else { return nil }
    self.parameters = parameters
    count = pairs.count
    meanRange = lowest...highest
    differenceTrend = trend
    let summary = Summary(differences)
    bias = summary.mean
    standardDeviation = summary.standardDeviation
    absoluteLimits = Limits(
      lower: summary.mean - 1.96 * summary.standardDeviation,
      upper: summary.mean + 1.96 * summary.standardDeviation)
    percentageTrend = nil
    percentage = nil
    regression = nil

    let alpha = parameters.significanceLevel
    let first = "differences \(Self.describe(trend))"
    guard trend.isSignificant(at: alpha) else {
      form = .absolute
      reason = "differences do not trend with the mean (\(Self.numbers(trend))): absolute limits"
      return
    }

    // Step 2: percentages only where every mean is of one sign and away
    // from zero.
    let smallest = means.map(abs).min() ?? 0
    let largest = means.map(abs).max() ?? 0
    let oneSign = pairs.allSatisfy { ($0.0 > 0 && $0.1 > 0) || ($0.0 < 0 && $0.1 < 0) }
    let second: String
    if oneSign && smallest >= parameters.smallestMeanFraction * largest {
      let percents = zip(differences, means).map { 100 * $0 / $1 }
      if let after = Trend(x: means, y: percents) {
        percentageTrend = after
        if !after.isSignificant(at: alpha) {
          let p = Summary(percents)
          percentage = PercentageLimits(
            bias: p.mean, standardDeviation: p.standardDeviation,
            limits: Limits(
              lower: p.mean - 1.96 * p.standardDeviation, upper: p.mean + 1.96 * p.standardDeviation))
          form = .percentage
          reason =
            "\(first); as a percentage of the mean they do not (\(Self.numbers(after))): percentage limits"
          return
        }
        second = "as a percentage of the mean they still do (\(Self.numbers(after)))"
      } else {
        second = "percentages of the mean cannot be tested"
      }
    } else if !oneSign {
      second =
        "means run from \(Self.short(lowest)) to \(Self.short(highest)) and some pairs cross or touch zero, so percentages of the mean are meaningless"
    } else {
      second =
        "the smallest mean (\(Self.short(smallest))) is under \(Self.short(100 * parameters.smallestMeanFraction)) % of the largest (\(Self.short(largest))), so percentages of the mean are not comparable"
    }

    // Step 3: regression-based limits.
    guard count >= parameters.minimumRegressionPairs else {
      form = .none
      reason =
        "\(first); \(second); \(count) pairs are too few for regression-based limits (at least \(parameters.minimumRegressionPairs)): no constant limits of agreement apply"
      return
    }
    let absoluteResiduals = zip(means, differences).map { abs($1 - (trend.intercept + trend.slope * $0)) }
    guard let spread = Trend(x: means, y: absoluteResiduals) else {
      form = .none
      reason =
        "\(first); \(second); the absolute residuals cannot be fitted: no constant limits of agreement apply"
      return
    }
    let fitted = Regression(
      b0: trend.intercept, b1: trend.slope, c0: spread.intercept, c1: spread.slope, meanRange: meanRange)
    let atLowest = fitted.standardDeviation(atMean: lowest)
    let atHighest = fitted.standardDeviation(atMean: highest)
    guard atLowest > 0 && atHighest > 0 else {
      let worstMean = atLowest <= atHighest ? lowest : highest
      form = .none
      reason =
        "\(first); \(second); the fitted SD of the differences, sqrt(pi/2) (c0 + c1 A), falls to \(Self.short(min(atLowest, atHighest))) at mean \(Self.short(worstMean)): no limits of agreement apply"
      return
    }
    regression = fitted
    form = .regression
    reason =
      "\(first); \(second): regression-based limits over means \(Self.short(lowest)) to \(Self.short(highest))"
  }

  /// Mean and SD (n - 1) of some values.
  private struct Summary {
    var mean: Double
    var standardDeviation: Double

    init(_ values: [Double]) {
      let n = Double(values.count)
      mean = values.reduce(0, +) / n
      let m = mean
      let squares = values.reduce(0) { $0 + ($1 - m) * ($1 - m) }
      standardDeviation = values.count > 1 ? (squares / (n - 1)).squareRoot() : .nan
    }
  }

  private static func describe(_ trend: Trend) -> String {
    "trend with the mean (\(numbers(trend)))"
  }

  private static func numbers(_ trend: Trend) -> String {
    "slope \(short(trend.slope)), p \(Fixed.pValue(trend.pValue))"
  }

  /// Three significant digits, POSIX, without trailing zeros (`0.0997`,
  /// `-0.22`, `120`).
  private static func short(_ value: Double) -> String {
    guard value.isFinite, value != 0 else { return Fixed.format(value, digits: 0) }
    let magnitude = Int(floor(log10(abs(value))))
    var text = Fixed.format(value, digits: min(8, max(0, 2 - magnitude)))
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }
}
