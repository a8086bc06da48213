import EnergyLabCore

/// How recorded elevation is cleaned before gain, loss and grade are
/// taken from it.
public struct ElevationCleaning: Sendable, Hashable {
  public enum Method: String, Sendable, Hashable, CaseIterable {
    /// Gain and loss as `cleaned` where the recorded elevation jitters
    /// (more than `jitterShare` of its consecutive changes reverse
    /// direction: 0.2 m altimeter steps, GPS noise), else as `recorded`
    /// (a device that smoothed its elevation before writing it: Garmin
    /// Edge 500, Coros Pace 2, 0.01-0.05 of changes reverse). Grade always
    /// comes from the cleaned elevation.
    case auto
    /// A running median over `medianFixes` fixes (removes spikes), then a
    /// centred moving average over `meanSeconds` of time (removes the
    /// jitter of 0.2 m altimeter steps and GPS noise); gain and loss count
    /// changes of at least `hysteresisMeters`.
    case cleaned
    /// Elevation as the file holds it; gain and loss sum every change
    /// between fixes with a position (as gpxpy), jumps included.
    case recorded
  }

  public var method = Method.auto
  /// Fixes in the running median (odd; centred).
  public var medianFixes = 7
  /// Width of the centred moving average, s.
  public var meanSeconds = 10.0
  /// Smallest change of the cleaned elevation that counts towards gain
  /// or loss, m.
  public var hysteresisMeters = 0.5
  /// Share of consecutive recorded changes that reverse direction above
  /// which `auto` cleans (Edge 810 0.26, fenix 2 0.29-0.38, 920XT 0.60
  /// against Edge 500 0.02, Coros 0.02, Edge 200 0.11).
  public var jitterShare = 0.15
  /// Vertical speed above which a change between consecutive fixes is a
  /// jump of the sensor, not climbing, m/s: 25 m/s (90 km/h straight up
  /// or down) is beyond anything on foot, wheel or ski outside free fall,
  /// while a barometric altimeter settling at the start of a recording
  /// jumps 80-90 m in 1-2 s (fenix 2). A jump is taken out of the series
  /// (the fixes after it shifted by it), so it adds neither gain, loss
  /// nor grade. `recorded` keeps jumps.
  public var jumpMetersPerSecond = 25.0

  public init() {}

  public var described: [NamedParameter] {
    var out = [
      NamedParameter(
        name: "elevation_method", value: method.rawValue,
        meaning:
          "auto: cleaned where the recorded elevation jitters, else as recorded; cleaned: running median, then a centred time average, then a hysteresis; recorded: as the file holds it"
      )
    ]
    if method == .auto {
      out.append(
        NamedParameter(
          name: "elevation_jitter_share", value: Fixed.shortest(jitterShare),
          meaning: "share of reversing changes above which auto cleans the gain and loss"))
    }
    if method != .recorded {
      out += [
        NamedParameter(
          name: "elevation_median_fixes", value: String(medianFixes),
          meaning: "fixes in the running median that removes elevation spikes"),
        NamedParameter(
          name: "elevation_mean_s", value: Fixed.shortest(meanSeconds),
          meaning: "width of the centred moving average of elevation, s"),
        NamedParameter(
          name: "elevation_gain_hysteresis_m", value: Fixed.shortest(hysteresisMeters),
          meaning: "smallest change of cleaned elevation counted in gain and loss, m"),
        NamedParameter(
          name: "elevation_jump_m_per_s", value: Fixed.shortest(jumpMetersPerSecond),
          meaning:
            "vertical speed between consecutive fixes above which a change is a sensor jump taken out of the series, m/s"
        ),
      ]
    }
    return out
  }
}

/// Cleans the elevation of a stream of fixes in file order, in bounded
/// memory: each path fix (track or route) with an elevation, and each
/// time-only fix with one (a barometric altimeter records elevation
/// before the GPS has a position: an Edge 500 loses 54 m of descent
/// without them), is handed on
/// with its cleaned elevation once the fixes its windows need have
/// arrived; every other fix is handed on in its place in the order.
/// Windows never cross a segment or a change of fix kind.
///
/// ```
/// z_i  -= every jump before i: |z_j - z_(j-1)| > 25 m/s * max(1 s, dt)
/// m_i = median of z_(i-3) ... z_(i+3)           (7 fixes of the segment)
/// c_i = mean of m_j over |t_j - t_i| <= 5 s      (10 s centred; by fix
///                                                 when times are missing)
/// gain: c rises by >= 0.5 m from the last counted level (hysteresis)
/// ```
///
/// Chosen on the shared FIT files' barometric totals
/// (`Benchmarks/climbing.py`): the Edge 810 records altitude in
/// 0.2 m steps with a jitter that sums to 835 m where the device counts
/// 514 m; cleaned, 506 m.
public struct ElevationCleaner: Sendable {
  public let parameters: ElevationCleaning
  /// Tallies of the track fixes and of the route points: the path is the
  /// track, or the route when the file has no track fix.
  private var trackTally = ElevationTally()
  private var routeTally = ElevationTally()
  private var sawTrack = false
  /// Gain and loss of the path.
  public var tally: ElevationTally { sawTrack ? trackTally : routeTally }

  private var queue: [TrackPoint] = []
  private var head = 0
  /// Cleaned elevation by queue position, for path fixes.
  private var cleaned: [Double?] = []
  private var participant: [Bool] = []
  // The current group (kind and segment) of path fixes.
  private var group: (kind: FixKind, segment: Int32)?
  private var memberPosition: [Int] = []
  private var memberTime: [Double?] = []
  private var memberRaw: [Double] = []
  private var memberMedian: [Double] = []
  private var nextMedian = 0
  private var nextMean = 0
  /// Index of the group's first member (history before it let go) and its
  /// time.
  private var memberFirst = 0
  private var firstTime: Double?
  private var lastRaw: Double?
  private var lastSign: Double?
  /// The last elevation of a fix with a position, for the recorded sums
  /// (as gpxpy takes them: fixes without a position are not in a track).
  private var lastPositioned: Double?
  private var level: Double?
  /// The group's last recorded elevation and its time, to find jumps, and
  /// the sum of the jumps so far taken out of the series.
  private var previousElevation: Double?
  private var previousTime: Double?
  private var offset = 0.0

  public init(parameters: ElevationCleaning = ElevationCleaning()) { self.parameters = parameters }

  public mutating func add(_ p: TrackPoint, emit: (TrackPoint) -> Void) {
    // Time-only fixes (a record without a position) belong to the
    // track's elevation series.
    let series: FixKind? =
      switch p.kind {
      case .track, .timeOnly: .track
      case .route: .route
      case .waypoint: nil
      }
    if p.kind == .track || (p.kind == .timeOnly && p.elevationMeters != nil) { sawTrack = true }
    let isPath = series != nil && p.elevationMeters != nil
    if let series, p.elevationMeters == nil, group?.kind == series, group?.segment == p.segment {
      // A fix without elevation breaks the recorded sum (as gpxpy sums),
      // not the cleaning windows.
      lastRaw = nil
      lastSign = nil
      if p.kind != .timeOnly { lastPositioned = nil }
    }
    if let series, let z = p.elevationMeters {
      if let g = group, g.kind != series || g.segment != p.segment {
        close()
      }
      if group == nil { group = (series, p.segment) }
      var tally = series == .route ? routeTally : trackTally
      tally.fixes += 1
      if parameters.method != .recorded, let previous = previousElevation {
        var dt = 1.0
        if let t = p.timeSecondsSince1970, let t0 = previousTime { dt = t - t0 }
        let change = z - previous
        if abs(change) > parameters.jumpMetersPerSecond * max(1, dt) {
          offset -= change
          tally.jumps += 1
          if lastRaw != nil {
            if change > 0 { tally.jumpGainMeters += change } else { tally.jumpLossMeters -= change }
          }
        }
      }
      previousElevation = z
      previousTime = p.timeSecondsSince1970
      if p.kind != .timeOnly {
        if let last = lastPositioned, z > last { tally.recordedGainMeters += z - last }
        if let last = lastPositioned, z < last { tally.recordedLossMeters += last - z }
        lastPositioned = z
      }
      if let last = lastRaw, z != last {
        if z > last { tally.seriesGainMeters += z - last } else { tally.seriesLossMeters += last - z }
        let sign: Double = z > last ? 1 : -1
        if let s = lastSign {
          tally.changes += 1
          if s != sign { tally.reversals += 1 }
        }
        lastSign = sign
      }
      if series == .route { routeTally = tally } else { trackTally = tally }
      lastRaw = z
      memberPosition.append(queue.count)
      memberTime.append(p.timeSecondsSince1970)
      memberRaw.append(z + offset)
      if memberRaw.count == 1 { firstTime = p.timeSecondsSince1970 }
    }
    queue.append(p)
    cleaned.append(nil)
    participant.append(isPath && parameters.method != .recorded)
    if parameters.method != .recorded {
      advance(closed: false)
    } else if series != nil, let z = p.elevationMeters {
      count(z)
    }
    flush(emit)
  }

  public mutating func finish(emit: (TrackPoint) -> Void) {
    close()
    flush(emit)
    let method = parameters.method
    let jitter = parameters.jitterShare
    for kind in [FixKind.track, .route] {
      update(kind) { tally in
        switch method {
        case .recorded:
          tally.usesCleaned = false
          tally.usesSeries = false
        case .cleaned: tally.usesCleaned = true
        case .auto: tally.usesCleaned = (tally.reversalShare ?? 0) > jitter
        }
      }
    }
  }

  private mutating func update(_ kind: FixKind, _ change: (inout ElevationTally) -> Void) {
    if kind == .route { change(&routeTally) } else { change(&trackTally) }
  }

  private mutating func close() {
    if parameters.method != .recorded { advance(closed: true) }
    group = nil
    memberPosition.removeAll(keepingCapacity: true)
    memberTime.removeAll(keepingCapacity: true)
    memberRaw.removeAll(keepingCapacity: true)
    memberMedian.removeAll(keepingCapacity: true)
    nextMedian = 0
    nextMean = 0
    memberFirst = 0
    firstTime = nil
    lastRaw = nil
    lastSign = nil
    lastPositioned = nil
    level = nil
    previousElevation = nil
    previousTime = nil
    offset = 0
  }

  private mutating func count(_ z: Double) {
    guard let l = level else {
      level = z
      return
    }
    let h = parameters.method == .recorded ? 0 : parameters.hysteresisMeters
    let kind = group?.kind ?? .track
    if z - l >= h && z > l {
      update(kind) { $0.gainMeters += z - l }
      level = z
    } else if l - z >= h && z < l {
      update(kind) { $0.lossMeters += l - z }
      level = z
    }
  }

  private mutating func advance(closed: Bool) {
    let half = max(0, parameters.medianFixes / 2)
    let n = memberRaw.count
    while nextMedian < n && (closed || n - 1 - nextMedian >= half) {
      // Symmetric: near the ends of a segment the window shrinks on both
      // sides, so a steady climb keeps its grade to the last fix.
      let w = min(half, nextMedian - memberFirst, n - 1 - nextMedian)
      let window = memberRaw[(nextMedian - w)...(nextMedian + w)].sorted()
      let c = window.count
      memberMedian.append(c % 2 == 1 ? window[c / 2] : (window[c / 2 - 1] + window[c / 2]) / 2)
      nextMedian += 1
    }
    let reach = parameters.meanSeconds / 2
    while nextMean < nextMedian {
      var value = memberMedian[nextMean]
      if let t = memberTime[nextMean] {
        // The window's right end must be known: a later fix beyond it has
        // its median, or the group is closed.
        let lastKnown = memberTime[nextMedian - 1]
        guard closed && nextMedian == n || (lastKnown.map { $0 > t + reach } ?? false) else { break }
        // Symmetric about t: shortened at the ends of the segment.
        var reach = reach
        if let first = firstTime { reach = min(reach, t - first) }
        if closed && nextMedian == n, let last = lastKnown { reach = min(reach, last - t) }
        var sum = 0.0
        var count = 0
        var j = nextMean
        while j >= 0, let tj = memberTime[j], tj >= t - reach {
          sum += memberMedian[j]
          count += 1
          j -= 1
        }
        j = nextMean + 1
        while j < nextMedian, let tj = memberTime[j], tj <= t + reach {
          sum += memberMedian[j]
          count += 1
          j += 1
        }
        value = sum / Double(count)
      }
      cleaned[memberPosition[nextMean]] = value
      count(value)
      nextMean += 1
    }
    // History older than any window still open is let go.
    let keep = max(0, min(nextMedian - half, nextMean) - 1)
    var from = keep
    if let t = nextMean < n ? memberTime[nextMean] : nil {
      while from > 0, let tf = memberTime[from - 1], tf >= t - reach { from -= 1 }
    }
    if from > 4096 {
      memberPosition.removeFirst(from)
      memberTime.removeFirst(from)
      memberRaw.removeFirst(from)
      memberMedian.removeFirst(from)
      nextMedian -= from
      nextMean -= from
      memberFirst -= from
    }
  }

  private mutating func flush(_ emit: (TrackPoint) -> Void) {
    while head < queue.count {
      if participant[head] {
        guard let z = cleaned[head] else { break }
        var p = queue[head]
        p.elevationMeters = z
        emit(p)
      } else {
        emit(queue[head])
      }
      head += 1
    }
    if head > 4096 && head * 2 > queue.count {
      queue.removeFirst(head)
      cleaned.removeFirst(head)
      participant.removeFirst(head)
      for k in memberPosition.indices { memberPosition[k] -= head }
      head = 0
    }
  }
}
