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
///
/// Hildebrand's and Ellingson's lines were fitted to each activity's mean
/// ENMO; EnergyLab applies them to minute means (a linear line gives the
/// same energy on any epoch; Ellingson's power law does not, and the
/// minute is the shortest epoch its activities' means stand for). The
/// vertical counts of raw acceleration are those of the device's y axis,
/// ActiGraph's axis 1 (the vertical axis of a device worn upright at the
/// hip).
public struct AccelEquation: Sendable {
  public enum Quantity: String, Sendable {
    case enmo = "ENMO (mg)"
    case verticalCounts = "vertical-axis counts"
    case vectorMagnitudeCounts = "vector-magnitude counts"
  }

  public var id: String
  public var quantity: Quantity
  public var epochSeconds: Double
  /// "actigraph" or "geneactiv".
  public var device: String
  public var site: WearLocation
  public var model: any EnergyModel

  /// The registered equations, in the registry's order.
  public static var all: [AccelEquation] {
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
    return out
  }

  /// The equation of `id`; an unknown one names those known.
  public static func named(_ id: String) throws -> AccelEquation {
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
  public func energy(_ analysis: AccelAnalysis, bodyMassKilograms: Double, sex: Sex?) throws -> (
    kilocalories: Double?, epochs: Int, missing: Int
  ) {
    let epochs = (analysis.epochs(seconds: epochSeconds) ?? []).filter(\.worn)
    var total = 0.0
    var used = 0
    var missing = 0
    for e in epochs {
      guard let v = value(e) else {
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
      guard let kcal = try model.evaluate(input).energyKilocalories else {
        missing += 1
        continue
      }
      total += kcal
      used += 1
    }
    return (used > 0 ? total : nil, used, missing)
  }
}
