import EnergyLabCore
import Foundation

/// Streaming, mergeable error statistics of paired values: a prediction
/// (a) against a reference (b), differences taken as a minus b.
///
/// It keeps counts, means and co-moments (Chan, Golub and LeVeque's
/// pairwise update), so files, chunks and shards reduce the same way:
/// `add` for one pair, `merge` for a whole accumulator, in any order.
public struct ErrorAccumulator: Sendable, Hashable {
  public private(set) var count = 0
  private var meanA = 0.0
  private var meanB = 0.0
  private var m2A = 0.0
  private var m2B = 0.0
  private var coMomentAB = 0.0
  private var sumAbsoluteDifference = 0.0
  private var sumAbsoluteRelative = 0.0
  private var relativeCount = 0
  private var maximumAbsoluteDifference = 0.0
  private var withinToleranceCount = 0
  /// Relative tolerance counted by `withinToleranceShare`: 0.20, the PEM
  /// thesis requirement of estimates within 20 % of current standards (L515).
  public let relativeTolerance: Double

  public init(relativeTolerance: Double = 0.20) {
    self.relativeTolerance = relativeTolerance
  }

  public mutating func add(predicted a: Double, reference b: Double) {
    var single = ErrorAccumulator(relativeTolerance: relativeTolerance)
    single.count = 1
    single.meanA = a
    single.meanB = b
    let difference = abs(a - b)
    single.sumAbsoluteDifference = difference
    single.maximumAbsoluteDifference = difference
    if b != 0 {
      single.sumAbsoluteRelative = difference / abs(b)
      single.relativeCount = 1
      if difference / abs(b) <= relativeTolerance + 1e-12 { single.withinToleranceCount = 1 }
    }
    merge(single)
  }

  public mutating func merge(_ other: ErrorAccumulator) {
    guard other.count > 0 else { return }
    guard count > 0 else {
      self = other
      return
    }
    let n1 = Double(count)
    let n2 = Double(other.count)
    let n = n1 + n2
    let deltaA = other.meanA - meanA
    let deltaB = other.meanB - meanB
    m2A += other.m2A + deltaA * deltaA * n1 * n2 / n
    m2B += other.m2B + deltaB * deltaB * n1 * n2 / n
    coMomentAB += other.coMomentAB + deltaA * deltaB * n1 * n2 / n
    meanA += deltaA * n2 / n
    meanB += deltaB * n2 / n
    count += other.count
    sumAbsoluteDifference += other.sumAbsoluteDifference
    sumAbsoluteRelative += other.sumAbsoluteRelative
    relativeCount += other.relativeCount
    maximumAbsoluteDifference = max(maximumAbsoluteDifference, other.maximumAbsoluteDifference)
    withinToleranceCount += other.withinToleranceCount
  }

  /// The statistics of everything added so far; `limitsMultiplier` is the
  /// number of SDs of the Bland-Altman limits (1.96 for 95 %; Bland and
  /// Altman's 1986 paper rounded it to 2).
  public func statistics(limitsMultiplier: Double = 1.96) -> ErrorStatistics {
    let n = Double(count)
    let bias = meanA - meanB
    let m2Difference = max(0, m2A + m2B - 2 * coMomentAB)
    let sd = count > 1 ? sqrt(m2Difference / (n - 1)) : .nan
    let lower = bias - limitsMultiplier * sd
    let upper = bias + limitsMultiplier * sd
    // Bland and Altman (1986): SE of a limit ~ sqrt(3 s^2 / n), with t on
    // n - 1 degrees of freedom.
    let limitStandardError = sqrt(3 * sd * sd / n)
    let t = count > 1 ? StudentT.quantile(0.975, degreesOfFreedom: n - 1) : .nan
    let pearson = m2A > 0 && m2B > 0 ? coMomentAB / sqrt(m2A * m2B) : .nan
    // Lin (1989): 2 s_ab / (s_a^2 + s_b^2 + (mean_a - mean_b)^2), moments over n.
    let ccc = count > 0 ? 2 * (coMomentAB / n) / (m2A / n + m2B / n + bias * bias) : .nan
    return ErrorStatistics(
      count: count, meanPredicted: meanA, meanReference: meanB, bias: bias, sdDifference: sd,
      meanAbsoluteError: sumAbsoluteDifference / n, rootMeanSquareError: sqrt(bias * bias + m2Difference / n),
      meanAbsolutePercentageError: relativeCount > 0
        ? 100 * sumAbsoluteRelative / Double(relativeCount) : .nan,
      maximumAbsoluteError: maximumAbsoluteDifference, pearsonR: pearson, concordanceCorrelation: ccc,
      limitsOfAgreementLower: lower, limitsOfAgreementUpper: upper,
      lowerLimitConfidenceInterval: ClosedInterval(
        lower - t * limitStandardError, lower + t * limitStandardError),
      upperLimitConfidenceInterval: ClosedInterval(
        upper - t * limitStandardError, upper + t * limitStandardError),
      withinToleranceShare: relativeCount > 0 ? Double(withinToleranceCount) / Double(relativeCount) : .nan,
      relativeTolerance: relativeTolerance, limitsMultiplier: limitsMultiplier)
  }
}

/// A closed interval of real numbers.
public struct ClosedInterval: Sendable, Hashable {
  public var lower: Double
  public var upper: Double
  public init(_ lower: Double, _ upper: Double) {
    self.lower = lower
    self.upper = upper
  }
}

/// Error statistics of predictions against a reference (differences are
/// predicted minus reference; units are those of the values).
public struct ErrorStatistics: Sendable, Hashable {
  public var count: Int
  public var meanPredicted: Double
  public var meanReference: Double
  /// Mean difference.
  public var bias: Double
  /// Sample standard deviation of the differences.
  public var sdDifference: Double
  public var meanAbsoluteError: Double
  public var rootMeanSquareError: Double
  /// Mean of |difference| / |reference| x 100 over cells with a non-zero
  /// reference.
  public var meanAbsolutePercentageError: Double
  public var maximumAbsoluteError: Double
  public var pearsonR: Double
  /// Lin's concordance correlation coefficient.
  public var concordanceCorrelation: Double
  public var limitsOfAgreementLower: Double
  public var limitsOfAgreementUpper: Double
  public var lowerLimitConfidenceInterval: ClosedInterval
  public var upperLimitConfidenceInterval: ClosedInterval
  /// Share of pairs whose relative difference is within `relativeTolerance`.
  public var withinToleranceShare: Double
  public var relativeTolerance: Double
  public var limitsMultiplier: Double
}
