import EnergyLabCore
import Foundation

/// The named parameters of non-wear detection.
///
/// Defaults after van Hees et al. 2011 (PLoS One 6:e22922) and 2013 (PLoS
/// One 8:e61691): 60-minute windows moving in 15-minute steps; a window is
/// not worn when, on at least two of the three axes, the standard
/// deviation is below 13 mg and the range below 50 mg.
public struct NonWearParameters: Sendable, Hashable {
  /// Window length, min (a whole multiple of the step).
  public var windowMinutes = 60.0
  /// Step between window starts, min; windows and steps are aligned to the
  /// clock (UTC).
  public var stepMinutes = 15.0
  /// An axis is still when its standard deviation over the window is below
  /// this, mg...
  public var sdMilliG = 13.0
  /// ...and its range (max - min) below this, mg.
  public var rangeMilliG = 50.0
  /// A window is not worn when at least this many axes are still.
  public var stillAxes = 2

  public init() {}

  /// The parameters, checked: SD and range above 0 mg, a window a positive
  /// whole multiple of 15 minutes. An error names the parameter
  /// (`non_wear_window_min`).
  public func validated() throws -> NonWearParameters {
    try ValueError.require(sdMilliG > 0, "non_wear_sd_mg", sdMilliG, expected: "positive")
    try ValueError.require(rangeMilliG > 0, "non_wear_range_mg", rangeMilliG, expected: "positive")
    let quarters = windowMinutes / 15
    try ValueError.require(
      windowMinutes > 0 && abs(quarters - quarters.rounded()) < 1e-9, "non_wear_window_min", windowMinutes,
      expected: "a positive whole multiple of 15 minutes")
    return self
  }

  var stepSeconds: Double { stepMinutes * 60 }
  var stepsPerWindow: Int { max(1, Int((windowMinutes / stepMinutes).rounded())) }

  /// The parameters as they are printed and stored with a run.
  public var named: [NamedParameter] {
    [
      NamedParameter(
        name: "non_wear_window_min", value: Fixed.shortest(windowMinutes),
        meaning: "non-wear: window length, min"),
      NamedParameter(
        name: "non_wear_step_min", value: Fixed.shortest(stepMinutes),
        meaning: "non-wear: windows start every this many minutes, aligned to the clock"),
      NamedParameter(
        name: "non_wear_rule",
        value:
          "SD < \(Fixed.shortest(sdMilliG)) mg and range < \(Fixed.shortest(rangeMilliG)) mg on at least \(stillAxes) of 3 axes",
        meaning: "a window is not worn when this holds; every step of such a window is not worn"),
    ]
  }
}

/// What non-wear detection found: the spans not worn.
public struct NonWearResult: Sendable, Hashable {
  /// Spans not worn, s since 1970 UTC, sorted and disjoint.
  public var intervals: [Range<Double>]
  /// Windows assessed (those with samples in each of their steps).
  public var windows: Int
  /// Windows found not worn.
  public var nonWearWindows: Int

  /// Whether instant `t` falls in a span not worn.
  public func isNotWorn(_ t: Double) -> Bool {
    var low = 0
    var high = intervals.count
    while low < high {
      let mid = (low + high) / 2
      if intervals[mid].upperBound <= t { low = mid + 1 } else { high = mid }
    }
    return low < intervals.count && intervals[low].contains(t)
  }

  /// Seconds not worn in all.
  public var seconds: Double { intervals.reduce(0) { $0 + $1.upperBound - $1.lowerBound } }
}

/// Non-wear detection over a raw recording, streamed: per-step sums, sums
/// of squares, minima and maxima of each axis, combined into windows.
///
/// For each window of `windowMinutes`, per axis, SD = sqrt((S2 - S1^2/n) /
/// (n - 1)) and range = max - min; the window is not worn when at least
/// `stillAxes` axes have SD < `sdMilliG` and range < `rangeMilliG`, and
/// then every step of it is marked (van Hees et al. 2011, PLoS One
/// 6:e22922; 2013, PLoS One 8:e61691). Units: g in, s out.
public struct NonWearDetector: Sendable {
  public let parameters: NonWearParameters
  /// Multiplies each axis's SD and range (a calibration's scale, known
  /// after the pass).
  public var axisScale = SIMD3<Double>(repeating: 1)
  struct Step: Sendable {
    var index: Int
    var n = 0.0
    var sum = SIMD3<Double>()
    var sumSquares = SIMD3<Double>()
    var minimum = SIMD3<Double>(repeating: .infinity)
    var maximum = SIMD3<Double>(repeating: -.infinity)
  }
  private var steps: [Step] = []

  public init(parameters: NonWearParameters = NonWearParameters()) { self.parameters = parameters }

  /// Adds rows of x, y, z (g) at `time` (s, increasing).
  public mutating func add(time: [Double], values: [Double]) {
    let seconds = parameters.stepSeconds
    for i in time.indices {
      let k = Int((time[i] / seconds).rounded(.down))
      if steps.last?.index != k { steps.append(Step(index: k)) }
      let v = SIMD3(values[3 * i], values[3 * i + 1], values[3 * i + 2])
      let last = steps.count - 1
      steps[last].n += 1
      steps[last].sum += v
      steps[last].sumSquares += v * v
      steps[last].minimum = pointwiseMin(steps[last].minimum, v)
      steps[last].maximum = pointwiseMax(steps[last].maximum, v)
    }
  }

  /// The spans not worn.
  public func finish() -> NonWearResult {
    let per = parameters.stepsPerWindow
    let seconds = parameters.stepSeconds
    var notWorn = Set<Int>()
    var windows = 0
    var nonWear = 0
    var byIndex: [Int: Int] = [:]
    for (i, s) in steps.enumerated() { byIndex[s.index] = i }
    for first in steps {
      // A window holds `per` consecutive steps, each with samples.
      let members = (0..<per).compactMap { byIndex[first.index + $0] }
      guard members.count == per else { continue }
      windows += 1
      var n = 0.0
      var sum = SIMD3<Double>()
      var sumSquares = SIMD3<Double>()
      var minimum = SIMD3<Double>(repeating: .infinity)
      var maximum = SIMD3<Double>(repeating: -.infinity)
      for m in members {
        n += steps[m].n
        sum += steps[m].sum
        sumSquares += steps[m].sumSquares
        minimum = pointwiseMin(minimum, steps[m].minimum)
        maximum = pointwiseMax(maximum, steps[m].maximum)
      }
      guard n > 1 else { continue }
      let variance = pointwiseMax((sumSquares - sum * sum / n) / (n - 1), SIMD3())
      var still = 0
      for k in 0..<3 {
        let sd = variance[k].squareRoot() * abs(axisScale[k]) * 1000
        let range = (maximum[k] - minimum[k]) * abs(axisScale[k]) * 1000
        if sd < parameters.sdMilliG && range < parameters.rangeMilliG { still += 1 }
      }
      if still >= parameters.stillAxes {
        nonWear += 1
        for j in 0..<per { notWorn.insert(first.index + j) }
      }
    }
    var intervals: [Range<Double>] = []
    for k in notWorn.sorted() {
      let low = Double(k) * seconds
      let high = Double(k + 1) * seconds
      if let last = intervals.last, last.upperBound == low {
        intervals[intervals.count - 1] = last.lowerBound..<high
      } else {
        intervals.append(low..<high)
      }
    }
    return NonWearResult(intervals: intervals, windows: windows, nonWearWindows: nonWear)
  }
}
