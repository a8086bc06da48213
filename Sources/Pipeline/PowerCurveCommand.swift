import EnergyLabCore
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// `power curve`: the mean-maximal power curve of one ride or a folder of
/// rides, critical power and W' by three models on a stated duration
/// range, and W' balance of each ride.
package enum PowerCurveCommand {
  package struct Options: Sendable {
    /// Ride files, or folders of them (FIT, TCX, GPX; read in name order).
    package var paths: [String]
    package var power = PowerParameters()
    package var track = TrackAnalysisParameters()
    /// Durations the models are fitted over, s.
    package var fitFromSeconds = 120
    package var fitToSeconds = 1200
    /// Stated CP and W' for W' balance (default: the 2-parameter fit's).
    package var criticalPowerWatts: Double?
    package var wPrimeJoules: Double?
    package var defaultTimeZone: TimeZone?
    /// Streams each file and keeps no fix or series: the curve is exact to
    /// 1 h and over whole minutes beyond; no W' balance.
    package var boundedMemory = false
    package init(paths: [String]) { self.paths = paths }

    /// The options, checked: a fit range from at least 1 s to beyond its
    /// start, a stated CP and W' above 0. An error names the parameter as
    /// the run reports it (`fit_from_s`, `cp_w`, `w_prime_j`).
    package func validated() throws -> Options {
      try ValueError.require(
        fitFromSeconds >= 1 && fitToSeconds > fitFromSeconds, "fit_from_s", Double(fitFromSeconds),
        expected: "at least 1 s and below fit_to_s")
      if let criticalPowerWatts {
        try ValueError.require(
          criticalPowerWatts > 0, "cp_w", criticalPowerWatts, expected: "a positive number of watts")
      }
      if let wPrimeJoules {
        try ValueError.require(
          wPrimeJoules > 0, "w_prime_j", wPrimeJoules, expected: "a positive number of joules")
      }
      _ = try track.validated()
      return self
    }

    package var described: [NamedParameter] {
      power.described.filter { $0.name == "missing_power" } + [
        NamedParameter(
          name: "fit_range_s", value: "\(fitFromSeconds)-\(fitToSeconds)",
          meaning: "durations of the mean-maximal curve the critical-power models are fitted over"),
        NamedParameter(
          name: "w_prime_balance_tau", value: "skiba-2012",
          meaning: "integral W' balance: tau = 546 exp(-0.01 (CP - mean power below CP)) + 316 s"),
      ]
        + (criticalPowerWatts.map {
          [NamedParameter(name: "cp_w", value: Fixed.shortest($0), meaning: "stated critical power")]
        } ?? [])
        + (wPrimeJoules.map {
          [NamedParameter(name: "w_prime_j", value: Fixed.shortest($0), meaning: "stated W'")]
        } ?? [])
    }
  }

  /// One ride's power series, one sample a second.
  package struct Ride: Sendable {
    package var file: String
    package var startSecondsSince1970: Double?
    package var watts: [Double]
  }

  /// A point of the curve: the best mean power over `seconds` and the ride
  /// it comes from.
  package struct Point: Sendable, Hashable {
    package var seconds: Int
    package var watts: Double
    package var file: String
    /// Offset of the window's start in its ride, s.
    package var startOffsetSeconds: Int
  }

  /// W' balance of one ride.
  package struct Balance: Sendable, Hashable {
    package var file: String
    package var criticalPowerWatts: Double
    package var wPrimeJoules: Double
    package var source: String
    package var tauSeconds: Double
    package var integral: [Double]
    package var differential: [Double]
  }

  package struct Result: Sendable {
    package var rides: [Ride]
    package var points: [Point]
    package var fits: [CriticalPowerFit]
    package var balances: [Balance]
    package var options: Options
    package var inputs: [String]
    package var diagnostics: [Diagnostic]
  }

  /// The files named by `paths`: each file, and each folder's track files
  /// in name order.
  package static func files(_ paths: [String]) throws -> [String] {
    var out: [String] = []
    for path in paths {
      if FileStatus.of(path)?.isDirectory == true {
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter {
          let lower = $0.lowercased()
          return [".fit", ".tcx", ".gpx"].contains { lower.hasSuffix($0) }
        }.sorted()
        out += names.map { (path as NSString).appendingPathComponent($0) }
      } else {
        out.append(path)
      }
    }
    return out
  }

  /// Reads each ride's power series.
  package static func rides(_ files: [String], options: Options) throws -> (
    rides: [Ride], diagnostics: [Diagnostic]
  ) {
    var rides: [Ride] = []
    var diagnostics: [Diagnostic] = []
    let analysis = PowerAnalysis(parameters: options.power)
    for file in files {
      let (track, _) = try TrackCommands.readTrackAndHeader(
        file, parameters: options.track, defaultTimeZone: options.defaultTimeZone)
      let samples = PowerSample.samples(of: track)
      let watts = analysis.series(samples)
      if watts.isEmpty {
        diagnostics.append(
          Diagnostic(
            code: "no-power", message: "no record carries power: the ride is left out", location: file))
        continue
      }
      rides.append(
        Ride(
          file: file, startSecondsSince1970: samples.lazy.compactMap(\.timeSecondsSince1970).first,
          watts: watts))
    }
    return (rides, diagnostics)
  }

  package static func compute(_ options: Options) throws -> Result {
    _ = try options.validated()
    let files = try files(options.paths)
    guard !files.isEmpty else {
      throw UsageError(.missing, "no ride files in \(options.paths.joined(separator: ", "))")
    }
    var rides: [Ride] = []
    var diagnostics: [Diagnostic] = []
    var best: [Int: Point] = [:]
    var longest = 0
    if options.boundedMemory {
      for file in files {
        var curve = StreamingMeanMaximalPower()
        var zerosBeforePower = 0
        var sawPower = false
        var fill = OneHertzFill()
        let rule = options.power.missingPower
        _ = try TrackCommands.streamTrackFile(
          file, defaultTimeZone: options.defaultTimeZone, readTruncated: options.track.readTruncatedFiles,
          ignoreCRC: options.track.ignoreFileCRC
        ) { p in
          guard p.kind == .track || p.kind == .timeOnly else { return }
          let zero = p.powerWatts == nil && (rule == .zero || (rule == .auto && p.cadencePerMinute != nil))
          let value = p.powerWatts ?? (zero ? 0 : nil)
          // Seconds filled before the first power value: between zeros
          // (counted as such) or from the last zero up to it.
          var held: [Double] = []
          fill.add(time: p.timeSecondsSince1970, watts: value) { w in
            if sawPower { curve.add(w) } else { held.append(w) }
          }
          if let w = p.powerWatts {
            // Zeros held back until the first power value: a file with no
            // power at all is no ride at 0 W.
            for _ in 0..<zerosBeforePower { curve.add(0) }
            zerosBeforePower = 0
            for f in held { curve.add(f) }
            sawPower = true
            curve.add(w)
          } else if zero {
            if sawPower { curve.add(0) } else { zerosBeforePower += held.count + 1 }
          }
        }
        guard sawPower else {
          diagnostics.append(
            Diagnostic(
              code: "no-power", message: "no record carries power: the ride is left out", location: file))
          continue
        }
        longest = max(longest, curve.samples)
        for p in curve.curve() where p.watts > best[p.seconds]?.watts ?? -1 {
          best[p.seconds] = Point(seconds: p.seconds, watts: p.watts, file: file, startOffsetSeconds: p.start)
        }
      }
      diagnostics.append(
        Diagnostic(
          code: "bounded-memory", severity: .note,
          message:
            "read in bounded memory: the curve is exact to 3600 s and over whole 60 s blocks beyond (a lower bound within a block's alignment); no W' balance",
          location: nil))
    } else {
      (rides, diagnostics) = try Self.rides(files, options: options)
      // The curve: each duration's best over the rides.
      longest = rides.map(\.watts.count).max() ?? 0
      for ride in rides {
        for p in MeanMaximalPower.curve(ride.watts, durations: MeanMaximalPower.durations(upTo: longest))
        where p.watts > best[p.seconds]?.watts ?? -1 {
          best[p.seconds] = Point(
            seconds: p.seconds, watts: p.watts, file: ride.file, startOffsetSeconds: p.start)
        }
      }
    }
    let points = best.values.sorted { $0.seconds < $1.seconds }
    // Fits over the stated range.
    let inRange = points.filter { $0.seconds >= options.fitFromSeconds && $0.seconds <= options.fitToSeconds }
    var fits: [CriticalPowerFit] = []
    if inRange.count < 3 {
      diagnostics.append(
        Diagnostic(
          code: "fit-range-not-covered",
          message:
            "the curve has \(inRange.count) points from \(options.fitFromSeconds) s to \(options.fitToSeconds) s (the longest ride is \(longest) s): no critical-power fit",
          location: nil))
    } else {
      let sources = Set(inRange.map(\.file))
      if sources.count == 1, let only = sources.first {
        diagnostics.append(
          Diagnostic(
            code: "single-ride-fit",
            message:
              "every point from \(options.fitFromSeconds) s to \(options.fitToSeconds) s comes from one ride (\(only)): nested windows of one effort, not separate all-out efforts, so CP and W' describe that ride rather than the rider (fit efforts from several rides)",
            location: only))
      }
      let t = inRange.map { Double($0.seconds) }
      let p = inRange.map(\.watts)
      for model in CriticalPowerFit.Model.allCases {
        guard let fit = CriticalPowerFit.fit(model, seconds: t, watts: p) else { continue }
        let physical =
          fit.criticalPowerWatts > 0 && (fit.wPrimeJoules.map { $0 > 0 } ?? true)
          && (fit.maxPowerWatts.map { $0 > fit.criticalPowerWatts } ?? true)
        if !physical {
          diagnostics.append(
            Diagnostic(
              code: "fit-not-physical",
              message:
                "the \(model.rawValue) fit gives CP \(Fixed.format(fit.criticalPowerWatts, digits: 1)) W\(fit.wPrimeJoules.map { ", W' \(Fixed.format($0, digits: 0)) J" } ?? "")\(fit.maxPowerWatts.map { ", Pmax \(Fixed.format($0, digits: 1)) W" } ?? ""): not a rider's; the curve over the range does not fall as the model needs",
              location: nil))
        }
        fits.append(fit)
      }
    }
    // W' balance.
    var balances: [Balance] = []
    let twoParameter = fits.first {
      $0.model == .twoParameter && $0.criticalPowerWatts > 0 && ($0.wPrimeJoules ?? 0) > 0
    }
    let cp = options.criticalPowerWatts ?? twoParameter?.criticalPowerWatts
    let w = options.wPrimeJoules ?? twoParameter?.wPrimeJoules
    if let cp, let w, cp > 0, w > 0 {
      let source =
        options.criticalPowerWatts != nil && options.wPrimeJoules != nil
        ? "stated"
        : options.criticalPowerWatts == nil && options.wPrimeJoules == nil
          ? "2-parameter fit" : "stated and fit"
      for ride in rides {
        balances.append(
          Balance(
            file: ride.file, criticalPowerWatts: cp, wPrimeJoules: w, source: source,
            tauSeconds: WPrimeBalance.skibaTau(ride.watts, criticalPowerWatts: cp),
            integral: WPrimeBalance.integral(ride.watts, criticalPowerWatts: cp, wPrimeJoules: w),
            differential: WPrimeBalance.differential(ride.watts, criticalPowerWatts: cp, wPrimeJoules: w)))
      }
    } else if !rides.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "no-critical-power", severity: .note,
          message: "no CP and W' stated and no physical 2-parameter fit: W' balance is unknown", location: nil
        ))
    }
    return Result(
      rides: rides, points: points, fits: fits, balances: balances, options: options,
      inputs: options.boundedMemory
        ? files : rides.map(\.file) + diagnostics.compactMap { $0.code == "no-power" ? $0.location : nil },
      diagnostics: diagnostics)
  }

  /// The curve, the fits and the balances as tables.
  package static func tables(_ r: Result) -> [ResultTable] {
    let curve = ResultTable(
      name: "power-curve", rows: r.points.map { ResultColumns.record(pointColumns, of: $0) },
      keyColumns: ["duration_s", "power_w", "file"])
    let fitColumns = fitColumns(from: r.options.fitFromSeconds, to: r.options.fitToSeconds)
    let fits = ResultTable(name: "power-fits", rows: r.fits.map { ResultColumns.record(fitColumns, of: $0) })
    let balance = ResultTable(
      name: "w-prime-balance",
      rows: r.balances.map { ResultColumns.record(balanceColumns, of: PowerBalanceValue($0)) })
    return [curve, fits, balance]
  }

  /// The power curve with the fitted models, and each ride's W' balance.
  package static func charts(_ r: Result) -> [GnuplotChart] {
    var out: [GnuplotChart] = []
    if !r.points.isEmpty {
      var series = [
        GnuplotChart.Series(
          title: "mean-maximal power", style: .lines,
          points: r.points.filter { $0.seconds > 0 }.map { .init(Double($0.seconds), $0.watts) })
      ]
      for fit in r.fits {
        series.append(
          .init(
            title: "\(fit.model.rawValue): CP \(Fixed.format(fit.criticalPowerWatts, digits: 0)) W",
            style: .lines,
            points: r.points.filter { $0.seconds >= 60 }.map {
              .init(Double($0.seconds), fit.power(atSeconds: Double($0.seconds)))
            }))
      }
      var chart = GnuplotChart(
        name: "power-curve", title: "Mean-maximal power", xLabel: "duration (s, logarithmic axis)",
        yLabel: "power (W)", series: series)
      // Durations span 1 s to an hour: on a linear axis the sprint part
      // and the fits' difference there would take a few pixels.
      chart.xLogarithmic = true
      chart.shadedRanges = [
        .init(from: Double(r.options.fitFromSeconds), to: Double(r.options.fitToSeconds), title: "fit range")
      ]
      chart.yFromZero = true
      out.append(chart)
    }
    for b in r.balances {
      let stem = GnuplotChart.safeFileStem(
        URL(fileURLWithPath: b.file).deletingPathExtension().lastPathComponent)
      var chart =
        GnuplotChart(
          name: "\(stem)-w-prime-balance",
          title: "W' balance: \(URL(fileURLWithPath: b.file).lastPathComponent)", xLabel: "time (min)",
          yLabel: "W' balance (kJ)",
          series: [
            .init(
              title: "integral (Skiba 2012)", style: .lines,
              points: b.integral.enumerated().map { .init(Double($0) / 60, $1 / 1000) }),
            .init(
              title: "differential (Skiba 2015)", style: .lines,
              points: b.differential.enumerated().map { .init(Double($0) / 60, $1 / 1000) }),
          ])
      // The balance's two bounds: W' whole (the start, and where a ride
      // below CP returns) and W' spent, below which the model says the
      // rider could not have gone on.
      chart.horizontalLines = [
        .init(
          y: b.wPrimeJoules / 1000,
          title:
            "W' whole: \(Fixed.format(b.wPrimeJoules / 1000, digits: 1)) kJ (CP \(Fixed.format(b.criticalPowerWatts, digits: 0)) W, \(b.source))"
        ),
        .init(y: 0, title: "W' spent"),
      ]
      out.append(chart)
    }
    return out
  }

  /// What `power curve` computed: the curve, its fits and the W' balances.
  struct PowerCurveOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var result: Result
    var chartsDirectory: String?
    var format: OutputFormat?

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      let fitColumns = fitColumns(from: result.options.fitFromSeconds, to: result.options.fitToSeconds)
      let rows =
        result.points.flatMap { ResultColumns.storedRows(pointColumns, of: $0, subject: "\($0.seconds) s") }
        + result.fits.flatMap { ResultColumns.storedRows(fitColumns, of: $0, subject: $0.model.rawValue) }
        + result.balances.flatMap {
          ResultColumns.storedRows(balanceColumns, of: PowerBalanceValue($0), subject: $0.file)
        }
      var run = RunRecord(
        command: "power curve", recordedAt: recordedAt, inputs: inputs, parameters: parameters,
        results: rows)
      run.diagnostics = result.diagnostics.map(DiagnosticRow.init)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      for chart in charts(result) { out.draw(chart, folder: chartsDirectory, format: format) }
      for table in tables(result) { out.emit(table, format: format) }
      return out
    }
  }

  /// `power curve`: compute, then store and print through the driver.
  package static func run(
    _ options: Options, chartsDirectory: String?, databasePath: String?, format: OutputFormat?,
    driver: Driver
  ) throws {
    let result = try compute(options)
    let parameters = options.described
    try driver.finish(
      PowerCurveOutcome(
        inputs: result.inputs, parameters: parameters, diagnostics: result.diagnostics, result: result,
        chartsDirectory: chartsDirectory, format: format), database: databasePath)
  }
}
