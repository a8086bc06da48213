import EnergyLabCore
import Foundation

/// Track metrics computed one fix at a time in constant memory: a 500 MB
/// file needs no more memory than a 5 kB one. `TrackAnalysis.summary` feeds
/// a whole track through it, so both give the same numbers.
///
/// Fixes of every kind come in file order. The path is the track fixes, or
/// the route points when the file has no track fix; each is summed per
/// segment, and nothing bridges two segments (unless `joinSegments`).
/// Waypoints are counted and never join the path; time-only trackpoints
/// count towards the duration.
public struct StreamingTrackSummary: Sendable {
  public let parameters: TrackAnalysisParameters
  public let source: String
  private var trackPath: PathAccumulator
  private var routePath: PathAccumulator
  private var waypoints = 0
  private var timeOnly = 0
  private var timeOnlySpan = TimeAndHeartRate()
  /// Power from records with or without a position (an indoor trainer
  /// writes no position), in file order.
  private var power = PowerIntegral()

  /// Cleans elevation as fixes arrive (`parameters.elevationCleaning`),
  /// unless the fixes were cleaned already (`elevationTally` given).
  private var elevationCleaner: ElevationCleaner?
  private let givenTally: ElevationTally?

  /// `elevationTally`: the fixes' elevation was cleaned as they were read,
  /// with this gain and loss; nil to clean it here.
  public init(
    source: String, parameters: TrackAnalysisParameters = TrackAnalysisParameters(),
    elevationTally: ElevationTally? = nil
  ) {
    self.source = source
    self.parameters = parameters
    givenTally = elevationTally
    elevationCleaner =
      elevationTally == nil ? ElevationCleaner(parameters: parameters.elevationCleaning) : nil
    trackPath = PathAccumulator(source: source, parameters: parameters)
    routePath = PathAccumulator(source: source, parameters: parameters)
  }

  public mutating func add(_ p: TrackPoint) {
    guard var cleaner = elevationCleaner else { return accept(p) }
    elevationCleaner = nil
    cleaner.add(p) { accept($0) }
    elevationCleaner = cleaner
  }

  private mutating func accept(_ p: TrackPoint) {
    if p.kind == .track || p.kind == .timeOnly {
      power.add(timeSecondsSince1970: p.timeSecondsSince1970, powerWatts: p.powerWatts, segment: p.segment)
    }
    switch p.kind {
    case .track: trackPath.add(p)
    case .route: routePath.add(p)
    case .waypoint: waypoints += 1
    case .timeOnly:
      timeOnly += 1
      timeOnlySpan.add(p)
    }
  }

  /// The summary of everything added. `structure` is the file's own count
  /// of tracks, segments, routes and waypoints when a reader gave one;
  /// otherwise it is worked out from the fixes added.
  /// Relative difference from the device's own distance beyond which a
  /// summary says so: 2 %.
  public static let deviceDistanceTolerance = 0.02

  public mutating func finish(
    diagnostics inherited: [Diagnostic] = [], structure given: TrackStructure? = nil,
    deviceDistanceMeters: Double? = nil
  ) -> TrackSummary {
    var tally = givenTally
    if var cleaner = elevationCleaner {
      elevationCleaner = nil
      cleaner.finish { accept($0) }
      tally = cleaner.tally
    }
    var structure = given ?? TrackStructure()
    if given == nil {
      structure.trackPoints = trackPath.points
      structure.segments = trackPath.segments
      structure.tracks = trackPath.points > 0 ? 1 : 0
      structure.routePoints = routePath.points
      structure.routes = routePath.segments
      structure.waypoints = waypoints
      structure.timeOnlyPoints = timeOnly
    }
    let usesRoutes = trackPath.points == 0 && routePath.points > 0
    var diagnostics = inherited
    for d in structure.pathDiagnostics(source: source) where !inherited.contains(where: { $0.code == d.code })
    {
      diagnostics.append(d)
    }
    var summary =
      usesRoutes
      ? routePath.finish(diagnostics: diagnostics, hasWaypoints: waypoints > 0)
      : trackPath.finish(diagnostics: diagnostics, hasWaypoints: waypoints > 0)
    summary.structure = structure
    summary.pathSource = structure.pathSource
    if let tally, tally.fixes >= 2 {
      summary.elevationGainMeters = tally.headlineGainMeters
      summary.elevationLossMeters = tally.headlineLossMeters
      summary.elevationGainCleanedMeters = tally.gainMeters
      summary.elevationLossCleanedMeters = tally.lossMeters
      summary.elevationReversalShare = tally.reversalShare
      summary.elevationGainRecordedMeters = tally.recordedGainMeters
      summary.elevationLossRecordedMeters = tally.recordedLossMeters
    } else {
      summary.elevationGainMeters = nil
      summary.elevationLossMeters = nil
    }
    summary.deviceDistanceMeters = deviceDistanceMeters
    if power.records > 0 {
      summary.workJoules = power.joules
      summary.poweredSeconds = power.seconds
    }
    if let device = deviceDistanceMeters, device > 0,
      abs(summary.distance2DMeters - device) / device > Self.deviceDistanceTolerance
    {
      summary.diagnostics.append(
        Diagnostic(
          code: "distance-differs-from-device",
          message:
            "the path measures \(Fixed.format(summary.distance2DMeters, digits: 1)) m, the device's own distance is \(Fixed.format(device, digits: 1)) m (\(Fixed.format(100 * (summary.distance2DMeters - device) / device, digits: 1)) %): check for gaps, pauses or a device that measured by wheel or foot pod",
          location: source))
    }
    if timeOnly > 0 {
      // Time-only trackpoints widen the time span and carry heart rate.
      if let t = timeOnlySpan.start {
        summary.startSecondsSince1970 = min(summary.startSecondsSince1970 ?? t, t)
      }
      if let t = timeOnlySpan.end { summary.endSecondsSince1970 = max(summary.endSecondsSince1970 ?? t, t) }
      if let a = summary.startSecondsSince1970, let b = summary.endSecondsSince1970 {
        summary.durationSeconds = b - a
        summary.averageSpeedMetersPerSecond = b > a ? summary.distance2DMeters / (b - a) : nil
      }
      if timeOnlySpan.heartRateCount > 0 {
        let n = Double(summary.heartRateCount)
        let total = (summary.heartRateMeanBeatsPerMinute ?? 0) * n + timeOnlySpan.heartRateSum
        summary.heartRateCount += timeOnlySpan.heartRateCount
        summary.heartRateMeanBeatsPerMinute = total / Double(summary.heartRateCount)
        summary.heartRateMaxBeatsPerMinute = max(
          summary.heartRateMaxBeatsPerMinute ?? -.infinity, timeOnlySpan.heartRateMax ?? -.infinity)
      }
    }
    return summary
  }
}

/// The metrics of one kind of path (track fixes or route points), summed
/// over its segments; gaps between segments are measured, not travelled.
struct PathAccumulator: Sendable {
  let parameters: TrackAnalysisParameters
  let source: String

  private(set) var points = 0
  private(set) var segments = 0
  private var currentSegment: Int32 = 0
  /// The last fix of the path so far, to measure a gap to the next segment.
  private var lastLatitude = 0.0
  private var lastLongitude = 0.0
  private var gapCount = 0
  private var gapDistance = 0.0
  private var gapDuration = 0.0
  private var sawGapDuration = false
  private var largestGap: (meters: Double, seconds: Double?, line: Int)?
  /// Time steps longer than `maximumStepHours`: the path is cut there as
  /// `TrackAnalysis.steps` cuts it, so the step is neither travelled nor
  /// moving time.
  private var timeGaps: TimeGaps
  private var fixesWithElevation = 0
  /// What the step to the next fix needs of the previous one: its time,
  /// elevation and reduced latitude (not the whole fix, which is copied for
  /// nothing).
  private var hasPrevious = false
  private var previousTime: Double?
  private var previousElevation: Double?
  /// The previous fix with its reduced latitude, worked out once per fix.
  private var previousReduced: Geodesy.ReducedPoint?
  /// First and last time and heart rate of the path's fixes.
  private var span = TimeAndHeartRate()
  private var distance2D = 0.0
  private var distance3D = 0.0
  private var gain = 0.0
  private var loss = 0.0
  private var sawElevationChange = false
  private var moving = 0.0
  private var maxSpeed: Double?
  private var backwards = 0
  private var repeated = 0
  private var firstBadLine: Int?
  // Robust speed: running median of the last `robustSpeedWindow` step speeds.
  private var recentSpeeds: [Double] = []
  private var oldestSpeed = 0
  private var sortedSpeeds: [Double] = []
  private var robustMaxSpeed: Double?
  // Smoothed elevation: centred moving average of `elevationSmoothingFixes`.
  private var elevations: [Double] = []  // a ring of the last 2h + 1
  private var oldestElevation = 0
  private var elevationCount = 0
  private var smoothedPrevious: Double?
  private var smoothedGain = 0.0
  private var smoothedLoss = 0.0
  // Hysteresis: elevation changes count once they exceed the threshold.
  private var hysteresisReference: Double?
  private var hysteresisGain = 0.0
  private var hysteresisLoss = 0.0
  // Grade windows over cumulative horizontal distance.
  private var cumulative = 0.0
  private var lastWithElevation: (distance: Double, elevation: Double)?
  private var windowStart: (distance: Double, elevation: Double)?
  private var pending:
    (start: (distance: Double, elevation: Double), end: (distance: Double, elevation: Double))?
  private var gradeRun = 0.0
  private var gradeRise = 0.0
  private var gradeMin: Double?
  private var gradeMax: Double?

  init(source: String, parameters: TrackAnalysisParameters) {
    self.source = source
    self.parameters = parameters
    timeGaps = TimeGaps(source: source, limitHours: parameters.maximumStepHours)
  }

  mutating func add(_ p: TrackPoint) {
    if points == 0 {
      segments = 1
      currentSegment = p.segment
    } else if p.segment != currentSegment {
      segments += 1
      currentSegment = p.segment
      recordGap(to: p)
      if !parameters.joinSegments { endSegment() }
    } else if let ta = previousTime, let tb = p.timeSecondsSince1970,
      tb - ta > parameters.maximumStepHours * 3600
    {
      timeGaps.add(from: ta, to: tb, line: p.sourceLine)
      endSegment()
    }
    points += 1
    lastLatitude = p.latitudeDegrees
    lastLongitude = p.longitudeDegrees
    span.add(p)
    if let z = p.elevationMeters {
      fixesWithElevation += 1
      addElevation(z)
    }
    let here = Geodesy.ReducedPoint(latitudeDegrees: p.latitudeDegrees, longitudeDegrees: p.longitudeDegrees)
    let previousTime = self.previousTime
    let previousElevation = self.previousElevation
    self.previousTime = p.timeSecondsSince1970
    self.previousElevation = p.elevationMeters
    guard hasPrevious, let there = previousReduced else {
      hasPrevious = true
      previousReduced = here
      if let z = p.elevationMeters {
        lastWithElevation = (0, z)
        windowStart = (0, z)
      }
      return
    }
    previousReduced = here
    let d2 = Geodesy.distanceMeters(there, here, method: parameters.distanceMethod)
    var d3 = d2
    if let za = previousElevation, let zb = p.elevationMeters {
      let dz = zb - za
      d3 = sqrt(d2 * d2 + dz * dz)
      sawElevationChange = true
      if dz > 0 { gain += dz } else { loss -= dz }
    }
    distance2D += d2
    distance3D += d3
    if let ta = previousTime, let tb = p.timeSecondsSince1970 {
      let dt = tb - ta
      if dt > 0 {
        let v = d2 / dt
        maxSpeed = max(maxSpeed ?? v, v)
        if v >= parameters.stopSpeedMetersPerSecond { moving += dt }
        // A ring of the last `robustSpeedWindow` speeds.
        if recentSpeeds.count < parameters.robustSpeedWindow {
          recentSpeeds.append(v)
        } else {
          recentSpeeds[oldestSpeed] = v
          oldestSpeed = (oldestSpeed + 1) % recentSpeeds.count
        }
        // Sorted in a kept scratch array: no allocation per fix.
        sortedSpeeds.removeAll(keepingCapacity: true)
        for x in recentSpeeds {
          var k = sortedSpeeds.count
          sortedSpeeds.append(x)
          while k > 0 && sortedSpeeds[k - 1] > x {
            sortedSpeeds[k] = sortedSpeeds[k - 1]
            k -= 1
          }
          sortedSpeeds[k] = x
        }
        let sorted = sortedSpeeds
        let median =
          sorted.count % 2 == 1
          ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        robustMaxSpeed = max(robustMaxSpeed ?? median, median)
      } else {
        if dt < 0 { backwards += 1 } else { repeated += 1 }
        if firstBadLine == nil { firstBadLine = p.sourceLine }
      }
    }
    cumulative += d2
    if let z = p.elevationMeters { advanceGrade(to: cumulative, elevation: z) }
  }

  /// Measures the gap from the last fix added to `p`, the first of the next segment.
  private mutating func recordGap(to p: TrackPoint) {
    let d = Geodesy.distanceMeters(
      fromLatitude: lastLatitude, longitude: lastLongitude, toLatitude: p.latitudeDegrees,
      longitude: p.longitudeDegrees, method: parameters.distanceMethod)
    var seconds: Double?
    if let a = previousTime, let b = p.timeSecondsSince1970 {
      seconds = b - a
      gapDuration += b - a
      sawGapDuration = true
    }
    gapCount += 1
    gapDistance += d
    if d > (largestGap?.meters ?? -1) { largestGap = (d, seconds, p.sourceLine) }
  }

  /// Closes the segment being summed: flushes its smoothing and grade
  /// windows and forgets its last fix, so no step or window crosses the gap.
  private mutating func endSegment() {
    flushSegment()
    hasPrevious = false
    previousTime = nil
    previousElevation = nil
    previousReduced = nil
    recentSpeeds.removeAll(keepingCapacity: true)
    oldestSpeed = 0
    elevations.removeAll(keepingCapacity: true)
    oldestElevation = 0
    elevationCount = 0
    smoothedPrevious = nil
    hysteresisReference = nil
    cumulative = 0
    lastWithElevation = nil
    windowStart = nil
    pending = nil
  }

  private mutating func addElevation(_ z: Double) {
    if let r = hysteresisReference {
      if z - r >= parameters.elevationHysteresisMeters {
        hysteresisGain += z - r
        hysteresisReference = z
      } else if r - z >= parameters.elevationHysteresisMeters {
        hysteresisLoss += r - z
        hysteresisReference = z
      }
    } else {
      hysteresisReference = z
    }
    // Centred moving average of half-width h: the fix h back now has its
    // whole window [i - h, i + h] in the last 2h + 1 elevations.
    let half = max(0, parameters.elevationSmoothingFixes / 2)
    if elevations.count < 2 * half + 1 {
      elevations.append(z)
    } else {
      elevations[oldestElevation] = z
      oldestElevation = (oldestElevation + 1) % elevations.count
    }
    elevationCount += 1
    let i = elevationCount - 1 - half
    if i >= 0 { emitSmoothed(meanOfLast(elevationCount - max(0, i - half))) }
  }

  /// The mean of the last `n` elevations, summed oldest first.
  private func meanOfLast(_ n: Int) -> Double {
    let size = elevations.count
    var sum = 0.0
    var index = oldestElevation + size - n
    if index >= size { index -= size }
    for _ in 0..<n {
      sum += elevations[index]
      index += 1
      if index == size { index = 0 }
    }
    return sum / Double(n)
  }

  private mutating func emitSmoothed(_ z: Double) {
    if let previous = smoothedPrevious {
      if z > previous { smoothedGain += z - previous } else { smoothedLoss += previous - z }
    }
    smoothedPrevious = z
  }

  private mutating func advanceGrade(to: Double, elevation z: Double) {
    guard let last = lastWithElevation else {
      lastWithElevation = (to, z)
      windowStart = (to, z)
      return
    }
    let length = parameters.gradeWindowMeters
    while let start = windowStart, start.distance + length <= to + 1e-9 {
      let span = to - last.distance
      // Windows wholly inside one step share its grade. A step of
      // thousands of kilometres (a damaged position) spans hundreds of
      // thousands of them: all but the last are summed at once.
      let inside =
        span > 0 && start.distance >= last.distance
        ? ((to + 1e-9 - start.distance) / length).rounded(.down) : 0
      if inside > 1000 {
        if let p = pending { record(p.start, p.end) }
        let grade = (z - last.elevation) / span
        let bulk = inside - 2
        gradeRun += bulk * length
        gradeRise += grade * bulk * length
        gradeMin = min(gradeMin ?? grade, grade)
        gradeMax = max(gradeMax ?? grade, grade)
        func elevation(at d: Double) -> Double {
          last.elevation + (z - last.elevation) * (d - last.distance) / span
        }
        let from = start.distance + bulk * length
        pending = ((from, elevation(at: from)), (from + length, elevation(at: from + length)))
        windowStart = (from + length, elevation(at: from + length))
        continue
      }
      let edge = start.distance + length
      let zEdge = span > 0 ? last.elevation + (z - last.elevation) * (edge - last.distance) / span : z
      closeWindow(start: start, end: (edge, zEdge))
      windowStart = (edge, zEdge)
    }
    lastWithElevation = (to, z)
  }

  private mutating func closeWindow(
    start: (distance: Double, elevation: Double), end: (distance: Double, elevation: Double)
  ) {
    if let p = pending { record(p.start, p.end) }
    pending = (start, end)
  }

  private mutating func record(
    _ start: (distance: Double, elevation: Double), _ end: (distance: Double, elevation: Double)
  ) {
    let run = end.distance - start.distance
    guard run > 0 else { return }
    let grade = (end.elevation - start.elevation) / run
    gradeRun += run
    gradeRise += grade * run
    gradeMin = min(gradeMin ?? grade, grade)
    gradeMax = max(gradeMax ?? grade, grade)
  }

  /// Flushes the smoothing and grade windows of the segment being summed.
  private mutating func flushSegment() {
    // Flush the smoothing window: the last h fixes average what stands
    // around them up to the end.
    let half = max(0, parameters.elevationSmoothingFixes / 2)
    let n = elevationCount
    for i in max(0, n - half)..<max(0, n) { emitSmoothed(meanOfLast(n - max(0, i - half))) }
    // The last grade window: a rest shorter than half a window joins the one before.
    if let last = lastWithElevation, let start = windowStart {
      let rest = last.distance - start.distance
      if rest > 1e-9 {
        if let p = pending, rest < parameters.gradeWindowMeters / 2 {
          record(p.start, last)
          pending = nil
        } else {
          if let p = pending { record(p.start, p.end) }
          pending = nil
          record(start, last)
        }
      }
    }
    if let p = pending {
      record(p.start, p.end)
      pending = nil
    }
  }

  /// The summary of everything added.
  mutating func finish(diagnostics inherited: [Diagnostic], hasWaypoints: Bool) -> TrackSummary {
    flushSegment()
    var diagnostics = inherited
    diagnostics += TimeOrder.diagnostics(
      backwards: backwards, repeated: repeated, location: firstBadLine.map { "\(source):\($0)" } ?? source)
    diagnostics += timeGaps.diagnostics
    if points == 0 {
      if !hasWaypoints {
        diagnostics.append(
          Diagnostic(
            code: "no-points", message: "the file holds no track, route or waypoints", location: source))
      }
    } else if span.start == nil {
      diagnostics.append(
        Diagnostic(
          code: "no-times", message: "fixes carry no time; speeds and durations are unknown", location: source
        ))
    }
    if points >= 2 && fixesWithElevation < 2 {
      diagnostics.append(
        Diagnostic(
          code: "no-elevation", message: "fixes carry no elevation; grade is unknown", location: source))
    }
    if let gap = largestGap,
      gap.meters >= parameters.gapNoteMeters || (gap.seconds ?? 0) >= parameters.gapNoteSeconds
    {
      let how = parameters.joinSegments ? "joined into the path (join_segments)" : "not part of the path"
      let duration = gap.seconds.map { ", \(Fixed.format($0, digits: 0)) s" } ?? ""
      diagnostics.append(
        Diagnostic(
          code: "segment-gap", severity: .note,
          message:
            "\(gapCount) \(gapCount == 1 ? "gap" : "gaps") between segments, \(Fixed.format(gapDistance, digits: 1)) m in all, \(how); the largest \(Fixed.format(gap.meters, digits: 1)) m\(duration) before line \(gap.line)",
          location: "\(source):\(gap.line)"))
    }
    let duration: Double? = if let start = span.start, let end = span.end { end - start } else { nil }
    return TrackSummary(
      source: source, points: points, startSecondsSince1970: span.start, endSecondsSince1970: span.end,
      durationSeconds: duration, movingTimeSeconds: span.start != nil ? moving : nil,
      distance2DMeters: distance2D,
      distance3DMeters: distance3D, elevationGainMeters: sawElevationChange ? gain : nil,
      elevationLossMeters: sawElevationChange ? loss : nil,
      averageSpeedMetersPerSecond: duration.flatMap { $0 > 0 ? distance2D / $0 : nil },
      maxSpeedMetersPerSecond: maxSpeed,
      gradeMeanFraction: gradeRun > 0 ? gradeRise / gradeRun : nil, gradeMinFraction: gradeMin,
      gradeMaxFraction: gradeMax,
      heartRateMeanBeatsPerMinute: span.heartRateCount > 0
        ? span.heartRateSum / Double(span.heartRateCount) : nil,
      heartRateMaxBeatsPerMinute: span.heartRateMax, diagnostics: diagnostics,
      elevationGainSmoothedMeters: sawElevationChange ? smoothedGain : nil,
      elevationLossSmoothedMeters: sawElevationChange ? smoothedLoss : nil,
      elevationGainHysteresisMeters: sawElevationChange ? hysteresisGain : nil,
      elevationLossHysteresisMeters: sawElevationChange ? hysteresisLoss : nil,
      robustMaxSpeedMetersPerSecond: robustMaxSpeed, heartRateCount: span.heartRateCount,
      gapCount: gapCount, gapDistanceMeters: gapDistance,
      gapDurationSeconds: gapCount == 0 ? 0 : sawGapDuration ? gapDuration : nil)
  }
}

/// First and last time and the heart rate of fixes, one at a time.
struct TimeAndHeartRate: Sendable {
  private(set) var start: Double?
  private(set) var end: Double?
  private(set) var heartRateSum = 0.0
  private(set) var heartRateCount = 0
  private(set) var heartRateMax: Double?

  mutating func add(_ p: TrackPoint) {
    if let t = p.timeSecondsSince1970 {
      start = min(start ?? t, t)
      end = max(end ?? t, t)
    }
    if let hr = p.heartRateBeatsPerMinute {
      heartRateSum += hr
      heartRateCount += 1
      heartRateMax = max(heartRateMax ?? hr, hr)
    }
  }
}
