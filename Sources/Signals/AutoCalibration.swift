import EnergyLabCore
import Foundation

/// The named parameters of auto-calibration against gravity.
///
/// Defaults follow van Hees et al. 2014 (J Appl Physiol 117:738-744): 10 s
/// windows, still when the standard deviation of every axis is below
/// 13 mg, points spread over the sphere, and a calibration kept only when
/// it leaves the still points within 10 mg of 1 g on average.
public struct AutoCalibrationParameters: Sendable, Hashable {
  /// Length of the windows whose means are the still points, s.
  public var windowSeconds = 10.0
  /// A window is still when the standard deviation of each axis is below
  /// this, mg.
  public var stillSDMilliG = 13.0
  /// Every axis needs still points above +this and below -this, g (the
  /// points must be spread over the sphere, or the fit is not determined).
  public var sphereSpreadG = 0.3
  /// Fewer still points than this is too few, whatever their spread.
  public var minimumStillPoints = 10
  /// Iterations stop when the mean |norm - 1| changes by less than this
  /// between two, mg.
  public var toleranceMilliG = 1e-6
  /// ...or after this many iterations.
  public var maximumIterations = 1000
  /// Residuals below this weigh as much as this in the weighted fit (the
  /// weight of a point is 1 / max(|residual|, floor)), g.
  public var weightFloorG = 0.01
  /// A fit that leaves the still points further than this from 1 g on
  /// average is not applied, mg.
  public var maximumErrorAfterMilliG = 10.0
  /// Temperature is a covariate only when it varies across the still
  /// points by at least this standard deviation, °C.
  public var minimumTemperatureSDCelsius = 0.1

  public init() {}

  /// The parameters, checked: the still SD above 0 mg. An error names the
  /// parameter (`calibration_still_sd_mg`).
  public func validated() throws -> AutoCalibrationParameters {
    try ValueError.require(stillSDMilliG > 0, "calibration_still_sd_mg", stillSDMilliG, expected: "positive")
    return self
  }

  /// The parameters as they are printed and stored with a run.
  public var named: [NamedParameter] {
    [
      NamedParameter(
        name: "calibration_window_s", value: Fixed.shortest(windowSeconds),
        meaning: "auto-calibration: windows whose means are the still points, s"),
      NamedParameter(
        name: "calibration_still_sd_mg", value: Fixed.shortest(stillSDMilliG),
        meaning: "a window is still when every axis's SD is below this, mg"),
      NamedParameter(
        name: "calibration_sphere_spread_g", value: Fixed.shortest(sphereSpreadG),
        meaning: "every axis needs still points above +this and below -this, g"),
      NamedParameter(
        name: "calibration_min_points", value: String(minimumStillPoints),
        meaning: "fewer still points leave the data uncalibrated"),
      NamedParameter(
        name: "calibration_max_error_after_mg", value: Fixed.shortest(maximumErrorAfterMilliG),
        meaning: "a fit leaving a larger mean |norm - 1| is not applied, mg"),
      NamedParameter(
        name: "calibration_weight_floor_g", value: Fixed.shortest(weightFloorG),
        meaning: "weight of a still point 1 / max(|residual|, this), g"),
    ]
  }
}

/// The mean of a still window: a point that should lie on the 1 g sphere.
public struct StillPoint: Sendable, Hashable {
  /// Mean acceleration of each axis, g.
  public var mean: SIMD3<Double>
  /// Mean temperature, °C (NaN where none was recorded).
  public var temperatureCelsius: Double
}

/// Collects the still points of a raw recording, one window at a time, in
/// memory that grows only with the number of still windows.
public struct StillPointCollector: Sendable {
  public let parameters: AutoCalibrationParameters
  private var index = Int.min
  private var n = 0.0
  private var sum = SIMD3<Double>()
  private var sumSquares = SIMD3<Double>()
  private var temperatureSum = 0.0
  private var temperatureCount = 0.0
  public private(set) var points: [StillPoint] = []
  /// Windows seen, still or not.
  public private(set) var windows = 0

  public init(parameters: AutoCalibrationParameters = AutoCalibrationParameters()) {
    self.parameters = parameters
  }

  /// Adds rows of x, y, z (g) at `time` (s, increasing); `temperature` per
  /// row (°C) or empty.
  public mutating func add(time: [Double], values: [Double], temperature: [Double]) {
    let hasTemperature = temperature.count == time.count
    for i in time.indices {
      let k = Int((time[i] / parameters.windowSeconds).rounded(.down))
      if k != index {
        close()
        index = k
      }
      let v = SIMD3(values[3 * i], values[3 * i + 1], values[3 * i + 2])
      n += 1
      sum += v
      sumSquares += v * v
      if hasTemperature, temperature[i].isFinite {
        temperatureSum += temperature[i]
        temperatureCount += 1
      }
    }
  }

  /// Closes the last window.
  public mutating func finish() { close() }

  private mutating func close() {
    defer {
      n = 0
      sum = SIMD3()
      sumSquares = SIMD3()
      temperatureSum = 0
      temperatureCount = 0
    }
    guard n > 1 else { return }
    windows += 1
    let mean = sum / n
    let variance = (sumSquares - sum * mean) / (n - 1)
    let limit = parameters.stillSDMilliG / 1000
    guard variance.max() < limit * limit else { return }
    points.append(
      StillPoint(
        mean: mean, temperatureCelsius: temperatureCount > 0 ? temperatureSum / temperatureCount : .nan))
  }
}

/// Offsets, scales and temperature coefficients that bring still points
/// onto the 1 g sphere, and how well they do.
///
/// A sample (g) at temperature T (°C) is corrected per axis as
///
/// ```
/// a' = scale * (a + offset + temperatureCoefficient * (T - referenceTemperature))
/// ```
///
/// (van Hees et al. 2014, J Appl Physiol 117:738-744).
public struct CalibrationFit: Sendable, Hashable {
  /// Added to each axis before scaling, g.
  public var offsetG: SIMD3<Double>
  /// Multiplies each axis after the offset.
  public var scale: SIMD3<Double>
  /// Added per °C away from the reference temperature, g/°C (0 without
  /// temperature).
  public var temperatureCoefficientGPerCelsius: SIMD3<Double>
  /// Mean temperature of the still points, °C (0 without temperature).
  public var referenceTemperatureCelsius: Double
  /// Whether temperature was a covariate.
  public var usesTemperature: Bool
  /// Still points found.
  public var stillPoints: Int
  /// 10 s windows seen.
  public var windows: Int
  /// Mean | |a| - 1 g | over the still points before and after, mg (nil
  /// when there were none).
  public var errorBeforeMilliG: Double?
  public var errorAfterMilliG: Double?
  /// Iterations run.
  public var iterations: Int
  /// Whether the correction is applied to the samples: the still points
  /// were enough and spread over the sphere, and the fit left them near 1 g.
  public var applied: Bool
  /// Why it was not applied, or what it rests on.
  public var diagnostics: [Diagnostic]

  /// Whether a correction was fitted at all. Without one (too few still
  /// points, or points not spread over the sphere) the offsets, scales and
  /// temperature coefficients are unknown, not the identity they hold.
  public var isFitted: Bool { iterations > 0 }

  /// The identity: no change.
  public static func identity(stillPoints: Int, windows: Int) -> CalibrationFit {
    CalibrationFit(
      offsetG: SIMD3(), scale: SIMD3(repeating: 1), temperatureCoefficientGPerCelsius: SIMD3(),
      referenceTemperatureCelsius: 0, usesTemperature: false, stillPoints: stillPoints, windows: windows,
      errorBeforeMilliG: nil, errorAfterMilliG: nil, iterations: 0, applied: false, diagnostics: [])
  }

  /// One sample corrected, g.
  @inline(__always)
  public func corrected(_ a: SIMD3<Double>, temperatureCelsius: Double) -> SIMD3<Double> {
    let dt =
      usesTemperature && temperatureCelsius.isFinite ? temperatureCelsius - referenceTemperatureCelsius : 0
    return scale * (a + offsetG + temperatureCoefficientGPerCelsius * dt)
  }

  /// Corrects rows of x, y, z (g) in place; `temperature` per row or empty.
  public func apply(to values: inout [Double], temperature: [Double]) {
    guard applied else { return }
    let rows = values.count / 3
    let hasTemperature = temperature.count == rows
    for i in 0..<rows {
      let a = SIMD3(values[3 * i], values[3 * i + 1], values[3 * i + 2])
      let c = corrected(a, temperatureCelsius: hasTemperature ? temperature[i] : .nan)
      values[3 * i] = c.x
      values[3 * i + 1] = c.y
      values[3 * i + 2] = c.z
    }
  }
}

/// Auto-calibration against gravity (van Hees et al. 2014, J Appl Physiol
/// 117:738-744).
///
/// Still points (means of 10 s windows whose axes each vary by less than
/// 13 mg) should have a norm of 1 g. Starting from no correction, each
/// iteration corrects the points, projects each onto the unit sphere
/// (`target = c / |c|`), and fits per axis, by weighted least squares,
///
/// ```
/// target_k = a_k + b_k * c_k + d_k * (T - T_mean)      (d_k only with temperature)
/// ```
///
/// with weights `1 / max(| |c| - 1 |, floor)`; the fitted line is folded
/// into the offset, scale and temperature coefficient, and the loop stops
/// when the mean | |c| - 1 | changes by less than the tolerance. Units: g,
/// °C; errors in mg.
public enum AutoCalibration {
  /// Fits the correction to still points; too few points, or points not
  /// spread over the sphere, give the identity and a diagnostic.
  public static func fit(
    _ points: [StillPoint], windows: Int, parameters: AutoCalibrationParameters = AutoCalibrationParameters(),
    source: String? = nil
  ) -> CalibrationFit {
    var fit = CalibrationFit.identity(stillPoints: points.count, windows: windows)
    if !points.isEmpty { fit.errorBeforeMilliG = meanErrorMilliG(points, fit) }
    let spread = parameters.sphereSpreadG
    let covered = (0..<3).map { k in
      points.contains { $0.mean[k] > spread } && points.contains { $0.mean[k] < -spread }
    }
    guard points.count >= parameters.minimumStillPoints, !covered.contains(false) else {
      let axes = ["x", "y", "z"].enumerated().filter { !covered[$0.offset] }.map(\.element)
      let missing =
        axes.isEmpty
        ? "" : "; axis \(axes.joined(separator: ", ")) lacks still points beyond ±\(Fixed.shortest(spread)) g"
      fit.diagnostics.append(
        Diagnostic(
          code: "calibration-too-few-still-points",
          message:
            "auto-calibration needs still points spread over the sphere: \(points.count) still \(Fixed.shortest(parameters.windowSeconds)) s window(s) of \(windows) (at least \(parameters.minimumStillPoints))\(missing); the data are left uncalibrated",
          location: source))
      return fit
    }
    let temperatures = points.map(\.temperatureCelsius)
    var useTemperature = false
    var reference = 0.0
    if temperatures.allSatisfy(\.isFinite) {
      reference = temperatures.reduce(0, +) / Double(temperatures.count)
      let sd =
        (temperatures.reduce(0) { $0 + ($1 - reference) * ($1 - reference) } / Double(temperatures.count))
        .squareRoot()
      useTemperature = sd >= parameters.minimumTemperatureSDCelsius
      if !useTemperature { reference = 0 }
    }
    fit.usesTemperature = useTemperature
    fit.referenceTemperatureCelsius = reference
    var previous = fit.errorBeforeMilliG ?? 0
    for iteration in 1...max(1, parameters.maximumIterations) {
      fit.iterations = iteration
      let corrected = points.map { fit.corrected($0.mean, temperatureCelsius: $0.temperatureCelsius) }
      let norms = corrected.map { ($0 * $0).sum().squareRoot() }
      let weights = norms.map { 1 / max(abs($0 - 1), parameters.weightFloorG) }
      for k in 0..<3 {
        var rows: [[Double]] = []
        var targets: [Double] = []
        for (p, c) in zip(points, zip(corrected, norms)) {
          var row = [1, c.0[k]]
          if useTemperature { row.append(p.temperatureCelsius - reference) }
          rows.append(row)
          targets.append(c.0[k] / c.1)
        }
        guard let beta = weightedLeastSquares(rows, targets, weights) else { continue }
        // target = a + b * s * (m + o + t dT) + d dT
        //        = (b s) * (m + (o + a / (b s)) + (t + d / (b s)) dT)
        let s = fit.scale[k]
        let bs = beta[1] * s
        guard bs.isFinite, abs(bs) > 1e-9 else { continue }
        fit.offsetG[k] += beta[0] / bs
        if useTemperature { fit.temperatureCoefficientGPerCelsius[k] += beta[2] / bs }
        fit.scale[k] = bs
      }
      let error = meanErrorMilliG(points, fit)
      defer { previous = error }
      if abs(previous - error) < parameters.toleranceMilliG { break }
    }
    fit.errorAfterMilliG = meanErrorMilliG(points, fit)
    let after = fit.errorAfterMilliG ?? .infinity
    if after > parameters.maximumErrorAfterMilliG {
      fit.diagnostics.append(
        Diagnostic(
          code: "calibration-poor-fit",
          message:
            "auto-calibration left the still points \(Fixed.format(after, digits: 1)) mg from 1 g on average (above \(Fixed.shortest(parameters.maximumErrorAfterMilliG)) mg); the data are left uncalibrated",
          location: source))
      return fit
    }
    fit.applied = true
    return fit
  }

  /// Mean | |corrected still point| - 1 g |, mg.
  public static func meanErrorMilliG(_ points: [StillPoint], _ fit: CalibrationFit) -> Double {
    guard !points.isEmpty else { return 0 }
    var sum = 0.0
    for p in points {
      let c = fit.corrected(p.mean, temperatureCelsius: p.temperatureCelsius)
      sum += abs((c * c).sum().squareRoot() - 1)
    }
    return sum / Double(points.count) * 1000
  }

  /// Solves the weighted normal equations (X'WX) beta = X'Wy by Gaussian
  /// elimination with partial pivoting; nil when singular.
  static func weightedLeastSquares(_ rows: [[Double]], _ y: [Double], _ w: [Double]) -> [Double]? {
    guard let p = rows.first?.count else { return nil }
    var a = [[Double]](repeating: [Double](repeating: 0, count: p + 1), count: p)
    for (row, (target, weight)) in zip(rows, zip(y, w)) {
      for i in 0..<p {
        for j in 0..<p { a[i][j] += weight * row[i] * row[j] }
        a[i][p] += weight * row[i] * target
      }
    }
    for col in 0..<p {
      guard let pivot = (col..<p).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12
      else { return nil }
      a.swapAt(col, pivot)
      for r in 0..<p where r != col {
        let f = a[r][col] / a[col][col]
        for c in col...p { a[r][c] -= f * a[col][c] }
      }
    }
    return (0..<p).map { a[$0][p] / a[$0][$0] }
  }
}
