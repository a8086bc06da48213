import EnergyLabCore

/// Everything said of the agreement of predictions with a reference: the
/// error statistics, the limits of agreement in the form the pairs support
/// (with their nesting and intervals) and the indices beyond them.
public struct PairedAgreement: Sendable, Hashable {
  public var statistics: ErrorStatistics
  /// `nil` with fewer than three pairs or a single mean.
  public var limits: LimitsOfAgreement?
  /// `nil` with fewer than three pairs.
  public var indices: AgreementIndices?

  /// `participants` names the participant of each pair (repeated measures
  /// when some give several); `zone` asks for an equivalence test.
  public init(
    predicted: [Double], reference: [Double], participants: [String]? = nil,
    zone: AgreementIndices.Zone? = nil, statistics: ErrorStatistics? = nil,
    parameters: LimitsOfAgreement.Parameters = LimitsOfAgreement.Parameters()
  ) {
    var a: [Double] = []
    var b: [Double] = []
    var who: [String] = []
    for i in 0..<min(predicted.count, reference.count) where predicted[i].isFinite && reference[i].isFinite {
      a.append(predicted[i])
      b.append(reference[i])
      if let participants, i < participants.count { who.append(participants[i]) }
    }
    let ids = who.count == a.count && !who.isEmpty ? who : nil
    if let statistics {
      self.statistics = statistics
    } else {
      var accumulator = ErrorAccumulator()
      for (x, y) in zip(a, b) { accumulator.add(predicted: x, reference: y) }
      self.statistics = accumulator.statistics()
    }
    let limits = LimitsOfAgreement(predicted: a, reference: b, participants: ids, parameters: parameters)
    self.limits = limits
    let groups: [Int]? =
      limits?.nesting == .repeatedMeasures ? ids.map { Self.groupNumbers($0) } : nil
    indices = AgreementIndices(
      predicted: a, reference: b, groups: groups, bias: limits?.constant, zone: zone,
      confidenceLevel: parameters.confidenceLevel)
  }

  /// Each distinct name as a small integer, in order of appearance.
  static func groupNumbers(_ names: [String]) -> [Int] {
    var index: [String: Int] = [:]
    return names.map { name in
      if let known = index[name] { return known }
      index[name] = index.count
      return index.count - 1
    }
  }
}
