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
  private var minimumReference = Double.infinity
  /// Relative tolerance counted by `withinToleranceShare`: 0.20, the PEM
  /// thesis requirement of estimates within 20 % of current standards (L515).
  public let relativeTolerance: Double
  /// Percentage errors (MAPE, the share within the tolerance) are
  /// computed only when every reference value is above zero and at least
  /// this fraction of the mean reference; default 0.1. Near zero a
  /// percentage error grows without bound and says nothing of the model.
  public let percentErrorFloor: Double

  public init(relativeTolerance: Double = 0.20, percentErrorFloor: Double = 0.1) {
    self.relativeTolerance = relativeTolerance
    self.percentErrorFloor = percentErrorFloor
  }

  public mutating func add(predicted a: Double, reference b: Double) {
    var single = ErrorAccumulator(relativeTolerance: relativeTolerance, percentErrorFloor: percentErrorFloor)
    single.count = 1
    single.minimumReference = b
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
    minimumReference = min(minimumReference, other.minimumReference)
  }

  /// The statistics of everything added so far; `limitsMultiplier` is the
  /// number of SDs of the Bland-Altman limits (1.96 for 95 %; Bland and
  /// Altman's 1986 paper rounded it to 2). The limits here treat every
  /// pair as independent and have no interval: `LimitsOfAgreement` gives
  /// the form, the nesting and the intervals.
  public func statistics(limitsMultiplier: Double = 1.96) -> ErrorStatistics {
    let n = Double(count)
    let bias = meanA - meanB
    let m2Difference = max(0, m2A + m2B - 2 * coMomentAB)
    let sd = count > 1 ? sqrt(m2Difference / (n - 1)) : .nan
    let pearson = m2A > 0 && m2B > 0 ? coMomentAB / sqrt(m2A * m2B) : .nan
    // Lin (1989): 2 s_ab / (s_a^2 + s_b^2 + (mean_a - mean_b)^2), moments over n.
    let ccc = count > 0 ? 2 * (coMomentAB / n) / (m2A / n + m2B / n + bias * bias) : .nan
    var unknown: String?
    if count == 0 {
      unknown = "no pairs"
    } else if minimumReference <= 0 {
      unknown =
        "a reference value is at or below zero (smallest \(Fixed.shortest(minimumReference))), where a percentage error has no meaning"
    } else if minimumReference < percentErrorFloor * meanB {
      unknown =
        "the smallest reference value (\(Fixed.shortest(minimumReference))) is under \(Fixed.shortest(100 * percentErrorFloor)) % of the mean reference (\(Fixed.shortest(meanB))), where percentage errors grow without bound"
    }
    return ErrorStatistics(
      count: count, meanPredicted: meanA, meanReference: meanB, bias: bias, sdDifference: sd,
      meanAbsoluteError: sumAbsoluteDifference / n, rootMeanSquareError: sqrt(bias * bias + m2Difference / n),
      meanAbsolutePercentageError: unknown == nil && relativeCount > 0
        ? 100 * sumAbsoluteRelative / Double(relativeCount) : nil,
      percentErrorUnknownReason: unknown,
      maximumAbsoluteError: maximumAbsoluteDifference, pearsonR: pearson, concordanceCorrelation: ccc,
      limitsOfAgreementLower: bias - limitsMultiplier * sd,
      limitsOfAgreementUpper: bias + limitsMultiplier * sd,
      withinToleranceShare: unknown == nil && relativeCount > 0
        ? Double(withinToleranceCount) / Double(relativeCount) : nil,
      relativeTolerance: relativeTolerance, limitsMultiplier: limitsMultiplier)
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
  /// Mean of |difference| / reference x 100; `nil` (unknown) where a
  /// reference value is at or near zero (`percentErrorUnknownReason`).
  public var meanAbsolutePercentageError: Double?
  /// Why the percentage errors are unknown; `nil` when they are known.
  public var percentErrorUnknownReason: String?
  public var maximumAbsoluteError: Double
  public var pearsonR: Double
  /// Lin's concordance correlation coefficient.
  public var concordanceCorrelation: Double
  /// bias -/+ `limitsMultiplier` SD, every pair taken as independent.
  public var limitsOfAgreementLower: Double
  public var limitsOfAgreementUpper: Double
  /// Share of pairs whose relative difference is within `relativeTolerance`;
  /// unknown where the MAPE is.
  public var withinToleranceShare: Double?
  public var relativeTolerance: Double
  public var limitsMultiplier: Double
}
