import EnergyLabCore
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// A column of `track power`, declared once: the printed table and the
/// stored rows are both made from this list, so a figure has one name, one
/// unit and one number of digits wherever it appears.
public struct PowerColumn: Sendable, Hashable {
  /// The stored name, without a unit.
  public var name: String
  /// The stored unit (`W`, `kJ`, `s`, `count`, `ratio`, `m`, `bpm`).
  public var unit: String
  /// The printed key's unit suffix (`w` in `np_w`); nil for none.
  public var suffix: String?
  public var digits: Int
  public var number: Double?
  public var text: String?
  /// Words (a file, a lap, a source), not a number: printed, not stored.
  public var isText = false

  init(_ name: String, _ unit: String, _ suffix: String?, _ number: Double?, digits: Int) {
    self.name = name
    self.unit = unit
    self.suffix = suffix
    self.digits = digits
    self.number = number.flatMap { $0.isFinite ? $0 : nil }
  }

  init(_ name: String, text: String?) {
    self.name = name
    unit = ""
    digits = 0
    self.text = text
    isText = true
  }

  /// The printed key: the name and its unit's suffix.
  public var key: String { suffix.map { "\(name)_\($0)" } ?? name }

  var value: ResultValue {
    if isText { return text.map { .string($0) } ?? .null }
    if unit == "count" { return number.map { .integer(Int($0)) } ?? .null }
    return .number(number, digits)
  }

  static func watts(_ name: String, _ v: Double?, digits: Int = 1) -> PowerColumn {
    PowerColumn(name, "W", "w", v, digits: digits)
  }
  static func seconds(_ name: String, _ v: Double?, digits: Int = 0) -> PowerColumn {
    PowerColumn(name, "s", "s", v, digits: digits)
  }
  static func ratio(_ name: String, _ v: Double?, digits: Int = 3) -> PowerColumn {
    PowerColumn(name, "ratio", nil, v, digits: digits)
  }
  static func count(_ name: String, _ v: Int?) -> PowerColumn {
    PowerColumn(name, "count", nil, v.map(Double.init), digits: 0)
  }
}

/// `track power`: Normalized Power, IF, TSS, variability index, work, mean
/// and maximal power and time in zones, for each file and each of its laps.
public enum PowerCommand {
  /// One row: a whole activity (`lap` nil) or one lap.
  public struct Row: Sendable, Hashable {
    public var file: String
    /// 1-based lap; nil for the whole activity.
    public var lap: Int?
    public var summary: PowerSummary
    /// Path distance over the positions of the stretch, m; nil without.
    public var distanceMeters: Double?
    /// Where the FTP came from: `stated`, `file` or nil (none).
    public var ftpSource: String?
    /// The device's own figures for the stretch.
    public var device: DeviceFigures
  }

  /// What the device wrote for an activity (its session) or a lap.
  public struct DeviceFigures: Sendable, Hashable {
    public var normalizedPowerWatts: Double?
    public var intensityFactor: Double?
    public var trainingStressScore: Double?
    public var thresholdPowerWatts: Double?
    public var workJoules: Double?
    public var averagePowerWatts: Double?
    public var distanceMeters: Double?
    public var elapsedSeconds: Double?
    public init() {}
  }

  /// The rides' rows, what the command read and noticed.
  public struct Result: Sendable {
    public var rows: [Row]
    public var inputs: [String]
    public var parameters: [NamedParameter]
    public var diagnostics: [Diagnostic]
    public var failures: Int
  }

  /// Every column of a row, in printed order.
  public static func columns(of row: Row, zones: Int) -> [PowerColumn] {
    let s = row.summary
    let d = row.device
    var out: [PowerColumn] = [
      .init("file", text: row.file),
      .init("lap", text: row.lap.map { String($0) } ?? "all"),
      .init("start_time", text: s.startSecondsSince1970.map { ISO8601.formatUTC($0) }),
      .seconds(
        "duration",
        s.startSecondsSince1970.flatMap { a in s.endSecondsSince1970.map { $0 - a } }, digits: 0),
      PowerColumn("distance", "m", "m", row.distanceMeters, digits: 1),
      .count("records", s.records), .count("power_samples", s.samples),
      .count("missing_as_zero", s.missingAsZero), .count("missing_skipped", s.missingSkipped),
      PowerColumn("work", "kJ", "kj", s.workJoules.map { $0 / 1000 }, digits: 1),
      .watts("mean_power", s.meanPowerWatts), .watts("max_power", s.maxPowerWatts, digits: 0),
      .watts("np", s.normalizedPowerWatts), .ratio("vi", s.variabilityIndex),
      .watts("ftp", s.ftpWatts, digits: 0), .init("ftp_source", text: row.ftpSource),
      .ratio("if", s.intensityFactor), PowerColumn("tss", "tss", nil, s.trainingStressScore, digits: 1),
      .seconds("tss_duration", s.tssDurationSeconds),
      PowerColumn("hr_mean", "bpm", "bpm", s.heartRateMeanBeatsPerMinute, digits: 1),
      PowerColumn("hr_max", "bpm", "bpm", s.heartRateMaxBeatsPerMinute, digits: 0),
    ]
    for z in 0..<zones {
      out.append(.seconds("zone\(z + 1)", z < s.secondsInZones.count ? s.secondsInZones[z] : nil))
    }
    out += [
      .watts("device_np", d.normalizedPowerWatts, digits: 0), .ratio("device_if", d.intensityFactor),
      PowerColumn("device_tss", "tss", nil, d.trainingStressScore, digits: 1),
      .watts("device_ftp", d.thresholdPowerWatts, digits: 0),
      PowerColumn("device_work", "kJ", "kj", d.workJoules.map { $0 / 1000 }, digits: 1),
      .watts("device_mean_power", d.averagePowerWatts, digits: 0),
      PowerColumn("device_distance", "m", "m", d.distanceMeters, digits: 1),
      .seconds("device_duration", d.elapsedSeconds, digits: 1),
    ]
    return out
  }

  /// The printed record of a row.
  public static func record(_ row: Row, zones: Int) -> ResultRecord {
    var out = ResultRecord()
    for c in columns(of: row, zones: zones) { out[c.key] = c.value }
    return out
  }

  /// The stored rows of a row: each number under its name, its unit in its
  /// own column; the subject is `file` or `file#lap`.
  public static func storedRows(_ row: Row, zones: Int) -> [ResultRow] {
    let subject = row.lap.map { "\(row.file)#\($0)" } ?? row.file
    return columns(of: row, zones: zones).filter { !$0.isText }.map {
      ResultRow(subject: subject, metric: $0.name, value: $0.number, unit: $0.unit)
    }
  }

  /// The rows of one ride: the whole activity, then each lap the file
  /// declares. `ftpWatts` is the stated FTP; else the file's own
  /// (`threshold_power`); else none, with a diagnostic.
  public static func ride(
    file: String, parameters: PowerParameters, ftpWatts: Double?, trackParameters: TrackAnalysisParameters,
    defaultTimeZone: TimeZone? = nil
  ) throws -> (rows: [Row], diagnostics: [Diagnostic]) {
    let (track, header) = try TrackCommands.readTrackAndHeader(
      file, parameters: trackParameters, defaultTimeZone: defaultTimeZone)
    var diagnostics = track.diagnostics
    let samples = PowerSample.samples(of: track)
    let sessions = header.fit?.sessions ?? []
    let deviceFTP = sessions.lazy.compactMap(\.thresholdPowerWatts).first
    let ftp = ftpWatts ?? deviceFTP
    let source: String? = ftpWatts != nil ? "stated" : deviceFTP != nil ? "file" : nil
    if !samples.contains(where: { $0.powerWatts != nil }) {
      diagnostics.append(
        Diagnostic(
          code: "no-power", message: "no record carries power: every power figure is unknown", location: file)
      )
    } else if ftp == nil {
      diagnostics.append(
        Diagnostic(
          code: "no-ftp", severity: .note,
          message:
            "no FTP was stated and the file carries none (session threshold_power): IF, TSS and power zones are unknown",
          location: file))
    }
    let analysis = PowerAnalysis(parameters: parameters)
    var device = DeviceFigures()
    if sessions.count == 1, let s = sessions.first {
      device.normalizedPowerWatts = s.normalizedPowerWatts
      device.intensityFactor = s.intensityFactor
      device.trainingStressScore = s.trainingStressScore
      device.thresholdPowerWatts = s.thresholdPowerWatts
      device.workJoules = s.totalWorkJoules
      device.averagePowerWatts = s.averagePowerWatts
      device.distanceMeters = s.totalDistanceMeters
      device.elapsedSeconds = s.totalElapsedSeconds
    }
    // Laps: a record belongs to the lap whose start it follows, up to the
    // next lap's start.
    let laps = header.laps
    let starts = laps.map(\.startSecondsSince1970)
    var stretches: [Range<Int>] = []
    if !laps.isEmpty && starts.allSatisfy({ $0 != nil }) {
      var i = 0
      for k in laps.indices {
        let a = i
        if k + 1 < laps.count, let next = starts[k + 1] {
          while i < samples.count && (samples[i].timeSecondsSince1970.map { $0 < next } ?? true) { i += 1 }
        } else {
          i = samples.count
        }
        stretches.append(a..<i)
      }
    } else if !laps.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "lap-without-start", message: "\(laps.count) laps, some without a start time: no lap rows",
          location: file))
    }
    let (whole, lapFigures) = analysis.summaries(samples, stretches: stretches, ftpWatts: ftp)
    if whole.missingAsZero + whole.missingSkipped > 0 && whole.samples > 0 {
      diagnostics.append(
        Diagnostic(
          code: "missing-power", severity: .note,
          message:
            "\(whole.missingAsZero + whole.missingSkipped) records carry no power: \(whole.missingAsZero) counted as 0 W, \(whole.missingSkipped) left out (rule \(parameters.missingPower.rawValue))",
          location: file))
    }
    let times = samples.compactMap(\.timeSecondsSince1970)
    let intervals = zip(times, times.dropFirst()).map { $1 - $0 }
    let offBeat = intervals.filter { abs($0 - 1) > 0.01 }.count
    if times.count > 1 && Double(offBeat) > 0.01 * Double(times.count - 1) {
      let filled = intervals.filter { $0 > 1.5 && $0 <= OneHertzFill.longestFilledSeconds }.count
      let pauses = intervals.filter { $0 > OneHertzFill.longestFilledSeconds }.count
      diagnostics.append(
        Diagnostic(
          code: "power-not-1hz",
          message:
            "\(offBeat) of \(times.count - 1) intervals between records are not 1 s: \(filled) of 2-\(Fixed.shortest(OneHertzFill.longestFilledSeconds)) s filled to 1 Hz by linear interpolation, \(pauses) longer left as pauses",
          location: file))
    }
    var rows = [
      Row(
        file: file, lap: nil, summary: whole, distanceMeters: pathDistance(track, from: nil, to: nil),
        ftpSource: source, device: device)
    ]
    for (k, lap) in laps.enumerated() where k < lapFigures.count {
      var figures = DeviceFigures()
      figures.normalizedPowerWatts = lap.normalizedPowerWatts
      figures.workJoules = lap.workJoules
      figures.averagePowerWatts = lap.averagePowerWatts
      figures.distanceMeters = lap.distanceMeters
      figures.elapsedSeconds = lap.elapsedSeconds ?? lap.timerSeconds
      let from = k == 0 ? nil : starts[k]
      let to = k + 1 < laps.count ? starts[k + 1] : nil
      rows.append(
        Row(
          file: file, lap: k + 1, summary: lapFigures[k],
          distanceMeters: pathDistance(track, from: from, to: to),
          ftpSource: source, device: figures))
    }
    return (rows, diagnostics)
  }

  /// The geodesic path distance between consecutive track fixes of one
  /// segment whose times lie in [from, to), m; nil without two fixes.
  static func pathDistance(_ track: Track, from: Double?, to: Double?) -> Double? {
    var total = 0.0
    var steps = 0
    var previous: TrackPoint?
    for p in track.points {
      guard let t = p.timeSecondsSince1970, from.map({ t >= $0 }) ?? true, to.map({ t < $0 }) ?? true else {
        previous = nil
        continue
      }
      if let q = previous, q.segment == p.segment {
        total += Geodesy.distanceMeters(
          fromLatitude: q.latitudeDegrees, longitude: q.longitudeDegrees, toLatitude: p.latitudeDegrees,
          longitude: p.longitudeDegrees)
        steps += 1
      }
      previous = p
    }
    return steps > 0 ? total : nil
  }

  /// The rows of every file; unreadable files are reported and skipped
  /// (`failFast` stops at the first).
  public static func compute(
    files: [String], parameters: PowerParameters, ftpWatts: Double?,
    trackParameters: TrackAnalysisParameters = TrackAnalysisParameters(), defaultTimeZone: TimeZone? = nil,
    failFast: Bool = false, warn: (String) -> Void = { _ in }
  ) throws -> Result {
    var result = Result(
      rows: [], inputs: [], parameters: [], diagnostics: [], failures: 0)
    for file in files {
      do {
        let ride = try ride(
          file: file, parameters: parameters, ftpWatts: ftpWatts, trackParameters: trackParameters,
          defaultTimeZone: defaultTimeZone)
        result.rows += ride.rows
        result.diagnostics += ride.diagnostics
        result.inputs.append(file)
      } catch let error as InputError {
        if failFast { throw error }
        result.failures += 1
        warn("energylab: \(error) (skipped)")
      }
    }
    result.parameters =
      parameters.described
      + (ftpWatts.map {
        [
          NamedParameter(
            name: "ftp_w", value: Fixed.shortest($0), meaning: "stated functional threshold power")
        ]
      } ?? [])
    return result
  }

  /// The rows as the `track-power` table.
  public static func table(_ result: Result, zones: Int) -> ResultTable {
    ResultTable(
      name: "track-power", rows: result.rows.map { record($0, zones: zones) },
      keyColumns: ["file", "lap", "duration_s", "work_kj", "mean_power_w", "np_w", "if", "tss"])
  }

  /// What `track power` computed: a row per file and lap.
  struct TrackPowerOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var result: Result
    var zones: Int
    var format: OutputFormat?

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "track power", recordedAt: recordedAt, inputs: inputs, parameters: result.parameters,
        results: result.rows.flatMap { storedRows($0, zones: zones) })
      run.diagnostics = result.diagnostics.map(DiagnosticRow.init)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(table(result, zones: zones), format: format)
      return out
    }
  }

  /// `track power`: compute, then store and print through the driver.
  public static func run(
    files: [String], parameters: PowerParameters, ftpWatts: Double?, trackParameters: TrackAnalysisParameters,
    defaultTimeZone: TimeZone?, failFast: Bool, databasePath: String?, format: OutputFormat?,
    driver: Driver
  ) throws {
    let result = try compute(
      files: files, parameters: parameters, ftpWatts: ftpWatts, trackParameters: trackParameters,
      defaultTimeZone: defaultTimeZone, failFast: failFast, warn: { driver.warn($0) })
    let zones = parameters.zoneUpperFractions.count + 1
    try driver.finish(
      TrackPowerOutcome(
        inputs: result.inputs, parameters: result.parameters, diagnostics: result.diagnostics, result: result,
        zones: zones, format: format),
      database: databasePath)
    if result.failures > 0 {
      throw RuntimeError(
        "\(result.failures) of \(files.count) files could not be read; \(result.inputs.count) summarised")
    }
  }
}
