import EnergyLabCore
import Foundation

/// ActiGraph activity counts from raw acceleration, per axis and per
/// second, as Neishabouri et al. (2022, "Quantification of acceleration as
/// activity counts in ActiGraph wearable", Scientific Reports 12:11958)
/// publish them:
///
/// 1. to 30 Hz: 30 Hz as is; 60 and 90 Hz by keeping every 2nd or 3rd
///    sample; 40, 50, 70, 80 and 100 Hz by inserting two zeros after each
///    sample (x3), a one-pole low-pass y[k] = a*3*(u[k] + u[k-1]) - b*y[k-1]
///    with a = pi/(pi + 6), b = (pi - 6)/(pi + 6), and keeping every M-th
///    sample (M = 4, 5, 7, 8, 10); every 30 Hz value is then rounded to
///    0.001 g;
/// 2. the published band-pass filter (order 7, about 0.3-1.6 Hz), started
///    in the steady state of the first value so gravity gives no transient;
/// 3. times the gain (3/4096)/(2.6/256) x 237.5; the absolute value, 0
///    below 4 and 128 above 128, rounded down;
/// 4. the means of consecutive triples, rounded down (10 Hz), summed over
///    each second from the first sample.
///
/// Partial seconds at the end are dropped, as ActiGraph's implementation
/// drops partial epochs. Longer epochs are sums of whole seconds, and the
/// vector magnitude of an epoch is sqrt(x^2 + y^2 + z^2) of its summed axis
/// counts (ActiLife sums the axes when it re-integrates epochs).
public struct ActiGraphCounts: Sendable {
  /// The sample rates the published resampling covers, Hz.
  public static let supportedRatesHz: [Double] = [30, 40, 50, 60, 70, 80, 90, 100]

  /// Numerator and denominator of the band-pass filter (Neishabouri et al.
  /// 2022, Table 1, at the precision of ActiGraph's implementation).
  static let b: [Double] = [
    -0.009341062898525, -0.025470289659360, -0.004235264826105, 0.044152415456420, 0.036493718347760,
    -0.011893961934740, -0.022917390623150, -0.006788163862310,
  ]
  static let a: [Double] = [
    1.0, -3.63367395910957, 5.03689812757486, -3.09612247819666, 0.50620507633883, 0.32421701566682,
    -0.15685485875559, 0.0194913020589,
  ]
  /// The coefficients as tuples, for the per-sample path.
  static let coefficients = (
    b: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]), a: (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
  )
  /// Counts per g of filtered signal.
  static let gain = (3.0 / 4096.0) / (2.6 / 256.0) * 237.5
  static let deadBand = 4.0
  static let ceiling = 128.0

  /// The steady state of the transposed direct form II filter for a
  /// constant input of 1: z[i] = sum over k > i of (b[k] - a[k] * yss),
  /// yss = sum(b) / sum(a).
  static let unitState: [Double] = {
    let steady = b.reduce(0, +) / a.reduce(0, +)
    return (0..<7).map { i in (i + 1..<8).reduce(0.0) { $0 + b[$1] - a[$1] * steady } }
  }()

  /// Upsampling and downsampling factors for a supported rate.
  static func factors(_ rate: Double) -> (up: Int, down: Int)? {
    switch Int(rate.rounded()) {
    case 30: return (1, 1)
    case 60: return (1, 2)
    case 90: return (1, 3)
    case 40: return (3, 4)
    case 50: return (3, 5)
    case 70: return (3, 7)
    case 80: return (3, 8)
    case 100: return (3, 10)
    default: return nil
    }
  }

  /// The supported rate within 0.5 % of `rate`, if any.
  public static func supportedRate(near rate: Double) -> Double? {
    supportedRatesHz.first { abs(rate - $0) <= 0.005 * $0 }
  }

  private let up: Int
  private let down: Int
  private let coefficients = ActiGraphCounts.coefficients
  private let gain = ActiGraphCounts.gain
  private let lowPassGain: Double
  private let lowPassFeedback: Double
  // The three axes side by side.
  private var previousOutput = SIMD3<Double>()
  // The band-pass filter's seven delays, held inline (no array on the
  // per-sample path).
  private var s0 = SIMD3<Double>(), s1 = SIMD3<Double>(), s2 = SIMD3<Double>(), s3 = SIMD3<Double>()
  private var s4 = SIMD3<Double>(), s5 = SIMD3<Double>(), s6 = SIMD3<Double>()
  private var started = false
  private var tripleSum = SIMD3<Int>()
  private var secondSum = SIMD3<Int>()
  /// Position in the upsampled stream, modulo `down`.
  private var phase = 0
  private var inTriple = 0
  private var inSecond = 0
  /// Counts of the completed seconds not yet drained: x, y, z per second.
  public private(set) var seconds: [(x: Int, y: Int, z: Int)] = []
  /// Seconds completed since the start (drained or not).
  public private(set) var completedSeconds = 0

  /// nil unless `sampleRateHz` is one of `supportedRatesHz`.
  public init?(sampleRateHz: Double) {
    guard let rate = Self.supportedRate(near: sampleRateHz), let (up, down) = Self.factors(rate) else {
      return nil
    }
    // The closed form in `add` is written for tripling.
    precondition(up == 1 || up == 3, "upsampling by \(up)")
    self.up = up
    self.down = down
    let a = Double.pi / (Double.pi + 2 * Double(up))
    lowPassGain = a * Double(up)
    lowPassFeedback = (Double.pi - 2 * Double(up)) / (Double.pi + 2 * Double(up))
  }

  /// Adds one sample of the three axes, in g.
  /// Adds a run of samples, x, y, z row after row (no gap among them).
  public mutating func add(xyz: UnsafeBufferPointer<Double>) {
    var i = 0
    while i + 2 < xyz.count {
      add(x: xyz[i], y: xyz[i + 1], z: xyz[i + 2])
      i += 3
    }
  }

  @inline(__always)
  public mutating func add(x: Double, y: Double, z: Double) {
    let v = SIMD3(x, y, z)
    if up == 1 {
      if phase == 0 { resampled(v) }
      phase += 1
      if phase == down { phase = 0 }
      return
    }
    // The sample and two zeros through the low-pass y[k] = g (u[k] +
    // u[k-1]) - f y[k-1]; the input before the sample is always one of the
    // zeros, so the three outputs are
    //   y0 = g v - f y,  y1 = g v - f y0,  y2 = -f y1,
    // and only the one landing on a kept index (every down-th) is formed.
    let y0 = lowPassGain * v - lowPassFeedback * previousOutput
    let y1 = lowPassGain * v - lowPassFeedback * y0
    if phase == 0 {
      resampled(y0)
    } else if phase == down - 1 {
      resampled(y1)
    } else if phase == down - 2 {
      resampled(-lowPassFeedback * y1)
    }
    previousOutput = -lowPassFeedback * y1
    phase += 3
    if phase >= down { phase -= down }
  }

  /// A 30 Hz value of each axis.
  private mutating func resampled(_ raw: SIMD3<Double>) {
    let v = Self.roundedToEven(raw * 1000) / 1000
    if !started {
      started = true
      let z = Self.unitState
      (s0, s1, s2, s3) = (z[0] * v, z[1] * v, z[2] * v, z[3] * v)
      (s4, s5, s6) = (z[4] * v, z[5] * v, z[6] * v)
    }
    // Transposed direct form II.
    let b = coefficients.b
    let a = coefficients.a
    let out = b.0 * v + s0
    s0 = b.1 * v + s1 - a.1 * out
    s1 = b.2 * v + s2 - a.2 * out
    s2 = b.3 * v + s3 - a.3 * out
    s3 = b.4 * v + s4 - a.4 * out
    s4 = b.5 * v + s5 - a.5 * out
    s5 = b.6 * v + s6 - a.6 * out
    s6 = b.7 * v - a.7 * out
    let scaled = out * gain
    var m = scaled.replacing(with: -scaled, where: scaled .< 0)
    m.replace(with: 0, where: m .< Self.deadBand)
    m.replace(with: Self.ceiling, where: m .> Self.ceiling)
    // Non-negative, so truncation is rounding down.
    tripleSum &+= SIMD3(Int(m.x), Int(m.y), Int(m.z))
    inTriple += 1
    guard inTriple == 3 else { return }
    inTriple = 0
    secondSum &+= tripleSum / 3
    tripleSum = SIMD3()
    inSecond += 1
    guard inSecond == 10 else { return }
    inSecond = 0
    seconds.append((secondSum.x, secondSum.y, secondSum.z))
    completedSeconds += 1
    secondSum = SIMD3()
  }

  /// `x` rounded to the nearest integer, ties to even, with no library
  /// call: below 2^51 in size, adding and taking away 1.5 * 2^52 leaves
  /// the integer the addition rounded to (a zero may lose its sign, which
  /// no count can show).
  @inline(__always)
  static func roundedToEven(_ x: SIMD3<Double>) -> SIMD3<Double> {
    let size = x.replacing(with: -x, where: x .< 0)
    guard all(size .< 0x1p51) else { return x.rounded(.toNearestOrEven) }
    let shift = SIMD3<Double>(repeating: 0x1.8p52)
    return (x + shift) - shift
  }

  /// The seconds completed since the last drain.
  public mutating func drainSeconds() -> [(x: Int, y: Int, z: Int)] {
    defer { seconds.removeAll(keepingCapacity: true) }
    return seconds
  }
}
