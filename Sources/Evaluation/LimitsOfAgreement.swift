import EnergyLabCore
import Foundation

/// Bland-Altman limits of agreement between two methods, in the form the
/// data support (absolute, ratio, regression-based or none), for
/// independent pairs or pairs nested in participants, with confidence
/// intervals and the coverage of the limits across the range.
///
/// With a = predicted, b = reference, D = a - b (difference, units of the
/// inputs) and A = (a + b) / 2 (mean, same units), the form follows two
/// tests (Bland and Altman 1999, sections 3 and 4), each a two-sided
/// Student t on a least-squares slope (n - 2 degrees of freedom) at
/// `Parameters.significanceLevel` (5 %):
/// - trend: D regressed on A;
/// - spread: the absolute residuals |R| = |D - (b0 + b1 A)| regressed on A.
///
/// 1. Neither: **absolute** limits, bias -/+ 1.96 SD (`ConstantLimits`).
/// 2. Otherwise, when every a and b is above zero, the same two tests on
///    the logarithms (L = ln a - ln b on (ln a + ln b) / 2). Neither there:
///    **ratio** limits, exp(mean(L) -/+ 1.96 SD(L)), the ratio a / b that
///    95 % of pairs lie within (Bland and Altman 1999, section 4.2).
/// 3. Otherwise, with at least `Parameters.minimumRegressionPairs` (10)
///    pairs and a fitted SD above zero over the observed means:
///    **regression**-based limits,
///    ```
///    D^   = b0 + b1 A
///    |R|^ = c0 + c1 A
///    limits(A) = D^ -/+ 1.96 sqrt(pi / 2) (c0 + c1 A)  ~  D^ -/+ 2.46 (c0 + c1 A)
///    ```
///    since for normal residuals E|R| = SD sqrt(2 / pi) (section 3.3).
/// 4. Else **none**: no limits apply, and `reason` says why.
///
/// Pairs that carry participants, some of whom give more than one pair,
/// are **repeated measures**: the constant limits use the between- and
/// within-participant variance (Bland and Altman 2007) with MOVER
/// intervals (Zou 2013), the regression limits' intervals resample
/// participants. The slope tests pool the pairs. `coverage` gives the share
/// of pairs inside the chosen limits in the lower, middle and upper third
/// of the means, so a reader sees whether the limits hold across the range.
/// Percentage limits, 100 D / A, are reported beside the chosen form where
/// every value is above zero, with their own intervals.
///
/// Limits are for the population the pairs came from, over the observed
/// range of means only. Caveat: a slope that is not significant is taken
/// as no trend, and with few pairs the tests have little power.
///
/// Bland JM, Altman DG (1999), "Measuring agreement in method comparison
/// studies", Statistical Methods in Medical Research 8:135-160.
public struct LimitsOfAgreement: Sendable, Hashable {
  /// The form of the limits.
  public enum Form: String, Sendable, Hashable, CaseIterable {
    /// bias -/+ 1.96 SD, in the units of the inputs.
    case absolute
    /// exp(mean(ln a - ln b) -/+ 1.96 SD): limits of the ratio a / b.
    case ratio
    /// D^(A) -/+ 2.46 (c0 + c1 A), in the units of the inputs, over the
    /// observed range of A.
    case regression
    /// No limits apply; `reason` says why.
    case none
  }

  /// How the pairs are nested.
  public enum Nesting: String, Sendable, Hashable {
    /// Each pair from another participant (or no participants given).
    case independent
    /// Several pairs per participant (Bland and Altman 2007).
    case repeatedMeasures = "repeated measures"
  }

  /// The thresholds of the decision and of the intervals; recorded with
  /// the result.
  public struct Parameters: Sendable, Hashable {
    /// Level of the slope tests, in (0, 1); default 0.05.
    public var significanceLevel: Double
    /// Fewest pairs for regression-based limits, at least 3; default 10
    /// (two lines, four coefficients).
    public var minimumRegressionPairs: Int
    /// Level of the confidence intervals, in (0, 1); default 0.95.
    public var confidenceLevel: Double
    /// Bootstrap resamples for the intervals of regression-based limits;
    /// default 2000.
    public var bootstrapResamples: Int
    /// Seed of the bootstrap's generator (SplitMix64), so a run repeats;
    /// default 20130401.
    public var bootstrapSeed: UInt64

    public init(
      significanceLevel: Double = 0.05, minimumRegressionPairs: Int = 10, confidenceLevel: Double = 0.95,
      bootstrapResamples: Int = 2000, bootstrapSeed: UInt64 = 20_130_401
    ) {
      self.significanceLevel = significanceLevel
      self.minimumRegressionPairs = minimumRegressionPairs
      self.confidenceLevel = confidenceLevel
      self.bootstrapResamples = bootstrapResamples
      self.bootstrapSeed = bootstrapSeed
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
  /// units of the inputs (or the ratio a / b, for ratio limits).
  public struct Limits: Sendable, Hashable {
    public var lower: Double
    public var upper: Double

    public init(lower: Double, upper: Double) {
      self.lower = lower
      self.upper = upper
    }
  }

  /// Limits of the ratio a / b: the constant limits of L = ln a - ln b,
  /// back-transformed.
  /// ```
  /// ratio bias = exp(mean L),  limits = exp(mean L -/+ 1.96 SD(L))
  /// ```
  /// Intervals are those of the logarithms, back-transformed.
  public struct RatioLimits: Sendable, Hashable {
    /// The limits of ln a - ln b (natural logarithms).
    public var logarithms: ConstantLimits
    /// ln a - ln b on (ln a + ln b) / 2.
    public var trend: Trend
    /// |residual| of that line on (ln a + ln b) / 2.
    public var spread: Trend

    /// exp(mean L): the typical a / b.
    public var bias: Double { exp(logarithms.bias) }
    public var limits: Limits { Limits(lower: exp(logarithms.lower), upper: exp(logarithms.upper)) }
    public var biasInterval: ConfidenceInterval { logarithms.biasInterval.mapped(exp) }
    public var lowerInterval: ConfidenceInterval { logarithms.lowerInterval.mapped(exp) }
    public var upperInterval: ConfidenceInterval { logarithms.upperInterval.mapped(exp) }
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
    /// Percentile bootstrap intervals of the limits at `intervalMeans`.
    public var intervals: [RegressionInterval]

    /// 1.96 sqrt(pi / 2) = 2.4565: limits are D^ -/+ this times the fitted
    /// mean absolute residual.
    public static let limitsMultiplier = 1.96 * (Double.pi / 2).squareRoot()

    public init(
      b0: Double, b1: Double, c0: Double, c1: Double, meanRange: ClosedRange<Double>,
      intervals: [RegressionInterval] = []
    ) {
      self.b0 = b0
      self.b1 = b1
      self.c0 = c0
      self.c1 = c1
      self.meanRange = meanRange
      self.intervals = intervals
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

  /// The intervals of regression-based limits at one mean.
  public struct RegressionInterval: Sendable, Hashable {
    /// The mean A, units of the inputs.
    public var mean: Double
    public var lower: ConfidenceInterval
    public var upper: ConfidenceInterval
  }

  /// The share of pairs inside the chosen limits in one third of the
  /// range of means.
  public struct Coverage: Sendable, Hashable {
    /// `lower`, `middle` or `upper`.
    public var third: String
    /// Smallest to largest mean in this third.
    public var meanRange: ClosedRange<Double>
    public var count: Int
    public var inside: Int
    public var share: Double { count > 0 ? Double(inside) / Double(count) : .nan }
  }

  /// The chosen form.
  public var form: Form
  public var nesting: Nesting
  /// One sentence: the tests, their outcome and the form chosen.
  public var reason: String
  public var parameters: Parameters
  /// Pairs with both values finite.
  public var count: Int
  /// Participants behind the pairs (`count` for independent pairs).
  public var participants: Int
  /// Smallest to largest mean A, units of the inputs.
  public var meanRange: ClosedRange<Double>
  /// bias -/+ 1.96 SD of D (repeated measures: the total SD): the limits
  /// when `form` is `.absolute`; for other forms a summary that the data
  /// do not support.
  public var constant: ConstantLimits
  /// D on A: the trend test.
  public var differenceTrend: Trend
  /// |D - D^| on A: the spread test.
  public var spreadTrend: Trend
  /// Present whenever every value is above zero.
  public var ratio: RatioLimits?
  /// Constant limits of P = 100 D / A, percent of the mean; present
  /// whenever every value is above zero.
  public var percentage: ConstantLimits?
  /// Present when `form` is `.regression`.
  public var regression: Regression?
  /// Shares of pairs inside the chosen limits, by third of the means;
  /// empty for `.none`.
  public var coverage: [Coverage]

  /// mean(D), units of the inputs; reported whatever the form.
  public var bias: Double { constant.bias }
  /// SD(D), units of the inputs (repeated measures: sqrt(s_b^2 + s_w^2)).
  public var standardDeviation: Double { constant.standardDeviation }
  public var absoluteLimits: Limits { Limits(lower: constant.lower, upper: constant.upper) }

  /// The limits for D at mean A, units of the inputs: constant for
  /// `.absolute`; for `.ratio` those of a - b where (a + b) / 2 = A and
  /// a / b is at the ratio limits, 2 A (r - 1) / (r + 1); the regression
  /// limits for `.regression`. `nil` for `.none` and for a mean outside
  /// `meanRange`, where nothing was observed.
  public func limits(atMean mean: Double) -> Limits? {
    guard meanRange.contains(mean) else { return nil }
    switch form {
    case .absolute:
      return absoluteLimits
    case .ratio:
      guard let ratio else { return nil }
      func difference(_ r: Double) -> Double { 2 * mean * (r - 1) / (r + 1) }
      return Limits(lower: difference(ratio.limits.lower), upper: difference(ratio.limits.upper))
    case .regression:
      return regression?.limits(atMean: mean)
    case .none:
      return nil
    }
  }

  /// Chooses and computes the limits for `predicted` against `reference`
  /// (pairs with a non-finite value are left out), with the participant of
  /// each pair when known. `nil` with fewer than three pairs or when every
  /// mean is the same: no trend can be tested.
  public init?(
    predicted: [Double], reference: [Double], participants: [String]? = nil,
    parameters: Parameters = Parameters()
  ) {
    precondition(parameters.significanceLevel > 0 && parameters.significanceLevel < 1)
    precondition(parameters.confidenceLevel > 0 && parameters.confidenceLevel < 1)
    precondition(parameters.minimumRegressionPairs >= 3)
    var a: [Double] = []
    var b: [Double] = []
    var who: [String] = []
    for i in 0..<min(predicted.count, reference.count) where predicted[i].isFinite && reference[i].isFinite {
      a.append(predicted[i])
      b.append(reference[i])
      if let participants, i < participants.count { who.append(participants[i]) }
    }
    let means = zip(a, b).map { ($0 + $1) / 2 }
    let differences = zip(a, b).map { $0 - $1 }
    guard let trend = Trend(x: means, y: differences), let lowest = means.min(), let highest = means.max()
    else { return nil }
    // Participants as small integers; repeated measures when some
    // participant gives more than one pair.
    var groups: [Int]?
    if who.count == a.count, !who.isEmpty {
      let ids = PairedAgreement.groupNumbers(who)
      let distinct = Set(ids).count
      if distinct >= 2 && distinct < ids.count { groups = ids }
    }
    let level = parameters.confidenceLevel
    guard let constant = ConstantLimits(differences, groups: groups, confidenceLevel: level) else {
      return nil
    }
    self.parameters = parameters
    self.constant = constant
    count = a.count
    self.participants = constant.participants
    nesting = constant.components == nil ? .independent : .repeatedMeasures
    meanRange = lowest...highest
    differenceTrend = trend
    let residuals = zip(means, differences).map { abs($1 - (trend.intercept + trend.slope * $0)) }
    spreadTrend = Trend(x: means, y: residuals) ?? trend
    ratio = nil
    percentage = nil
    regression = nil
    coverage = []

    let positive = a.allSatisfy { $0 > 0 } && b.allSatisfy { $0 > 0 }
    if positive {
      let logs = zip(a, b).map { log($0) - log($1) }
      let logMeans = zip(a, b).map { (log($0) + log($1)) / 2 }
      if let logTrend = Trend(x: logMeans, y: logs),
        let logConstant = ConstantLimits(logs, groups: groups, confidenceLevel: level)
      {
        let logResiduals = zip(logMeans, logs).map { abs($1 - (logTrend.intercept + logTrend.slope * $0)) }
        ratio = RatioLimits(
          logarithms: logConstant, trend: logTrend, spread: Trend(x: logMeans, y: logResiduals) ?? logTrend)
      }
      let percents = zip(differences, means).map { 100 * $0 / $1 }
      percentage = ConstantLimits(percents, groups: groups, confidenceLevel: level)
    }

    // One method constant over the pairs (a model that predicts one value
    // for a group of identical conditions): the differences trend with the
    // mean by construction (slope -2 or 2), so the tests say nothing.
    func isConstant(_ v: [Double]) -> Bool {
      guard let lo = v.min(), let hi = v.max() else { return false }
      return hi - lo <= 1e-9 * max(1, abs(hi), abs(lo))
    }
    let constantMethod = isConstant(a) ? "the predictions are" : isConstant(b) ? "the reference is" : nil
    let decision =
      constantMethod.map { which in
        (
          form: Form.absolute,
          reason:
            "\(which) one value for every pair, so the differences trend with the mean by construction (slope \(Self.short(trend.slope))) and the tests say nothing: absolute limits",
          regression: Regression?.none
        )
      }
      ?? Self.decide(
        trend: trend, spread: spreadTrend, ratio: ratio, count: count, meanRange: meanRange,
        parameters: parameters)
    form = decision.form
    reason = decision.reason
    if var fitted = decision.regression {
      fitted.intervals = Self.bootstrap(
        means: means, differences: differences, groups: groups,
        at: [lowest, (lowest + highest) / 2, highest],
        parameters: parameters)
      regression = fitted
    }
    coverage = Self.coverage(
      of: self, means: means, differences: differences, ratios: zip(a, b).map { $0 / $1 })
  }

  /// The form the two tests choose, the sentence that says why, and the
  /// fitted lines of regression-based limits.
  private static func decide(
    trend: Trend, spread: Trend, ratio: RatioLimits?, count: Int, meanRange: ClosedRange<Double>,
    parameters: Parameters
  ) -> (form: Form, reason: String, regression: Regression?) {
    let alpha = parameters.significanceLevel
    let trends = trend.isSignificant(at: alpha)
    let spreads = spread.isSignificant(at: alpha)
    let change = !spreads ? "does not change" : spread.slope < 0 ? "shrinks" : "grows"
    let tests =
      "differences \(trends ? "trend" : "do not trend") with the mean (\(numbers(trend))), their spread \(change) with it (\(numbers(spread)))"
    guard trends || spreads else { return (.absolute, "\(tests): absolute limits", nil) }
    let second: String
    if let ratio {
      let logTrends = ratio.trend.isSignificant(at: alpha)
      let logSpreads = ratio.spread.isSignificant(at: alpha)
      if !logTrends && !logSpreads {
        return (
          .ratio,
          "\(tests); as ratios (logarithms) neither does (\(numbers(ratio.trend)); spread \(numbers(ratio.spread))): ratio limits",
          nil
        )
      }
      second =
        "as ratios (logarithms) the \(logTrends ? "differences still trend" : "spread still changes") (\(numbers(logTrends ? ratio.trend : ratio.spread)))"
    } else {
      second = "some values are at or below zero, so ratios cannot be taken"
    }
    guard count >= parameters.minimumRegressionPairs else {
      return (
        .none,
        "\(tests); \(second); \(count) pairs are too few for regression-based limits (at least \(parameters.minimumRegressionPairs)): no limits of agreement apply",
        nil
      )
    }
    let fitted = Regression(
      b0: trend.intercept, b1: trend.slope, c0: spread.intercept, c1: spread.slope, meanRange: meanRange)
    let atLowest = fitted.standardDeviation(atMean: meanRange.lowerBound)
    let atHighest = fitted.standardDeviation(atMean: meanRange.upperBound)
    guard atLowest > 0 && atHighest > 0 else {
      let worstMean = atLowest <= atHighest ? meanRange.lowerBound : meanRange.upperBound
      return (
        .none,
        "\(tests); \(second); the fitted SD of the differences, sqrt(pi/2) (c0 + c1 A), falls to \(short(min(atLowest, atHighest))) at mean \(short(worstMean)): no limits of agreement apply",
        nil
      )
    }
    return (
      .regression,
      "\(tests); \(second): regression-based limits over means \(short(meanRange.lowerBound)) to \(short(meanRange.upperBound))",
      fitted
    )
  }

  /// The share of pairs inside the chosen limits, by thirds of the pairs
  /// sorted by mean (the first third holds the smallest means).
  private static func coverage(
    of limits: LimitsOfAgreement, means: [Double], differences: [Double], ratios: [Double]
  ) -> [Coverage] {
    guard limits.form != .none else { return [] }
    let order = means.indices.sorted { means[$0] < means[$1] }
    let n = order.count
    let cuts = [0, n / 3, (2 * n) / 3, n]
    var out: [Coverage] = []
    for (k, name) in ["lower", "middle", "upper"].enumerated() {
      let slice = order[cuts[k]..<cuts[k + 1]]
      guard let first = slice.first, let last = slice.last else { continue }
      var inside = 0
      for i in slice {
        let within: Bool
        if limits.form == .ratio, let r = limits.ratio?.limits {
          within = ratios[i] >= r.lower && ratios[i] <= r.upper
        } else if let l = limits.limits(atMean: means[i]) {
          within = differences[i] >= l.lower && differences[i] <= l.upper
        } else {
          within = false
        }
        if within { inside += 1 }
      }
      out.append(
        Coverage(third: name, meanRange: means[first]...means[last], count: slice.count, inside: inside))
    }
    return out
  }

  /// Percentile bootstrap intervals of regression-based limits at some
  /// means: resample pairs (participants, for repeated measures) with
  /// SplitMix64 from the parameters' seed, refit both lines, take the
  /// (1 - level) / 2 and (1 + level) / 2 quantiles of each limit.
  private static func bootstrap(
    means: [Double], differences: [Double], groups: [Int]?, at points: [Double], parameters: Parameters
  ) -> [RegressionInterval] {
    var generator = SplitMix64(seed: parameters.bootstrapSeed)
    let clusters: [[Int]]
    if let groups {
      var byGroup: [Int: [Int]] = [:]
      for (i, g) in groups.enumerated() { byGroup[g, default: []].append(i) }
      clusters = byGroup.keys.sorted().compactMap { byGroup[$0] }
    } else {
      clusters = means.indices.map { [$0] }
    }
    var lowers = [[Double]](repeating: [], count: points.count)
    var uppers = [[Double]](repeating: [], count: points.count)
    for _ in 0..<parameters.bootstrapResamples {
      var x: [Double] = []
      var y: [Double] = []
      for _ in clusters.indices {
        for i in clusters[Int(generator.next() % UInt64(clusters.count))] {
          x.append(means[i])
          y.append(differences[i])
        }
      }
      guard let t = Trend(x: x, y: y) else { continue }
      let r = zip(x, y).map { abs($1 - (t.intercept + t.slope * $0)) }
      guard let s = Trend(x: x, y: r) else { continue }
      let fit = Regression(b0: t.intercept, b1: t.slope, c0: s.intercept, c1: s.slope, meanRange: 0...0)
      for (k, point) in points.enumerated() {
        let l = fit.limits(atMean: point)
        lowers[k].append(l.lower)
        uppers[k].append(l.upper)
      }
    }
    let level = parameters.confidenceLevel
    let method =
      "\(Fixed.shortest(100 * level)) % percentile bootstrap, \(parameters.bootstrapResamples) resamples of \(groups == nil ? "pairs" : "participants"), seed \(parameters.bootstrapSeed)"
    return points.indices.compactMap { k in
      guard lowers[k].count >= 2 else { return nil }
      let l = lowers[k].sorted()
      let u = uppers[k].sorted()
      return RegressionInterval(
        mean: points[k],
        lower: ConfidenceInterval(
          Quantile.of(l, (1 - level) / 2), Quantile.of(l, (1 + level) / 2), method: method),
        upper: ConfidenceInterval(
          Quantile.of(u, (1 - level) / 2), Quantile.of(u, (1 + level) / 2), method: method))
    }
  }

  private static func numbers(_ trend: Trend) -> String {
    "slope \(short(trend.slope)), p \(Fixed.pValue(trend.pValue))"
  }

  /// Three significant digits, POSIX, without trailing zeros (`0.0997`,
  /// `-0.22`, `120`).
  static func short(_ value: Double) -> String {
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

/// The SplitMix64 generator (Steele, Lea and Flood 2014): a fixed seed
/// gives the same bootstrap on every machine.
struct SplitMix64 {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Quantiles of sorted values.
enum Quantile {
  /// Linear interpolation between order statistics (Hyndman and Fan's
  /// definition 7, numpy's default) at probability p of `sorted`.
  static func of(_ sorted: [Double], _ p: Double) -> Double {
    guard let first = sorted.first else { return .nan }
    let h = Double(sorted.count - 1) * p
    let i = Int(h.rounded(.down))
    guard i + 1 < sorted.count else { return sorted.last ?? first }
    return sorted[i] + (h - Double(i)) * (sorted[i + 1] - sorted[i])
  }
}
