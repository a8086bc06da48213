import EnergyLabCore
import Foundation

/// A two-sided confidence interval and how it was computed.
public struct ConfidenceInterval: Sendable, Hashable {
  public var lower: Double
  public var upper: Double
  /// The method in a few words (`exact, non-central t (Carkeet 2015)`).
  public var method: String

  public init(_ lower: Double, _ upper: Double, method: String) {
    self.lower = lower
    self.upper = upper
    self.method = method
  }

  /// The interval with `transform` (increasing) applied to both ends.
  func mapped(_ transform: (Double) -> Double) -> ConfidenceInterval {
    ConfidenceInterval(transform(lower), transform(upper), method: method)
  }
}

/// Variance components of differences nested in participants: the
/// one-way analysis of variance of Bland and Altman (2007), for the case
/// where the true value varies within a participant.
///
/// With m participants, n_i pairs of participant i, N = sum n_i, d_ij the
/// differences and d_i their mean per participant:
/// ```
/// MSw = sum_i sum_j (d_ij - d_i)^2 / (N - m)           within
/// MSb = sum_i n_i (d_i - d)^2 / (m - 1)                 between
/// lambda = (N^2 - sum n_i^2) / ((m - 1) N)
/// s_w^2 = MSw,  s_b^2 = max(0, (MSb - MSw) / lambda)
/// SD of a difference = sqrt(s_b^2 + s_w^2)
/// ```
/// d is the mean of all N differences. Needs m >= 2 and N > m.
///
/// Bland JM, Altman DG (2007), "Agreement between methods of measurement
/// with multiple observations per individual", J Biopharm Stat
/// 17:571-582, section 5.
public struct VarianceComponents: Sendable, Hashable {
  public var participants: Int
  public var pairs: Int
  public var meanSquareBetween: Double
  public var meanSquareWithin: Double
  /// lambda above; equals the pairs per participant when every
  /// participant has the same number.
  public var divisor: Double
  /// s_b^2, squared units of the differences.
  public var betweenVariance: Double
  /// s_w^2, squared units of the differences.
  public var withinVariance: Double
  /// Mean of all differences.
  public var mean: Double
  /// sum n_i^2, for the variance of the mean.
  public var sumOfSquaredCounts: Double

  /// Variance of the mean of all differences:
  /// s_b^2 sum n_i^2 / N^2 + s_w^2 / N (the variance of the participants'
  /// means over m when every participant gives as many pairs).
  public var varianceOfMean: Double {
    let n = Double(pairs)
    return betweenVariance * sumOfSquaredCounts / (n * n) + withinVariance / n
  }

  /// sqrt(s_b^2 + s_w^2).
  public var totalStandardDeviation: Double { (betweenVariance + withinVariance).squareRoot() }

  /// `nil` with fewer than two participants or no participant with more
  /// than one pair.
  public init?(values: [Double], groups: [Int]) {
    var sums: [Int: (n: Int, sum: Double)] = [:]
    for (value, group) in zip(values, groups) {
      sums[group, default: (0, 0)].n += 1
      sums[group, default: (0, 0)].sum += value
    }
    let m = sums.count
    let n = values.count
    guard m >= 2, n > m else { return nil }
    let mean = values.reduce(0, +) / Double(n)
    var within = 0.0
    for (value, group) in zip(values, groups) {
      guard let g = sums[group] else { continue }
      let d = value - g.sum / Double(g.n)
      within += d * d
    }
    var between = 0.0
    var squaredCounts = 0.0
    // In the groups' order, so the sums (and the last digits) repeat.
    for key in sums.keys.sorted() {
      guard let g = sums[key] else { continue }
      let groupMean = g.sum / Double(g.n)
      between += Double(g.n) * (groupMean - mean) * (groupMean - mean)
      squaredCounts += Double(g.n * g.n)
    }
    participants = m
    pairs = n
    meanSquareWithin = within / Double(n - m)
    meanSquareBetween = between / Double(m - 1)
    divisor = (Double(n * n) - squaredCounts) / (Double(m - 1) * Double(n))
    withinVariance = meanSquareWithin
    betweenVariance = max(0, (meanSquareBetween - meanSquareWithin) / divisor)
    self.mean = mean
    sumOfSquaredCounts = squaredCounts
  }
}

/// Limits of agreement of constant width, bias -/+ z SD, with confidence
/// intervals for the bias and for each limit.
///
/// Independent pairs (n of them, mean d, SD s with n - 1):
/// ```
/// bias interval   d -/+ t_{1-a/2, n-1} s / sqrt n
/// upper limit     [d + s k_lo, d + s k_hi],  lower limit [d - s k_hi, d - s k_lo]
/// k_lo, k_hi      quantiles a/2 and 1 - a/2 of the non-central t with n - 1
///                 degrees of freedom and non-centrality z sqrt n, over sqrt n
/// ```
/// the exact intervals of Carkeet (2015, Optom Vis Sci 92:e71-e80). Above
/// `exactLimit` pairs the non-central t is replaced by its normal
/// approximation, d + z s -/+ z_{1-a/2} s sqrt(1/n + z^2 / (2 (n - 1))),
/// and the method says so.
///
/// Repeated measures (`VarianceComponents`): the SD is sqrt(s_b^2 + s_w^2)
/// and the intervals are the MOVER intervals of Zou (2013, Stat Methods
/// Med Res 22:630-642) over those components: the bias interval with the t
/// distribution on m - 1 degrees of freedom and the variance of the mean
/// (`VarianceComponents.varianceOfMean`); the
/// interval of s_b^2 + s_w^2 = MSb / lambda + (1 - 1 / lambda) MSw by
/// combining the chi-squared intervals of MSb (m - 1 degrees of freedom)
/// and MSw (N - m); each limit's interval by combining the two:
/// ```
/// L = d + z s - sqrt((d - l_d)^2 + z^2 (s - l_s)^2)
/// U = d + z s + sqrt((u_d - d)^2 + z^2 (u_s - s)^2)
/// ```
public struct ConstantLimits: Sendable, Hashable {
  public var count: Int
  /// Participants behind the pairs; equal to `count` for independent pairs.
  public var participants: Int
  /// Units of the values (or of their logarithms, for ratio limits).
  public var bias: Double
  public var standardDeviation: Double
  public var lower: Double
  public var upper: Double
  public var biasInterval: ConfidenceInterval
  /// Standard error of the bias and the degrees of freedom of its t
  /// distribution (n - 1; repeated measures: m - 1 over the participants'
  /// means).
  public var biasStandardError: Double
  public var biasDegreesOfFreedom: Double
  public var lowerInterval: ConfidenceInterval
  public var upperInterval: ConfidenceInterval
  /// Present for repeated measures.
  public var components: VarianceComponents?

  /// Above this many independent pairs the exact interval's non-central t
  /// is replaced by its normal approximation (the two agree to better than
  /// 1e-3 of the SD there).
  public static let exactLimit = 20_000

  /// `nil` with fewer than two values (or, for repeated measures, no
  /// variance components).
  public init?(
    _ values: [Double], groups: [Int]? = nil, multiplier z: Double = 1.96, confidenceLevel: Double = 0.95
  ) {
    let n = values.count
    guard n >= 2 else { return nil }
    let alpha = 1 - confidenceLevel
    let level = Fixed.shortest(100 * confidenceLevel)
    count = n
    if let groups, let c = VarianceComponents(values: values, groups: groups) {
      components = c
      participants = c.participants
      let m = Double(c.participants)
      bias = c.mean
      standardDeviation = c.totalStandardDeviation
      // Bias: t on m - 1 degrees of freedom.
      let t = StudentT.quantile(1 - alpha / 2, degreesOfFreedom: m - 1)
      biasStandardError = c.varianceOfMean.squareRoot()
      biasDegreesOfFreedom = m - 1
      let half = t * biasStandardError
      biasInterval = ConfidenceInterval(
        bias - half, bias + half,
        method: "\(level) % t interval, \(c.participants - 1) degrees of freedom (participants)")
      // s_d^2 = MSb / lambda + (1 - 1 / lambda) MSw, by MOVER from the
      // chi-squared intervals of MSb and MSw.
      let dfB = m - 1
      let dfW = Double(c.pairs - c.participants)
      let a1 = c.meanSquareBetween / c.divisor
      let a2 = (1 - 1 / c.divisor) * c.meanSquareWithin
      let variance = c.betweenVariance + c.withinVariance
      let lowB = a1 * dfB / ChiSquared.quantile(1 - alpha / 2, degreesOfFreedom: dfB)
      let highB = a1 * dfB / ChiSquared.quantile(alpha / 2, degreesOfFreedom: dfB)
      let lowW = a2 * dfW / ChiSquared.quantile(1 - alpha / 2, degreesOfFreedom: dfW)
      let highW = a2 * dfW / ChiSquared.quantile(alpha / 2, degreesOfFreedom: dfW)
      let varianceLow = max(
        0, variance - ((a1 - lowB) * (a1 - lowB) + (a2 - lowW) * (a2 - lowW)).squareRoot())
      let varianceHigh = variance + ((highB - a1) * (highB - a1) + (highW - a2) * (highW - a2)).squareRoot()
      let s = standardDeviation
      let sLow = varianceLow.squareRoot()
      let sHigh = varianceHigh.squareRoot()
      let method = "\(level) % MOVER interval, repeated measures (Zou 2013)"
      let u = bias + z * s
      let l = bias - z * s
      let dLow = bias - biasInterval.lower
      let dHigh = biasInterval.upper - bias
      upperInterval = ConfidenceInterval(
        u - (dLow * dLow + z * z * (s - sLow) * (s - sLow)).squareRoot(),
        u + (dHigh * dHigh + z * z * (sHigh - s) * (sHigh - s)).squareRoot(), method: method)
      lowerInterval = ConfidenceInterval(
        l - (dLow * dLow + z * z * (sHigh - s) * (sHigh - s)).squareRoot(),
        l + (dHigh * dHigh + z * z * (s - sLow) * (s - sLow)).squareRoot(), method: method)
      lower = l
      upper = u
      return
    }
    components = nil
    participants = n
    let mean = values.reduce(0, +) / Double(n)
    let s = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)).squareRoot()
    bias = mean
    standardDeviation = s
    lower = mean - z * s
    upper = mean + z * s
    let root = Double(n).squareRoot()
    let t = StudentT.quantile(1 - alpha / 2, degreesOfFreedom: Double(n - 1))
    biasStandardError = s / root
    biasDegreesOfFreedom = Double(n - 1)
    biasInterval = ConfidenceInterval(
      mean - t * s / root, mean + t * s / root, method: "\(level) % t interval, \(n - 1) degrees of freedom")
    let kLow: Double
    let kHigh: Double
    let method: String
    if n <= Self.exactLimit {
      let delta = z * root
      kLow = NoncentralT.quantile(alpha / 2, degreesOfFreedom: Double(n - 1), noncentrality: delta) / root
      kHigh =
        NoncentralT.quantile(1 - alpha / 2, degreesOfFreedom: Double(n - 1), noncentrality: delta) / root
      method = "\(level) % exact interval, non-central t (Carkeet 2015)"
    } else {
      let half =
        StandardNormal.quantile(1 - alpha / 2) * (1 / Double(n) + z * z / (2 * Double(n - 1))).squareRoot()
      kLow = z - half
      kHigh = z + half
      method = "\(level) % normal approximation of the exact interval (over \(Self.exactLimit) pairs)"
    }
    upperInterval = ConfidenceInterval(mean + s * kLow, mean + s * kHigh, method: method)
    lowerInterval = ConfidenceInterval(mean - s * kHigh, mean - s * kLow, method: method)
  }
}
