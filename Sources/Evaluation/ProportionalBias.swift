import EnergyLabCore
import Foundation

/// Whether the difference between two methods grows with their mean, and
/// the differences as a percentage of the mean.
///
/// Bland JM, Altman DG (1999), "Measuring agreement in method comparison
/// studies", Statistical Methods in Medical Research 8:135-160: regress the
/// differences on the means; a slope different from zero is proportional
/// bias. The percentage differences, 100 (a - b) / ((a + b) / 2), give bias
/// and limits in percent (mean -/+ 1.96 SD), but they are the right limits
/// only when they no longer trend with the mean and the means are away from
/// zero: `limitsOfAgreement` tests that and chooses the form (absolute,
/// percentage, regression-based or none). The `percent...` members are
/// computed whatever the form.
public struct ProportionalBias: Sendable {
  public var count: Int
  /// Least-squares line of difference on mean: difference = intercept +
  /// slope x mean.
  public var slope: Double
  public var intercept: Double
  public var slopeStandardError: Double
  /// Two-sided p-value of slope = 0 (Student t with n - 2 degrees of freedom).
  public var pValue: Double
  /// Percentage differences: mean and limits (mean -/+ 1.96 SD).
  public var percentBias: Double
  public var percentLimitsLower: Double
  public var percentLimitsUpper: Double
  /// (mean, percentage difference) per pair, for the chart.
  public var percentPoints: [(mean: Double, percent: Double)]

  /// The limits of agreement in the form the data support.
  public var limitsOfAgreement: LimitsOfAgreement

  /// Proportional bias at the 5 % level: the slope of difference on mean
  /// differs from zero. Whether percentage limits then apply is
  /// `limitsOfAgreement.form`, not this.
  public var isProportional: Bool { pValue < 0.05 }

  /// `nil` with fewer than three pairs or when every mean is the same.
  public init?(predicted: [Double], reference: [Double]) {
    let pairs = zip(predicted, reference).filter { $0.0.isFinite && $0.1.isFinite }
    let n = pairs.count
    guard n >= 3 else { return nil }
    let means = pairs.map { ($0.0 + $0.1) / 2 }
    let differences = pairs.map { $0.0 - $0.1 }
    let meanX = means.reduce(0, +) / Double(n)
    let meanY = differences.reduce(0, +) / Double(n)
    var sxx = 0.0
    var sxy = 0.0
    for (x, y) in zip(means, differences) {
      sxx += (x - meanX) * (x - meanX)
      sxy += (x - meanX) * (y - meanY)
    }
    guard sxx > 0, let limits = LimitsOfAgreement(predicted: predicted, reference: reference) else {
      return nil
    }
    limitsOfAgreement = limits
    slope = sxy / sxx
    intercept = meanY - slope * meanX
    var residuals = 0.0
    for (x, y) in zip(means, differences) {
      let r = y - (intercept + slope * x)
      residuals += r * r
    }
    let degrees = Double(n - 2)
    slopeStandardError = degrees > 0 ? (residuals / degrees / sxx).squareRoot() : .nan
    if slopeStandardError > 0 {
      let t = abs(slope / slopeStandardError)
      pValue = 2 * (1 - StudentT.cdf(t, degreesOfFreedom: degrees))
    } else {
      // A perfect line: no residual scatter, the slope is exact.
      pValue = slope == 0 ? 1 : 0
    }
    count = n
    percentPoints = zip(means, differences).compactMap { m, d in
      m != 0 ? (mean: m, percent: 100 * d / m) : nil
    }
    let percents = percentPoints.map(\.percent)
    let k = Double(percents.count)
    let bias = percents.reduce(0, +) / k
    let sd = k > 1 ? (percents.reduce(0) { $0 + ($1 - bias) * ($1 - bias) } / (k - 1)).squareRoot() : .nan
    percentBias = bias
    percentLimitsLower = bias - 1.96 * sd
    percentLimitsUpper = bias + 1.96 * sd
  }
}
