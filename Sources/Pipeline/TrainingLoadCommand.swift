import EnergyLabCore
import Foundation
import Reporting
import Store
import Tracks

/// `power load`: CTL, ATL and TSB over a folder of rides by date.
package enum TrainingLoadCommand {
  package struct Ride: Sendable, Hashable {
    package var file: String
    package var day: Int
    package var tss: Double?
  }

  package struct Result: Sendable {
    package var rides: [Ride]
    package var days: [TrainingLoad.Day]
    package var zone: TimeZone
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
  }

  /// Each ride's TSS (as `track power` computes it for the whole ride) on
  /// its start date in `zone`, then the daily loads.
  package static func compute(
    paths: [String], power: PowerParameters, ftpWatts: Double?, track: TrackAnalysisParameters,
    zone: TimeZone, zoneName: String
  ) throws -> Result {
    _ = try PowerParameters.validated(ftpWatts: ftpWatts)
    _ = try track.validated()
    let files = try PowerCurveCommand.files(paths)
    guard !files.isEmpty else {
      throw UsageError(.missing, "no ride files in \(paths.joined(separator: ", "))")
    }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    calendar.locale = Locale(identifier: "en_US_POSIX")
    var rides: [Ride] = []
    var diagnostics: [Diagnostic] = []
    for file in files {
      let ride = try PowerCommand.ride(
        file: file, parameters: power, ftpWatts: ftpWatts, trackParameters: track, defaultTimeZone: zone)
      let whole = ride.rows[0]
      guard let start = whole.summary.startSecondsSince1970 else {
        diagnostics.append(
          Diagnostic(
            code: "ride-without-date", message: "no time on any record: the ride has no date", location: file)
        )
        continue
      }
      let date = Date(timeIntervalSince1970: start)
      let midnight = calendar.startOfDay(for: date)
      let offset = Double(zone.secondsFromGMT(for: midnight))
      let day = Int(((midnight.timeIntervalSince1970 + offset) / 86400).rounded())
      let tss = whole.summary.trainingStressScore
      if tss == nil {
        diagnostics.append(
          Diagnostic(
            code: "ride-without-tss",
            message:
              "no TSS (no power, or no FTP stated or in the file): the ride's load is unknown and left out of CTL and ATL",
            location: file))
      }
      rides.append(Ride(file: file, day: day, tss: tss))
    }
    var byDay: [Int: (tss: Double, rides: Int)] = [:]
    for r in rides {
      guard let tss = r.tss else { continue }
      byDay[r.day, default: (0, 0)].tss += tss
      byDay[r.day, default: (0, 0)].rides += 1
    }
    let load = TrainingLoad()
    let parameters =
      power.described + [
        NamedParameter(
          name: "ctl_days", value: Fixed.shortest(load.chronicDays),
          meaning: "chronic training load (fitness): exponentially weighted, CTL += (TSS - CTL) / 42 a day"),
        NamedParameter(
          name: "atl_days", value: Fixed.shortest(load.acuteDays),
          meaning: "acute training load (fatigue): ATL += (TSS - ATL) / 7 a day"),
        NamedParameter(
          name: "tsb", value: "CTL - ATL of the day before", meaning: "training stress balance (form)"),
        NamedParameter(name: "day_zone", value: zoneName, meaning: "time zone of the rides' dates"),
      ]
      + (ftpWatts.map {
        [
          NamedParameter(
            name: "ftp_w", value: Fixed.shortest($0), meaning: "stated functional threshold power")
        ]
      } ?? [])
    return Result(
      rides: rides, days: load.days(byDay), zone: zone, inputs: files, parameters: parameters,
      diagnostics: diagnostics)
  }

  static func dateText(_ day: Int) -> String {
    let (year, month, date) = ISO8601.civilFromDays(day)
    return String(format: "%04d-%02d-%02d", year, month, date)
  }

  /// The ride days and the last day (the chart holds every day).
  package static func table(_ r: Result) -> ResultTable {
    ResultTable(
      name: "training-load",
      rows: shownDays(r).map { ResultColumns.record(dayColumns, of: $0) })
  }

  /// The ride days and the last day: the days printed and stored.
  static func shownDays(_ r: Result) -> [TrainingLoad.Day] {
    let last = r.days.last?.day
    return r.days.filter { $0.rides > 0 || $0.day == last }
  }

  /// The chart of every day's loads; when no two ride days are within
  /// the chronic time constant of each other, each ride's load decays to
  /// nearly zero before the next and the chart would be a flat line with
  /// isolated spikes: it is not drawn, and the report says so (the table
  /// keeps every ride's loads).
  package static func chart(_ r: Result) -> GnuplotChart? {
    guard let first = r.days.first?.day else { return nil }
    func series(_ title: String, _ value: (TrainingLoad.Day) -> Double) -> GnuplotChart.Series {
      .init(title: title, style: .lines, points: r.days.map { .init(Double($0.day - first), value($0)) })
    }
    let rideDays = r.days.filter { $0.rides > 0 }.map(\.day)
    let chronic = TrainingLoad().chronicDays
    let gaps = zip(rideDays.dropFirst(), rideDays).map { Double($0 - $1) }
    var chart = GnuplotChart(
      name: "training-load", title: "Training load from \(dateText(first))",
      xLabel: "time since \(dateText(first)) (days)",
      yLabel: "training stress (TSS per day)",
      series: [
        series("CTL (42 d)", \.ctl), series("ATL (7 d)", \.atl), series("TSB", \.tsb),
        .init(
          title: "TSS", style: .points,
          points: r.days.filter { $0.rides > 0 }.map { .init(Double($0.day - first), $0.tss) }),
      ])
    if rideDays.count < 2 || gaps.allSatisfy({ $0 > chronic }) {
      chart.notDrawnReason =
        "\(rideDays.count) ride day\(rideDays.count == 1 ? "" : "s") over \(r.days.count) days, \(rideDays.count < 2 ? "no two" : "no two within \(Fixed.shortest(chronic)) days (the chronic time constant) of each other"), so the loads decay to nearly zero between rides and the chart would be a flat line; the table gives each ride's loads"
    }
    return chart
  }

  /// What `power load` computed: the daily loads.
  struct TrainingLoadOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var result: Result
    var chartsDirectory: String?
    var format: OutputFormat?

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      let rows = shownDays(result).flatMap {
        ResultColumns.storedRows(dayColumns, of: $0, subject: dateText($0.day))
      }
      var run = RunRecord(
        command: "power load", recordedAt: recordedAt, inputs: inputs, parameters: result.parameters,
        results: rows)
      run.diagnostics = result.diagnostics.map(DiagnosticRow.init)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      if let chart = chart(result) { out.draw(chart, folder: chartsDirectory, format: format) }
      out.emit(table(result), format: format)
      return out
    }
  }

  package static func run(
    paths: [String], power: PowerParameters, ftpWatts: Double?, track: TrackAnalysisParameters,
    zone: TimeZone,
    zoneName: String, chartsDirectory: String?, databasePath: String?, format: OutputFormat?,
    driver: Driver
  ) throws {
    let result = try compute(
      paths: paths, power: power, ftpWatts: ftpWatts, track: track, zone: zone, zoneName: zoneName)
    try driver.finish(
      TrainingLoadOutcome(
        inputs: result.inputs, parameters: result.parameters, diagnostics: result.diagnostics, result: result,
        chartsDirectory: chartsDirectory, format: format), database: databasePath)
  }
}
