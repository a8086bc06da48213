import EnergyLabCore
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// `track power`: Normalized Power, IF, TSS, variability index, work, mean
/// and maximal power and time in zones, for each file and each of its laps.
package enum PowerCommand {
  /// One row: a whole activity (`lap` nil) or one lap.
  package struct Row: Sendable, Hashable {
    package var file: String
    /// 1-based lap; nil for the whole activity.
    package var lap: Int?
    package var summary: PowerSummary
    /// Path distance over the positions of the stretch, m; nil without.
    package var distanceMeters: Double?
    /// Where the FTP came from: `stated`, `file` or nil (none).
    package var ftpSource: String?
    /// The device's own figures for the stretch.
    package var device: DeviceFigures
  }

  /// What the device wrote for an activity (its session) or a lap.
  package struct DeviceFigures: Sendable, Hashable {
    package var normalizedPowerWatts: Double?
    package var intensityFactor: Double?
    package var trainingStressScore: Double?
    package var thresholdPowerWatts: Double?
    package var workJoules: Double?
    package var averagePowerWatts: Double?
    package var distanceMeters: Double?
    package var elapsedSeconds: Double?
    package init() {}
  }

  /// The rides' rows, what the command read and noticed.
  package struct Result: Sendable {
    package var rows: [Row]
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
    /// A note per file skipped (unreadable), in order.
    package var skipped: [String]
  }

  /// The columns of `track power` with `zones` power zones, declared
  /// once: the printed table and the stored rows are both made from this
  /// list, so a figure has one name, one unit and one number of digits
  /// wherever it appears.
  package static func columns(zones: Int) -> [ResultColumn<Row>] {
    var out: [ResultColumn<Row>] = [
      .text("file") { .string($0.file) },
      .text("lap") { .string($0.lap.map { String($0) } ?? "all") },
      .text("start_time") {
        $0.summary.startSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null
      },
      .number("duration", .seconds, digits: 0) { r in
        r.summary.startSecondsSince1970.flatMap { a in r.summary.endSecondsSince1970.map { $0 - a } }
      },
      .number("distance", .meters, digits: 1) { $0.distanceMeters },
      .integer("records") { $0.summary.records },
      .integer("power_samples") { $0.summary.samples },
      .integer("missing_as_zero") { $0.summary.missingAsZero },
      .integer("missing_skipped") { $0.summary.missingSkipped },
      .number("work", .kilojoules, digits: 1) { $0.summary.workJoules.map { $0 / 1000 } },
      .number("mean_power", .watts, digits: 1) { $0.summary.meanPowerWatts },
      .number("max_power", .watts, digits: 0) { $0.summary.maxPowerWatts },
      .number("np", .watts, digits: 1) { $0.summary.normalizedPowerWatts },
      .number("vi", .ratio, digits: 3) { $0.summary.variabilityIndex },
      .number("ftp", .watts, digits: 0) { $0.summary.ftpWatts },
      .text("ftp_source") { $0.ftpSource.map { .string($0) } ?? .null },
      .number("if", .ratio, digits: 3) { $0.summary.intensityFactor },
      .number("tss", .trainingStress, digits: 1) { $0.summary.trainingStressScore },
      .number("tss_duration", .seconds, digits: 0) { $0.summary.tssDurationSeconds },
      .number("hr_mean", .beatsPerMinute, digits: 1) { $0.summary.heartRateMeanBeatsPerMinute },
      .number("hr_max", .beatsPerMinute, digits: 0) { $0.summary.heartRateMaxBeatsPerMinute },
    ]
    for z in 0..<zones {
      out.append(
        .number("zone\(z + 1)", .seconds, digits: 0) {
          z < $0.summary.secondsInZones.count ? $0.summary.secondsInZones[z] : nil
        })
    }
    out += [
      .number("device_np", .watts, digits: 0) { $0.device.normalizedPowerWatts },
      .number("device_if", .ratio, digits: 3) { $0.device.intensityFactor },
      .number("device_tss", .trainingStress, digits: 1) { $0.device.trainingStressScore },
      .number("device_ftp", .watts, digits: 0) { $0.device.thresholdPowerWatts },
      .number("device_work", .kilojoules, digits: 1) { $0.device.workJoules.map { $0 / 1000 } },
      .number("device_mean_power", .watts, digits: 0) { $0.device.averagePowerWatts },
      .number("device_distance", .meters, digits: 1) { $0.device.distanceMeters },
      .number("device_duration", .seconds, digits: 1) { $0.device.elapsedSeconds },
    ]
    return out
  }

  /// The printed record of a row.
  package static func record(_ row: Row, zones: Int) -> ResultRecord {
    ResultColumns.record(columns(zones: zones), of: row)
  }

  /// The stored rows of a row: each number under its name, its unit in its
  /// own column; the subject is `file` or `file#lap`.
  package static func storedRows(_ row: Row, zones: Int) -> [ResultRow] {
    ResultColumns.storedRows(
      columns(zones: zones), of: row, subject: row.lap.map { "\(row.file)#\($0)" } ?? row.file)
  }

  /// The rows of one ride: the whole activity, then each lap the file
  /// declares. `ftpWatts` is the stated FTP; else the file's own
  /// (`threshold_power`); else none, with a diagnostic.
  package static func ride(
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

  /// The rows of every file; unreadable files are skipped, each with a
  /// note (`failFast` stops at the first).
  package static func compute(
    files: [String], parameters: PowerParameters, ftpWatts: Double?,
    trackParameters: TrackAnalysisParameters = TrackAnalysisParameters(), defaultTimeZone: TimeZone? = nil,
    failFast: Bool = false
  ) throws -> Result {
    _ = try PowerParameters.validated(ftpWatts: ftpWatts)
    _ = try trackParameters.validated()
    var result = Result(
      rows: [], inputs: [], parameters: [], diagnostics: [], skipped: [])
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
        result.skipped.append(SkippedFiles.note(error))
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
  package static func table(_ result: Result, zones: Int) -> ResultTable {
    ResultTable(
      name: "track-power", rows: result.rows.map { record($0, zones: zones) },
      keyColumns: ["file", "lap", "duration_s", "work_kj", "mean_power_w", "np_w", "if", "tss"])
  }

  /// What `track power` computed: a row per file and lap, and a note per
  /// file skipped.
  package struct TrackPowerOutcome: CommandOutcome {
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
    var result: Result
    var zones: Int
    var format: OutputFormat?
    package var skipped: [String] { result.skipped }

    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "track power", recordedAt: recordedAt, inputs: inputs, parameters: result.parameters,
        results: result.rows.flatMap { storedRows($0, zones: zones) })
      run.diagnostics = result.diagnostics.map(DiagnosticRow.init)
      return run
    }

    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(table(result, zones: zones), format: format)
      return out
    }
  }

  /// What `track power` computes (see `compute`), as its outcome; prints
  /// nothing.
  package static func outcome(
    files: [String], parameters: PowerParameters, ftpWatts: Double?, trackParameters: TrackAnalysisParameters,
    defaultTimeZone: TimeZone?, failFast: Bool, format: OutputFormat?
  ) throws -> TrackPowerOutcome {
    let result = try compute(
      files: files, parameters: parameters, ftpWatts: ftpWatts, trackParameters: trackParameters,
      defaultTimeZone: defaultTimeZone, failFast: failFast)
    return TrackPowerOutcome(
      inputs: result.inputs, parameters: result.parameters, diagnostics: result.diagnostics, result: result,
      zones: parameters.zoneUpperFractions.count + 1, format: format)
  }

  /// `track power`: compute, then store and print through the driver;
  /// fails when any file was skipped.
  package static func run(
    files: [String], parameters: PowerParameters, ftpWatts: Double?, trackParameters: TrackAnalysisParameters,
    defaultTimeZone: TimeZone?, failFast: Bool, databasePath: String?, format: OutputFormat?,
    driver: Driver
  ) throws {
    let outcome = try outcome(
      files: files, parameters: parameters, ftpWatts: ftpWatts, trackParameters: trackParameters,
      defaultTimeZone: defaultTimeZone, failFast: failFast, format: format)
    let result = outcome.result
    try driver.finish(outcome, database: databasePath)
    try SkippedFiles.check(
      skipped: result.skipped.count, of: files.count, read: result.inputs.count, done: "summarised")
  }
}
