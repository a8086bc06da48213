import EnergyLabCore
import Foundation

/// Why a breath is left out of the measured energy.
public enum BreathExclusion: String, Sendable, Hashable, CaseIterable {
  /// Physiologically impossible: VO2 or energy at or below zero, VO2 far
  /// below any resting uptake while ventilation is high, or a rate above
  /// any human's.
  case impossible
  /// Beyond the stated number of SDs of the local mean of its neighbours
  /// (Lamarra et al. 1987).
  case outlier
}

/// Cleans a breath-by-breath measured reference before it is integrated:
/// physiologically impossible breaths, local outliers and long gaps become
/// unknown time, each counted by reason.
///
/// 1. Impossible: VO2 <= 0 mL/min, or energy <= 0 kcal/min; VO2 under
///    `lowUptakeMillilitersPerMinute` (100 mL/min, under the resting uptake
///    of anyone above 29 kg at 3.5 mL/kg/min) while ventilation is above
///    `highVentilationLitersPerMinute` (10 L/min, about twice resting): the
///    analyser lost the gas sample, not the person their metabolism; VO2
///    above `highestUptakeMillilitersPerMinute` (7,500 mL/min, beyond the
///    highest recorded) or energy above `highestKilocaloriesPerMinute`
///    (40 kcal/min).
/// 2. Outliers (Lamarra, Whipp, Ward and Wasserman 1987, J Appl Physiol
///    62:2003-2012, whose breath noise is Gaussian with an SD independent of
///    the metabolic rate): a breath whose VO2 (energy when there is no VO2)
///    lies more than `outlierStandardDeviations` (4) SDs from the mean of
///    its `outlierNeighbours` (4: two each side) kept neighbours, the breath
///    itself left out of that mean; the SD is the median of the SDs of every
///    window of five kept breaths, one value for the file, as local SDs
///    swing widely. A spike pulls its neighbours' means too, so a pass
///    flags only the most deviant breath among candidates within two
///    breaths of each other; passes repeat until none is flagged (at most
///    `outlierPasses`, 10). The first and last two breaths are not tested.
/// 3. Gaps: an interval longer than `gapLimitSeconds` (20 s, several
///    breaths even at rest) between two kept breaths is unknown.
///
/// An excluded breath leaves the intervals on either side of it unknown:
/// the measured energy is integrated over the known intervals only, never
/// interpolated across a left-out breath or gap, never counted as zero.
/// Averaging: none before integration; the trapezoid over breath times is a
/// time-weighted mean.
public struct BreathFilter: Sendable, Hashable {
  public var lowUptakeMillilitersPerMinute = 100.0
  public var highVentilationLitersPerMinute = 10.0
  /// `HumanLimits`' upper limits of a sample's uptake and energy rate.
  public var highestUptakeMillilitersPerMinute = HumanLimits.Quantity.oxygenUptake.range.upperBound
  public var highestKilocaloriesPerMinute = HumanLimits.Quantity.energyRate.range.upperBound
  public var outlierStandardDeviations = 4.0
  public var outlierNeighbours = 4
  public var outlierPasses = 10
  public var gapLimitSeconds = 20.0

  public init() {}

  /// The codes of the filter's diagnostics: a command that reads an export
  /// as a track (and so has its reader's diagnostics already) adds these.
  public static let diagnosticCodes: Set<String> = [
    "breaths-impossible", "breaths-outlying", "measured-gaps",
  ]

  /// What the filter left out, by reason.
  public struct Report: Sendable, Hashable {
    public var impossible = 0
    public var outliers = 0
    /// Intervals longer than the gap limit, and their seconds in all.
    public var gaps = 0
    public var gapSeconds = 0.0
    public var breaths = 0
  }

  /// The settings as recorded with a run.
  public var described: [NamedParameter] {
    [
      NamedParameter(
        name: "breath_filter", value: "lamarra-1987",
        meaning:
          "breaths impossible (VO2 or energy <= 0; VO2 < \(Fixed.shortest(lowUptakeMillilitersPerMinute)) mL/min with VE > \(Fixed.shortest(highVentilationLitersPerMinute)) L/min; VO2 > \(Fixed.shortest(highestUptakeMillilitersPerMinute)) mL/min or energy > \(Fixed.shortest(highestKilocaloriesPerMinute)) kcal/min), or beyond \(Fixed.shortest(outlierStandardDeviations)) SD of the mean of \(outlierNeighbours) neighbours, are unknown time"
      ),
      NamedParameter(
        name: "measured_gap_limit_s", value: Fixed.shortest(gapLimitSeconds),
        meaning: "longer intervals between kept breaths are unknown time"),
      NamedParameter(
        name: "measured_averaging", value: "time",
        meaning: "no breath averaging; the trapezoid over breath times, a time-weighted mean"),
    ]
  }

  /// `measured` with its breaths marked and its gap limit set, the counts
  /// by reason, and a diagnostic for each reason that occurred.
  public func apply(to measured: MeasuredExpenditure) -> (MeasuredExpenditure, Report, [Diagnostic]) {
    var out = measured
    var report = Report()
    report.breaths = out.samples.count
    for i in out.samples.indices where isImpossible(out.samples[i]) {
      out.samples[i].exclusion = .impossible
      report.impossible += 1
    }
    report.outliers = markOutliers(&out.samples)
    out.gapLimitSeconds = gapLimitSeconds
    var previous: Double?
    for sample in out.samples where sample.exclusion == nil && sample.energyKilocaloriesPerMinute != nil {
      if let previous, sample.timeSeconds - previous > gapLimitSeconds {
        report.gaps += 1
        report.gapSeconds += sample.timeSeconds - previous
      }
      previous = sample.timeSeconds
    }
    var diagnostics: [Diagnostic] = []
    let source = measured.source
    if report.impossible > 0 {
      diagnostics.append(
        Diagnostic(
          code: "breaths-impossible",
          message:
            "\(report.impossible) of \(report.breaths) breath(s) are physiologically impossible (VO2 or energy at or below zero, VO2 under \(Fixed.shortest(lowUptakeMillilitersPerMinute)) mL/min while VE is over \(Fixed.shortest(highVentilationLitersPerMinute)) L/min, or a rate above any human's): their time is unknown, left out of the measured energy",
          location: source))
    }
    if report.outliers > 0 {
      diagnostics.append(
        Diagnostic(
          code: "breaths-outlying",
          message:
            "\(report.outliers) of \(report.breaths) breath(s) lie beyond \(Fixed.shortest(outlierStandardDeviations)) SD of the mean of their \(outlierNeighbours) neighbours (Lamarra et al. 1987): their time is unknown, left out of the measured energy",
          location: source))
    }
    if report.gaps > 0 {
      diagnostics.append(
        Diagnostic(
          code: "measured-gaps",
          message:
            "\(report.gaps) gap(s) longer than \(Fixed.shortest(gapLimitSeconds)) s between kept breaths, \(Fixed.format(report.gapSeconds, digits: 0)) s in all: unknown time, left out of the measured energy",
          location: source))
    }
    return (out, report, diagnostics)
  }

  func isImpossible(_ s: MeasuredSample) -> Bool {
    if let vo2 = s.vo2MillilitersPerMinute {
      if vo2 <= 0 || vo2 > highestUptakeMillilitersPerMinute { return true }
      if vo2 < lowUptakeMillilitersPerMinute, let ve = s.ventilationLitersPerMinute,
        ve > highVentilationLitersPerMinute
      {
        return true
      }
    }
    if let energy = s.energyKilocaloriesPerMinute, energy <= 0 || energy > highestKilocaloriesPerMinute {
      return true
    }
    return false
  }

  /// Marks local outliers among the kept breaths; returns how many.
  func markOutliers(_ samples: inout [MeasuredSample]) -> Int {
    func value(_ s: MeasuredSample) -> Double? { s.vo2MillilitersPerMinute ?? s.energyKilocaloriesPerMinute }
    let side = outlierNeighbours / 2
    let window = outlierNeighbours + 1
    var marked = 0
    for _ in 0..<outlierPasses {
      let kept = samples.indices.filter { samples[$0].exclusion == nil && value(samples[$0]) != nil }
      let values = kept.compactMap { value(samples[$0]) }
      guard values.count >= window + 1 else { break }
      // One SD for the file: the median of the SDs of every window.
      var deviations: [Double] = []
      for start in 0...(values.count - window) {
        let slice = values[start..<(start + window)]
        let mean = slice.reduce(0, +) / Double(window)
        deviations.append(
          (slice.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(window - 1)).squareRoot())
      }
      deviations.sort()
      let middle = deviations.count / 2
      let sd =
        deviations.count % 2 == 1 ? deviations[middle] : (deviations[middle - 1] + deviations[middle]) / 2
      guard sd > 0 else { break }
      var deviation = [Double](repeating: 0, count: values.count)
      for k in side..<(values.count - side) {
        var sum = 0.0
        for j in (k - side)...(k + side) where j != k { sum += values[j] }
        deviation[k] = abs(values[k] - sum / Double(outlierNeighbours))
      }
      // A spike also pulls its neighbours' means away from them: in each
      // pass only the breath that deviates most among the candidates
      // within reach of each other is flagged; the next pass, without it,
      // judges its neighbours again.
      let limit = outlierStandardDeviations * sd
      var flagged: [Int] = []
      for k in side..<(values.count - side) where deviation[k] > limit {
        let reach = max(0, k - side)...min(values.count - 1, k + side)
        if reach.allSatisfy({
          $0 == k || deviation[$0] < deviation[k] || (deviation[$0] == deviation[k] && $0 > k)
        }) {
          flagged.append(kept[k])
        }
      }
      if flagged.isEmpty { break }
      for i in flagged { samples[i].exclusion = .outlier }
      marked += flagged.count
    }
    return marked
  }
}
