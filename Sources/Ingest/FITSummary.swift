import EnergyLabCore

/// Where a FIT stream ends before the end its last header declares.
public struct FITTruncation: Sendable, Hashable {
  /// Offset just past the last byte there is.
  public var endOffset: Int
  /// What was being read when the bytes ran out (`a record header`).
  public var what: String
  /// Where the header of the file being read says its CRC ends (header,
  /// data, 2-byte CRC); nil when the stream ends inside that header.
  public var declaredEndOffset: Int?
  /// End of the last whole message or header read: what follows is left
  /// out.
  public var lastWholeEndOffset: Int
  /// Where the message being read would end, when it runs past the data
  /// the header declares (a header that counts the bytes written before
  /// the recording stopped); nil otherwise.
  public var overrunEndOffset: Int?

  /// Bytes missing against the header's data size and the 2-byte CRC
  /// after it (or, for a message running past the declared data, against
  /// that message's end and a CRC after it); nil when the stream ends
  /// inside a header.
  public var missingBytes: Int? {
    declaredEndOffset.map { max($0, (overrunEndOffset ?? 0) + 2) - endOffset }
  }
}

/// What a FIT activity file says of itself apart from its records: its
/// sessions and their totals, laps, the wearer's profile, the devices, and
/// how the file was built.
public struct FITSummary: Sendable, Hashable {
  /// The headers of the files read, in order: one, or several for a
  /// chained file.
  public var files: [FITFileHeader] = []
  /// `file_id.type` of the first file (4 activity, 2 settings, ...).
  public var fileType: Int?
  /// The device that wrote the file (`file_id`).
  public var creator: FITDevice?
  /// `file_id.time_created`, s since 1970.
  public var timeCreatedSecondsSince1970: Double?
  /// `session` messages, in file order.
  public var sessions: [FITSession] = []
  /// `lap` messages.
  public var lapCount: Int { laps.count }
  /// `lap` messages, in file order: the device's own account of each lap.
  public var laps: [DeviceLap] = []
  /// `record` messages, with or without a position.
  public var recordCount = 0
  /// The first `user_profile` message.
  public var userProfile: FITUserProfile?
  /// `device_info` messages that name a manufacturer or product, in file
  /// order (a device reports itself several times).
  public var devices: [FITDevice] = []
  /// `sport` messages: the activity the device was set to, as
  /// `sport` or `sport/sub_sport`.
  public var sports: [String] = []
  /// Timer restarts after a stop (`event` timer stop, then start) that
  /// began a new path segment.
  public var timerPauses = 0
  /// Developer data field values skipped by their declared size.
  public var developerFieldCount = 0
  /// Messages whose time came from a compressed timestamp header.
  public var compressedTimestampCount = 0
  /// Where the stream ends early, for a file read with
  /// `FITReader.readTruncated`; nil when it ends where its headers say.
  public var truncation: FITTruncation?

  public init() {}

  /// The sessions prepared for `FITSessionLookup`, which finds the session
  /// a time belongs to: the one whose span (`start_time` to its
  /// `timestamp`, else to start + `total_elapsed_time`) holds it, else the
  /// one nearest in time; unknown times go to the first session.
  public var sessionLookup: FITSessionLookup { FITSessionLookup(sessions) }

  /// `track` with a new path segment wherever consecutive fixes (track and
  /// time-only, in record order) belong to different sessions, and each
  /// segment declaring its session's sport.
  ///
  /// The reader hands fixes over before it meets the sessions, which
  /// devices may write at the end of the file (Garmin Fenix 2 multisport:
  /// seven sessions after all records); this splits the legs once the
  /// whole track is in hand. A track without sessions is returned as is.
  public func splittingSegmentsBySession(_ track: Track) -> Track {
    guard !sessions.isEmpty else { return track }
    // Fixes of both kinds in record order (sourceLine is the record ordinal).
    var order: [(line: Int, timeOnly: Bool, index: Int)] = []
    order.reserveCapacity(track.points.count + track.timeOnlyPoints.count)
    for (i, p) in track.points.enumerated() { order.append((p.sourceLine, false, i)) }
    for (i, p) in track.timeOnlyPoints.enumerated() { order.append((p.sourceLine, true, i)) }
    order.sort { $0.line < $1.line }
    var out = track
    var declared: [Int32: String] = [:]
    var segment: Int32 = -1
    var last: (segment: Int32, session: Int?)?
    let lookup = sessionLookup
    for entry in order {
      let p = entry.timeOnly ? track.timeOnlyPoints[entry.index] : track.points[entry.index]
      let session = lookup.index(at: p.timeSecondsSince1970)
      if last.map({ $0.segment != p.segment || $0.session != session }) ?? true {
        segment += 1
        if let session, let sport = sessions[session].declaredSport { declared[segment] = sport }
      }
      last = (p.segment, session)
      if entry.timeOnly {
        out.timeOnlyPoints[entry.index].segment = segment
      } else {
        out.points[entry.index].segment = segment
      }
    }
    out.declaredSportBySegment = declared
    out.structure.segments = Int(segment + 1)
    return out
  }

  /// Sum of the sessions' `total_distance`, m; nil when none states one.
  public var totalDistanceMeters: Double? {
    let values = sessions.compactMap(\.totalDistanceMeters)
    return values.isEmpty ? nil : values.reduce(0, +)
  }
}

/// One `session` of a FIT activity: a continuous activity of one sport (a
/// multisport file holds one per leg and transition).
///
/// Units as the FIT Profile defines them: times in s (scale 1000 on the
/// wire), distance in m (scale 100), work in J, energy in kcal, power in W.
public struct FITSession: Sendable, Hashable {
  /// `sport` by its Profile name (`running`, `cycling`, ...), or its
  /// number as text when the reader does not know the name.
  public var sport: String?
  /// `sub_sport` by its Profile name (`generic`, `indoor_cycling`, ...).
  public var subSport: String?
  /// `start_time`, s since 1970.
  public var startSecondsSince1970: Double?
  /// The message's `timestamp` (when the session ended), s since 1970.
  public var endSecondsSince1970: Double?
  /// `total_elapsed_time`: from start to end, pauses included, s.
  public var totalElapsedSeconds: Double?
  /// `total_timer_time`: time the timer ran, pauses excluded, s.
  public var totalTimerSeconds: Double?
  /// `total_distance`, m.
  public var totalDistanceMeters: Double?
  /// `total_work`: mechanical work measured by a power meter, J.
  public var totalWorkJoules: Double?
  /// `total_calories`: the device's own estimate of energy expended, kcal
  /// (an estimate, not a measurement).
  public var totalEnergyKilocalories: Double?
  /// `avg_power`, W.
  public var averagePowerWatts: Double?
  /// `max_power`, W.
  public var maxPowerWatts: Double?
  /// `avg_heart_rate`, bpm.
  public var averageHeartRateBeatsPerMinute: Double?
  /// `max_heart_rate`, bpm.
  public var maxHeartRateBeatsPerMinute: Double?
  /// `normalized_power`: the device's Normalized Power, W.
  public var normalizedPowerWatts: Double?
  /// `training_stress_score` (scale 10).
  public var trainingStressScore: Double?
  /// `intensity_factor` (scale 1000).
  public var intensityFactor: Double?
  /// `threshold_power`: the functional threshold power the device was
  /// set to, W.
  public var thresholdPowerWatts: Double?
  /// `total_ascent`: the device's climb, m (barometric on units with a
  /// barometer).
  public var totalAscentMeters: Double?
  /// `total_descent`, m.
  public var totalDescentMeters: Double?

  public init() {}

  /// The declared activity as track segments carry it: `sport`, or
  /// `sport/sub_sport` when the sub-sport is other than `generic`.
  public var declaredSport: String? {
    guard let sport else { return nil }
    guard let subSport, subSport != "generic" else { return sport }
    return "\(sport)/\(subSport)"
  }
}

/// The wearer as the device knows them (`user_profile`).
public struct FITUserProfile: Sendable, Hashable {
  /// `gender`: 0 female, 1 male.
  public var sex: Sex?
  /// `age`, years.
  public var ageYears: Double?
  /// `height` (scale 100), m.
  public var heightMeters: Double?
  /// `weight` (scale 10), kg.
  public var bodyMassKilograms: Double?
  /// `resting_heart_rate`, bpm.
  public var restingHeartRateBeatsPerMinute: Double?
  /// `default_max_heart_rate`, bpm.
  public var maxHeartRateBeatsPerMinute: Double?

  public init() {}

  /// The profile as a study subject with the given identifier.
  public func subject(id: String) -> Subject {
    Subject(
      id: id, bodyMassKilograms: bodyMassKilograms, ageYears: ageYears, sex: sex, heightMeters: heightMeters)
  }
}

/// A device named in a FIT file (`file_id` for the file's creator,
/// `device_info` for it and its sensors).
public struct FITDevice: Sendable, Hashable {
  /// `device_index` (0 is the creator); nil in `file_id`.
  public var deviceIndex: Int?
  /// `manufacturer` by its Profile name (`garmin`, `wahoo_fitness`), or its
  /// number as text.
  public var manufacturer: String?
  /// `product`: the manufacturer's product number.
  public var product: Int?
  /// `product_name`, when written.
  public var productName: String?
  /// `serial_number`.
  public var serialNumber: Int?
  /// `software_version` (scale 100).
  public var softwareVersion: Double?

  public init() {}
}

/// The session of a time among a file's sessions, found in logarithmic
/// time after one sort: the first session (in file order) whose span
/// `[start, end]` holds the time, else the nearest (the first of equally
/// near ones), else the first. A session's end is its `timestamp`, else
/// start + `total_elapsed_time`, else its start; an end before the start
/// is taken as the start. Sessions without a start are never chosen but
/// by default. (A scan of every session for every fix made a file of
/// 100,000 records and 100,000 sessions take a minute.)
public struct FITSessionLookup: Sendable {
  public let count: Int
  /// Distinct span ends, ascending; for each, the first session holding
  /// that instant and the first holding the open interval after it (-1:
  /// none).
  private var boundaries: [Double] = []
  private var firstAt: [Int] = []
  private var firstAfter: [Int] = []
  /// Spans by end (ascending; of equal ends, the first session last) and
  /// by start (ascending; of equal starts, the first session first).
  private var byEnd: [(end: Double, index: Int)] = []
  private var byStart: [(start: Double, index: Int)] = []

  public init(_ sessions: [FITSession]) {
    count = sessions.count
    var spans: [(start: Double, end: Double, index: Int)] = []
    for (i, s) in sessions.enumerated() {
      guard let start = s.startSecondsSince1970, start.isFinite else { continue }
      var end = s.endSecondsSince1970 ?? s.totalElapsedSeconds.map { start + $0 } ?? start
      if !(end >= start) { end = start }
      spans.append((start, end, i))
    }
    guard !spans.isEmpty else { return }
    byStart = spans.map { ($0.start, $0.index) }.sorted {
      $0.start != $1.start ? $0.start < $1.start : $0.index < $1.index
    }
    byEnd = spans.map { ($0.end, $0.index) }.sorted {
      $0.end != $1.end ? $0.end < $1.end : $0.index > $1.index
    }
    var points = spans.flatMap { [$0.start, $0.end] }
    points.sort()
    for p in points where boundaries.last != p { boundaries.append(p) }
    // Sweep the boundaries with the open spans in a heap ordered by
    // session; spans that have ended leave when they reach the top.
    var heap = MinHeap()
    var next = 0
    let starts = spans.sorted { $0.start < $1.start }
    firstAt.reserveCapacity(boundaries.count)
    firstAfter.reserveCapacity(boundaries.count)
    for p in boundaries {
      while next < starts.count && starts[next].start == p {
        heap.push((starts[next].index, starts[next].end))
        next += 1
      }
      while let top = heap.top, top.end < p { heap.pop() }
      firstAt.append(heap.top?.index ?? -1)
      while let top = heap.top, top.end <= p { heap.pop() }
      firstAfter.append(heap.top?.index ?? -1)
    }
  }

  /// The session of time `t` (seconds since 1970), nil without sessions.
  public func index(at t: Double?) -> Int? {
    guard count > 0 else { return nil }
    guard let t, !boundaries.isEmpty else { return 0 }
    // The last boundary at or before t.
    let k = Self.partition(boundaries.count) { boundaries[$0] <= t } - 1
    if k >= 0 {
      let holding = boundaries[k] == t ? firstAt[k] : firstAfter[k]
      if holding >= 0 { return holding }
    }
    // None holds t: the nearest ends before it or starts after it.
    let e = Self.partition(byEnd.count) { byEnd[$0].end < t } - 1
    let s = Self.partition(byStart.count) { byStart[$0].start <= t }
    let before = e >= 0 ? (index: byEnd[e].index, away: t - byEnd[e].end) : nil
    let after = s < byStart.count ? (index: byStart[s].index, away: byStart[s].start - t) : nil
    switch (before, after) {
    case (let b?, let a?):
      if b.away != a.away { return b.away < a.away ? b.index : a.index }
      return min(b.index, a.index)
    case (let b?, nil): return b.index
    case (nil, let a?): return a.index
    case (nil, nil): return 0
    }
  }

  /// The number of leading positions of `0..<n` for which `isLow` holds
  /// (`isLow` true then false along the range).
  private static func partition(_ n: Int, _ isLow: (Int) -> Bool) -> Int {
    var lo = 0
    var hi = n
    while lo < hi {
      let mid = (lo + hi) / 2
      if isLow(mid) { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// A binary min-heap of open spans by session index.
  private struct MinHeap {
    private var items: [(index: Int, end: Double)] = []
    var top: (index: Int, end: Double)? { items.first }

    mutating func push(_ item: (index: Int, end: Double)) {
      items.append(item)
      var c = items.count - 1
      while c > 0 {
        let parent = (c - 1) / 2
        guard items[c].index < items[parent].index else { break }
        items.swapAt(c, parent)
        c = parent
      }
    }

    mutating func pop() {
      guard !items.isEmpty else { return }
      items.swapAt(0, items.count - 1)
      items.removeLast()
      var p = 0
      while true {
        let l = 2 * p + 1
        let r = l + 1
        var m = p
        if l < items.count && items[l].index < items[m].index { m = l }
        if r < items.count && items[r].index < items[m].index { m = r }
        guard m != p else { break }
        items.swapAt(p, m)
        p = m
      }
    }
  }
}
