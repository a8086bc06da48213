import EnergyLabCore
import Foundation

/// The mean-maximal power curve: for each duration, the highest mean power
/// held over any window of that many 1 s samples.
///
/// ```
/// MMP(d) = max over k of (S[k + d] - S[k]) / d,   S = running sum of power
/// ```
///
/// Every window counts, the first sample's included (sweat and vmpy take
/// `energy.diff(d)`, which never starts a window at the first sample:
/// given the series with one 0 W sample in front, theirs equals this).
public enum MeanMaximalPower {
  /// The durations of a curve up to `seconds`: every second to 2 min,
  /// every 5 s to 10 min, every 30 s to 1 h, every minute after, and the
  /// whole ride.
  public static func durations(upTo seconds: Int) -> [Int] {
    guard seconds >= 1 else { return [] }
    var out: [Int] = []
    var d = 1
    while d <= seconds {
      out.append(d)
      d += d < 120 ? 1 : d < 600 ? 5 : d < 3600 ? 30 : 60
    }
    if out.last != seconds { out.append(seconds) }
    return out
  }

  /// The best mean power of `watts` over each of `durations` (s, at one
  /// sample a second), with where its window starts; durations longer
  /// than the series are left out.
  public static func curve(_ watts: [Double], durations: [Int]) -> [(seconds: Int, watts: Double, start: Int)]
  {
    let n = watts.count
    guard n > 0 else { return [] }
    var sum = [Double](repeating: 0, count: n + 1)
    for k in 0..<n { sum[k + 1] = sum[k] + watts[k] }
    var out: [(Int, Double, Int)] = []
    out.reserveCapacity(durations.count)
    for d in durations where d >= 1 && d <= n {
      var best = -Double.infinity
      var at = 0
      sum.withUnsafeBufferPointer { s in
        for k in 0...(n - d) {
          let v = s[k + d] - s[k]
          if v > best {
            best = v
            at = k
          }
        }
      }
      out.append((d, best / Double(d), at))
    }
    return out
  }
}

/// A critical-power model fitted to mean-maximal points by least squares
/// (power on duration, unweighted, as sweat's `PowerDurationRegressor`).
public struct CriticalPowerFit: Sendable, Hashable {
  public enum Model: String, Sendable, Hashable, CaseIterable {
    /// `P = CP + W'/t` (Monod and Scherrer 1965).
    case twoParameter = "2-parameter"
    /// `P = CP + W'/(t + W'/(Pmax - CP))` (Morton 1996).
    case threeParameter = "3-parameter"
    /// `P = CP + (Pmax - CP) exp(-t/tau)` (Hopkins et al. 1989).
    case exponential
  }

  public var model: Model
  /// Critical power, W.
  public var criticalPowerWatts: Double
  /// W', J (2- and 3-parameter).
  public var wPrimeJoules: Double?
  /// Pmax, W (3-parameter and exponential).
  public var maxPowerWatts: Double?
  /// tau, s (exponential).
  public var tauSeconds: Double?
  /// Root-mean-square residual over the fitted points, W.
  public var rmseWatts: Double
  /// Points fitted.
  public var points: Int

  /// The model's power at `seconds`.
  public func power(atSeconds t: Double) -> Double {
    switch model {
    case .twoParameter: return criticalPowerWatts + (wPrimeJoules ?? 0) / t
    case .threeParameter:
      let w = wPrimeJoules ?? 0
      return criticalPowerWatts + w / (t + w / ((maxPowerWatts ?? 0) - criticalPowerWatts))
    case .exponential:
      return criticalPowerWatts + ((maxPowerWatts ?? 0) - criticalPowerWatts) * exp(-t / (tauSeconds ?? 1))
    }
  }

  /// Least squares of `power` on (a, b) for `power = a + b * x`.
  static func line(_ x: [Double], _ y: [Double]) -> (a: Double, b: Double, sse: Double)? {
    let n = Double(x.count)
    guard x.count >= 2 else { return nil }
    let mx = x.reduce(0, +) / n
    let my = y.reduce(0, +) / n
    var sxx = 0.0
    var sxy = 0.0
    for (a, b) in zip(x, y) {
      sxx += (a - mx) * (a - mx)
      sxy += (a - mx) * (b - my)
    }
    guard sxx > 0 else { return nil }
    let b = sxy / sxx
    let a = my - b * mx
    var sse = 0.0
    for (u, v) in zip(x, y) {
      let r = v - a - b * u
      sse += r * r
    }
    return (a, b, sse)
  }

  /// The minimum of `f` over [lo, hi] by golden-section search on a log
  /// grid's best bracket, to `tolerance` relative.
  static func minimise(_ f: (Double) -> Double, lo: Double, hi: Double) -> Double {
    // Coarse log grid, then golden section around the best point.
    let steps = 400
    var bestK = 0
    var best = Double.infinity
    let ratio = log(hi / lo)
    for k in 0...steps {
      let v = f(lo * exp(ratio * Double(k) / Double(steps)))
      if v < best {
        best = v
        bestK = k
      }
    }
    var a = lo * exp(ratio * Double(max(0, bestK - 1)) / Double(steps))
    var b = lo * exp(ratio * Double(min(steps, bestK + 1)) / Double(steps))
    let g = (sqrt(5.0) - 1) / 2
    var c = b - g * (b - a)
    var d = a + g * (b - a)
    var fc = f(c)
    var fd = f(d)
    for _ in 0..<200 {
      if fc < fd {
        b = d
        d = c
        fd = fc
        c = b - g * (b - a)
        fc = f(c)
      } else {
        a = c
        c = d
        fc = fd
        d = a + g * (b - a)
        fd = f(d)
      }
      if abs(b - a) <= 1e-15 * abs(a + b) { break }
    }
    return (a + b) / 2
  }

  /// Fits `model` to the points (duration s, power W); nil with fewer
  /// points than parameters or no minimum.
  public static func fit(_ model: Model, seconds: [Double], watts: [Double]) -> CriticalPowerFit? {
    let n = seconds.count
    switch model {
    case .twoParameter:
      guard n >= 2, let l = line(seconds.map { 1 / $0 }, watts) else { return nil }
      return CriticalPowerFit(
        model: model, criticalPowerWatts: l.a, wPrimeJoules: l.b, maxPowerWatts: nil, tauSeconds: nil,
        rmseWatts: (l.sse / Double(n)).squareRoot(), points: n)
    case .threeParameter:
      // For a fixed k = W'/(Pmax - CP) the model is a line in 1/(t + k):
      // the least squares over k is one-dimensional.
      guard n >= 3 else { return nil }
      let sse = { (k: Double) in line(seconds.map { 1 / ($0 + k) }, watts)?.sse ?? .infinity }
      let k = minimise(sse, lo: 1e-3, hi: 1e4)
      guard let l = line(seconds.map { 1 / ($0 + k) }, watts) else { return nil }
      return CriticalPowerFit(
        model: model, criticalPowerWatts: l.a, wPrimeJoules: l.b, maxPowerWatts: l.a + l.b / k,
        tauSeconds: nil,
        rmseWatts: (l.sse / Double(n)).squareRoot(), points: n)
    case .exponential:
      // For a fixed tau the model is a line in exp(-t/tau).
      guard n >= 3 else { return nil }
      let sse = { (tau: Double) in line(seconds.map { exp(-$0 / tau) }, watts)?.sse ?? .infinity }
      let tau = minimise(sse, lo: 1, hi: 1e5)
      guard let l = line(seconds.map { exp(-$0 / tau) }, watts) else { return nil }
      return CriticalPowerFit(
        model: model, criticalPowerWatts: l.a, wPrimeJoules: nil, maxPowerWatts: l.a + l.b, tauSeconds: tau,
        rmseWatts: (l.sse / Double(n)).squareRoot(), points: n)
    }
  }
}

/// W' balance: what is left of the work capacity above critical power.
public enum WPrimeBalance {
  /// The integral formulation (Skiba et al. 2012), at one sample a second:
  ///
  /// ```
  /// W'bal(t) = W' - sum over u <= t of max(0, P(u) - CP) * exp(-(t - u) / tau)
  /// tau = 546 * exp(-0.01 * D_CP) + 316,  D_CP = CP - mean of the samples below CP
  /// ```
  ///
  /// `tauSeconds` nil takes tau from the whole ride's samples below CP
  /// (sweat's default).
  public static func integral(
    _ watts: [Double], criticalPowerWatts cp: Double, wPrimeJoules w: Double,
    tauSeconds: Double? = nil
  ) -> [Double] {
    let tau = tauSeconds ?? skibaTau(watts, criticalPowerWatts: cp)
    let decay = exp(-1 / tau)
    var spent = 0.0
    return watts.map { p in
      spent = spent * decay + max(0, p - cp)
      return w - spent
    }
  }

  /// Skiba 2012's time constant from the samples below CP, s.
  public static func skibaTau(_ watts: [Double], criticalPowerWatts cp: Double) -> Double {
    let below = watts.filter { $0 < cp }
    let mean = below.isEmpty ? 0 : below.reduce(0, +) / Double(below.count)
    return 546 * exp(-0.01 * (cp - mean)) + 316
  }

  /// The differential formulation (Skiba, Fulford, Clarke, Vanhatalo and
  /// Jones 2015, after Froncioni):
  ///
  /// ```
  /// P < CP:  W'bal += (CP - P) * (W' - W'bal) / W'
  /// else:    W'bal -= P - CP
  /// ```
  public static func differential(_ watts: [Double], criticalPowerWatts cp: Double, wPrimeJoules w: Double)
    -> [Double]
  {
    var balance = w
    return watts.map { p in
      if p < cp { balance += (cp - p) * (w - balance) / w } else { balance -= p - cp }
      return balance
    }
  }
}

/// The mean-maximal curve in bounded memory, one sample a second at a
/// time: exact for durations up to `exactSeconds` (a ring of running sums
/// that long), and beyond it over whole `blockSeconds` blocks (the sums of
/// blocks are kept: 8 bytes a block, 3.7 MB for a year of samples at 60 s),
/// which gives a lower bound of the exact value within one block's
/// alignment.
public struct StreamingMeanMaximalPower: Sendable {
  public let exactSeconds: Int
  public let blockSeconds: Int
  /// Durations up to `exactSeconds`, as `MeanMaximalPower.durations`.
  public let exactDurations: [Int]
  private var best: [Double]
  private var bestStart: [Int]
  private var ring: [Double]
  private var count = 0
  private var sum = 0.0
  private var blocks: [Double] = []
  private var blockSum = 0.0

  public init(exactSeconds: Int = 3600, blockSeconds: Int = 60) {
    self.exactSeconds = max(1, exactSeconds)
    self.blockSeconds = max(1, blockSeconds)
    exactDurations = MeanMaximalPower.durations(upTo: self.exactSeconds)
    best = [Double](repeating: -.infinity, count: exactDurations.count)
    bestStart = [Int](repeating: 0, count: exactDurations.count)
    ring = [Double](repeating: 0, count: self.exactSeconds + 1)
  }

  /// Samples taken so far.
  public var samples: Int { count }

  public mutating func add(_ watts: Double) {
    sum += watts
    count += 1
    let size = ring.count
    ring[count % size] = sum
    let durations = exactDurations
    ring.withUnsafeBufferPointer { r in
      best.withUnsafeMutableBufferPointer { b in
        for (i, d) in durations.enumerated() {
          guard d <= count else { break }
          let v = sum - r[(count - d) % size]
          if v > b[i] {
            b[i] = v
            bestStart[i] = count - d
          }
        }
      }
    }
    blockSum += watts
    if count % blockSeconds == 0 {
      blocks.append(blockSum)
      blockSum = 0
    }
  }

  /// The curve: every exact duration the samples cover, then durations
  /// beyond `exactSeconds` growing by 5 % (whole blocks), then the whole
  /// series (exact: its mean).
  public func curve() -> [(seconds: Int, watts: Double, start: Int, exact: Bool)] {
    var out: [(Int, Double, Int, Bool)] = []
    for (i, d) in exactDurations.enumerated() where d <= count {
      out.append((d, best[i] / Double(d), bestStart[i], true))
    }
    guard count > exactSeconds else { return out }
    var prefix = [0.0]
    prefix.reserveCapacity(blocks.count + 1)
    var running = 0.0
    for b in blocks {
      running += b
      prefix.append(running)
    }
    var k = exactSeconds / blockSeconds + 1
    while k * blockSeconds < count && k <= blocks.count {
      var top = -Double.infinity
      var at = 0
      for j in 0...(blocks.count - k) where prefix[j + k] - prefix[j] > top {
        top = prefix[j + k] - prefix[j]
        at = j
      }
      out.append((k * blockSeconds, top / Double(k * blockSeconds), at * blockSeconds, false))
      k = max(k + 1, Int((Double(k) * 1.05).rounded()))
    }
    out.append((count, sum / Double(count), 0, true))
    return out
  }
}
