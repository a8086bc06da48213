import EnergyLabCore
import EnergyModels
import Foundation
import Signals

/// A registered accelerometer energy equation as it is applied to a
/// recording: the quantity it takes, the epoch it was derived on, and the
/// device and wear location of the recordings it was fitted to.
///
/// | equation | quantity | epoch | device | site |
/// |---|---|---|---|---|
/// | hildebrand-2014-* | ENMO (mg) | 60 s | the line's | the line's |
/// | ellingson-2017-wrist | ENMO (mg) | 60 s | ActiGraph | wrist |
/// | freedson-1998 | vertical counts/min | 60 s | ActiGraph | waist |
/// | sasaki-2011-vm3, santos-lozano-2013-* | VM counts/min | 60 s | ActiGraph | waist |
/// | crouter-2015-wrist-va / -vm | counts per 5 s | 5 s | ActiGraph | wrist |
/// | crouter-2010-refined | vertical counts per 10 s and their CV | 10 s | ActiGraph | waist |
///
/// Crouter et al. 2010's CV is computed here, over each run of
/// consecutive worn 10 s epochs: for each epoch, the lowest SD / mean x
/// 100 (SD with n - 1) of the windows of six consecutive epochs of the run
/// that hold it (fewer than six windows near a run's ends; none in a run
/// shorter than six epochs, where an epoch above 8 counts is unknown).
///
/// Hildebrand's and Ellingson's lines were fitted to each activity's mean
/// ENMO; EnergyLab applies them to minute means (a linear line gives the
/// same energy on any epoch; Ellingson's power law does not, and the
/// minute is the shortest epoch its activities' means stand for). The
/// vertical counts of raw acceleration are those of the device's y axis,
/// ActiGraph's axis 1 (the vertical axis of a device worn upright at the
/// hip).
package struct AccelEquation: Sendable {
  package enum Quantity: String, Sendable {
    case enmo = "ENMO (mg)"
    case verticalCounts = "vertical-axis counts"
    case vectorMagnitudeCounts = "vector-magnitude counts"
  }

  package var id: String
  package var quantity: Quantity
  package var epochSeconds: Double
  /// "actigraph" or "geneactiv".
  package var device: String
  package var site: WearLocation
  package var model: any EnergyModel
  /// Whether the model takes the CV of the counts of six consecutive
  /// epochs (Crouter et al. 2010).
  package var takesVariation = false

  /// The registered equations, in the registry's order.
  package static var all: [AccelEquation] {
    var out: [AccelEquation] = Hildebrand2014.all.map {
      AccelEquation(
        id: $0.info.id, quantity: .enmo, epochSeconds: 60, device: $0.device,
        site: $0.site == .hip ? .waist : .wrist, model: $0)
    }
    out.append(
      AccelEquation(
        id: Ellingson2017().info.id, quantity: .enmo, epochSeconds: 60, device: "actigraph", site: .wrist,
        model: Ellingson2017()))
    for e in CountsMET.Equation.allCases {
      out.append(
        AccelEquation(
          id: e.rawValue, quantity: e == .freedson1998 ? .verticalCounts : .vectorMagnitudeCounts,
          epochSeconds: 60, device: "actigraph", site: .waist, model: CountsMET(e)))
    }
    for axis in Crouter2015.Axis.allCases {
      let model = Crouter2015(axis)
      out.append(
        AccelEquation(
          id: model.info.id, quantity: axis == .vertical ? .verticalCounts : .vectorMagnitudeCounts,
          epochSeconds: 5, device: "actigraph", site: .wrist, model: model))
    }
    var refined = AccelEquation(
      id: Crouter2010Refined().info.id, quantity: .verticalCounts, epochSeconds: 10, device: "actigraph",
      site: .waist, model: Crouter2010Refined())
    refined.takesVariation = true
    out.append(refined)
    return out
  }

  /// For each value, the lowest coefficient of variation (SD with n - 1
  /// over the mean, x 100, %; 0 where the mean is 0) of the windows of
  /// `width` consecutive values that hold it; nil where none fits.
  package static func lowestVariation(_ values: [Double], width: Int = 6) -> [Double?] {
    let n = values.count
    guard n >= width, width >= 2 else { return [Double?](repeating: nil, count: n) }
    var windowCV = [Double](repeating: 0, count: n - width + 1)
    for s in 0...(n - width) {
      let w = values[s..<(s + width)]
      let mean = w.reduce(0, +) / Double(width)
      let variance = w.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(width - 1)
      windowCV[s] = mean > 0 ? variance.squareRoot() / mean * 100 : 0
    }
    return (0..<n).map { i in
      let first = max(0, i - width + 1)
      let last = min(i, n - width)
      return (first...last).map { windowCV[$0] }.min()
    }
  }

  /// The equation of `id`; an unknown one names those known.
  package static func named(_ id: String) throws -> AccelEquation {
    guard let e = all.first(where: { $0.id == id }) else {
      throw ValueError.unknown("accelerometer equation", id, among: all.map(\.id))
    }
    return e
  }

  /// The equation's quantity in an epoch, per minute for counts; nil when
  /// the epoch has none.
  func value(_ e: AccelEpoch) -> Double? {
    let recorded = e.seconds * min(1, e.coverage)
    guard recorded > 0 else { return nil }
    switch quantity {
    case .enmo: return e.enmoMilliG
    case .verticalCounts: return (e.countsAxis1 ?? e.countsY).map { $0 * 60 / recorded }
    case .vectorMagnitudeCounts: return e.countsVectorMagnitude.map { $0 * 60 / recorded }
    }
  }

  /// The energy of the worn epochs of the equation's own length, kcal,
  /// and how many worn epochs lacked its quantity; nil when none had it.
  package func energy(_ analysis: AccelAnalysis, bodyMassKilograms: Double, sex: Sex?) throws -> (
    kilocalories: Double?, epochs: Int, missing: Int
  ) {
    let epochs = (analysis.epochs(seconds: epochSeconds) ?? []).filter(\.worn)
    let values = epochs.map(value)
    // The CV over runs of consecutive epochs that all have the quantity.
    var variation = [Double?](repeating: nil, count: epochs.count)
    if takesVariation {
      var start = 0
      for i in 0...epochs.count {
        let breaks =
          i == epochs.count || values[i] == nil
          || (i > start && abs(epochs[i].start - (epochs[i - 1].start + epochs[i - 1].seconds)) > 1e-6)
        guard breaks else { continue }
        if i > start {
          let cv = Self.lowestVariation(values[start..<i].compactMap { $0 })
          for k in start..<i { variation[k] = cv[k - start] }
        }
        start = i < epochs.count && values[i] == nil ? i + 1 : i
      }
    }
    var total = 0.0
    var used = 0
    var missing = 0
    for (k, e) in epochs.enumerated() {
      guard let v = values[k] else {
        missing += 1
        continue
      }
      var input = ModelInput(
        bodyMassKilograms: bodyMassKilograms, sex: sex, durationSeconds: e.seconds * min(1, e.coverage))
      switch quantity {
      case .enmo: input.enmoMilligravity = v
      case .verticalCounts: input.verticalCountsPerMinute = v
      case .vectorMagnitudeCounts: input.vectorMagnitudeCountsPerMinute = v
      }
      input.countsCoefficientOfVariationPercent = variation[k]
      let output: ModelOutput
      do {
        output = try model.evaluate(input)
      } catch let error as ModelError {
        // Only a CV that no window of six gives is missing here.
        guard case .missing = error.kind else { throw error }
        missing += 1
        continue
      }
      guard let kcal = output.energyKilocalories else {
        missing += 1
        continue
      }
      total += kcal
      used += 1
    }
    return (used > 0 ? total : nil, used, missing)
  }
}
