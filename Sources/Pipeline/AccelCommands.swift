import EnergyLabCore
import EnergyModels
import Estimation
import Foundation
import Ingest
import Reporting
import Signals
import Store

/// What an accelerometer command reads and how it analyses it.
package struct AccelOptions: Sendable {
  package var map = AccelColumnMap()
  /// The zone of local times without an offset, of days and of hours.
  package var timeZone: TimeZone?
  package var analysis = AccelAnalysisParameters()
  /// Threads that parse one file (default: the number of cores).
  package var parseWorkers = ProcessInfo.processInfo.activeProcessorCount
  /// Fill an ActiGraph's idle-sleep gaps with its last sample, as
  /// ActiLife does (the default; off: leave them as gaps, with the time
  /// left out in a diagnostic).
  package var fillIdleSleep = true
  /// Whether the epoch lengths were asked for; if not, files of epochs
  /// keep those default lengths that are whole multiples of their own
  /// epoch, else their own.
  package var epochsGiven = false
  /// Auto-calibrate raw acceleration against gravity before anything is
  /// computed (`AutoCalibration`); nil: off (the default, so that results
  /// never change without being asked).
  package var calibration: AutoCalibrationParameters?
  /// Detect non-wear in raw acceleration and leave it out
  /// (`NonWearDetector`); nil: off (the default).
  package var nonWear: NonWearParameters?

  package init() {}

  /// The options, checked: a stated sample rate above 0 Hz, and the
  /// analysis, calibration and non-wear parameters' own checks. An error
  /// names the parameter as the run reports it (`sample_rate_hz`).
  package func validated() throws -> AccelOptions {
    if let rate = map.sampleRateHz {
      try ValueError.require(rate > 0, "sample_rate_hz", rate, expected: "positive")
    }
    _ = try calibration?.validated()
    _ = try nonWear?.validated()
    _ = try analysis.validated()
    return self
  }

  /// Whether the file is read twice: once for the still points and the
  /// non-wear windows, once for the analysis.
  var needsFirstPass: Bool { calibration != nil || nonWear != nil }

  /// The parameters, with the epoch lengths the results were cut into
  /// (a file of epochs keeps only the lengths that fit its own).
  package func described(_ results: [AccelResult]) -> [NamedParameter] {
    var out = analysis.steps.named
    var lengths: [Double] = []
    for r in results {
      for e in r.analysis.epochSeconds where !lengths.contains(e) { lengths.append(e) }
    }
    out.append(
      NamedParameter(
        name: "epochs_s",
        value: (lengths.isEmpty ? analysis.epochSeconds : lengths).map(Fixed.shortest).joined(separator: ","),
        meaning: "epoch lengths, s"))
    out.append(
      NamedParameter(
        name: "gap_s",
        value:
          "max(\(Fixed.shortest(analysis.gapMinimumSeconds)) s, \(Fixed.shortest(analysis.gapIntervals)) sample intervals)",
        meaning: "a longer pause between rows is a gap"))
    out.append(
      NamedParameter(
        name: "time_zone", value: timeZone?.identifier ?? "UTC", meaning: "local times, days, hours"))
    // The cut-points given, else the defaults the files' kinds took.
    var cuts: [CutPoints] = []
    for cut in analysis.cutPoints.map({ [$0] }) ?? results.map({ analysis.cutPoints(for: $0.analysis.kind) })
    where !cuts.contains(where: { $0.id == cut.id }) {
      cuts.append(cut)
    }
    for cut in cuts {
      out.append(
        NamedParameter(
          name: "cut_points",
          value:
            "\(cut.id): light \(Fixed.shortest(cut.light)), moderate \(Fixed.shortest(cut.moderate)), vigorous \(Fixed.shortest(cut.vigorous)) \(cut.metric.rawValue), published for \(Fixed.shortest(cut.publishedEpochSeconds)) s epochs",
          meaning: analysis.cutPoints == nil ? "default for the file's data, \(cut.citation)" : cut.citation))
    }
    // The epoch the intensity classes and minutes come from.
    var intensityEpochs: [String] = []
    for seconds in analysis.intensityEpochSeconds.map({ [$0] }) ?? cuts.map(\.publishedEpochSeconds) {
      let text = Fixed.shortest(seconds)
      if !intensityEpochs.contains(text) { intensityEpochs.append(text) }
    }
    if !intensityEpochs.isEmpty {
      out.append(
        NamedParameter(
          name: "intensity_epoch_s", value: intensityEpochs.joined(separator: ","),
          meaning: analysis.intensityEpochSeconds == nil
            ? "epoch the cut-points classify, the one they were published for"
            : "epoch the cut-points classify, as asked instead of the one they were published for"))
    }
    if let calibration {
      out.append(NamedParameter(name: "calibrate", value: "on", meaning: "auto-calibration against gravity"))
      out += calibration.named
    }
    if let nonWear { out += nonWear.named }
    if fillIdleSleep {
      out.append(
        NamedParameter(
          name: "idle_sleep", value: "fill",
          meaning: "an ActiGraph's idle-sleep seconds filled with its last sample, as ActiLife does"))
      out.append(
        NamedParameter(
          name: "idle_sleep_fill_limit_s",
          value: String(DeviceReadOptions.defaultMaximumIdleSleepFillSeconds),
          meaning: "longest idle-sleep gap filled; a longer one stays a gap, with a warning"))
    } else {
      out.append(
        NamedParameter(
          name: "idle_sleep", value: "gap",
          meaning: "an ActiGraph's idle-sleep seconds left out as gaps, the time left out in a diagnostic"))
    }
    out += analysis.dayRules.named
    return out + map.described
  }
}

extension AccelColumnMap {
  /// What the user said about the file's layout, one parameter per choice
  /// made (none when the layout was detected).
  package var described: [NamedParameter] {
    let given: [(String, String?, String)] = [
      ("accel_format", format?.rawValue, "file format named instead of detected"),
      ("time_column", time?.description, "column of the sample times"),
      ("time_format", timeFormat?.rawValue, "how the times are written"),
      ("x_column", x?.description, "column of the x axis"),
      ("y_column", y?.description, "column of the y axis"),
      ("z_column", z?.description, "column of the z axis"),
      ("accel_unit", unit?.rawValue, "unit of the acceleration columns"),
      ("date_order", dateOrder?.rawValue, "order of day, month and year in dates"),
      ("start", start.map { ISO8601.formatUTC($0) }, "start of a recording without absolute times"),
      ("sample_rate_hz", sampleRateHz.map(Fixed.shortest), "sample rate of a file without times"),
    ]
    return given.compactMap { name, value, meaning in
      value.map { NamedParameter(name: name, value: $0, meaning: meaning) }
    }
  }
}

/// One recording read and analysed.
package struct AccelResult: Sendable {
  package var file: String
  package var info: AccelFileInfo
  package var analysis: AccelAnalysis
  /// The auto-calibration fitted (nil unless asked for, or for a file that
  /// is not raw acceleration).
  package var calibration: CalibrationFit?
  /// The spans found not worn (nil unless asked for).
  package var nonWear: NonWearResult?
  /// Notes of the first pass (calibration, non-wear).
  package var firstPassDiagnostics: [Diagnostic] = []

  package var diagnostics: [Diagnostic] {
    info.diagnostics + firstPassDiagnostics + (calibration?.diagnostics ?? []) + analysis.diagnostics
      + wearLocationDiagnostics
  }

  /// The wear location the file's own header states (a GT3X's `Limb`, a
  /// GENEActiv's `Device Location Code`), as written there.
  package var statedWearLocation: String? {
    info.layout.metadata["wear_location"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// A warning when the cut-points that classified the epochs were
  /// derived at another wear location than the one the file's header
  /// states (wrist cut-points on a GT3X whose `Limb` is `Waist`).
  package var wearLocationDiagnostics: [Diagnostic] {
    guard analysis.intensityEpochSeconds != nil, let stated = statedWearLocation,
      let fileLocation = CutPoints.wearLocation(stated: stated),
      let cutLocation = analysis.cutPoints.wearLocation, cutLocation != fileLocation
    else { return [] }
    let cut = analysis.cutPoints
    let better = CutPoints.all.first {
      $0.wearLocation == fileLocation && $0.metric == cut.metric
    }
    return [
      Diagnostic(
        code: "cut-points-wear-location",
        severity: .warning,
        message:
          "cut-points \(cut.id) were derived at the \(cutLocation.rawValue); the file's header states the \(fileLocation.rawValue) (\"\(stated)\"): intensity minutes and bouts come from thresholds of another site\(better.map { " (\(fileLocation == .waist ? "\(Remedy(.wearLocation, value: "waist").text) or " : "")\(Remedy(.cutPoints, value: $0.id).text) fits the file)" } ?? "")",
        location: file)
    ]
  }
}

/// Reading and analysis of accelerometer recordings as library calls.
package enum AccelPipeline {
  /// Reads and analyses one file in constant memory; `progress` gets the
  /// bytes read so far; the tables of `slimEpochSeconds` are kept as what
  /// energy reads (`AccelAnalyzer.slimEpochSeconds`).
  package static func analyse(
    _ file: String, options: AccelOptions, progress: ((Int) -> Void)? = nil, slimEpochSeconds: [Double] = []
  ) throws
    -> AccelResult
  {
    _ = try options.validated()
    var parameters = options.analysis
    var reader = AccelReader(map: options.map, timeZone: options.timeZone, workers: options.parseWorkers)
    reader.fillIdleSleep = options.fillIdleSleep
    let first = options.needsFirstPass ? try firstPass(file, reader: reader, options: options) : nil
    if first != nil { releaseFreedMemory() }
    parameters.nonWear = first?.nonWear
    let calibration = first?.calibration
    var analyzer: AccelAnalyzer?
    let info = try reader.read(
      path: file, progress: progress,
      onLayout: { layout in
        // A file of epochs is cut only into whole multiples of its own.
        let period = layout.kind != .raw ? layout.declaredRateHz.map { 1 / $0 } : nil
        func fits(_ e: Double) -> Bool {
          guard let period else { return true }
          let ratio = e / period
          return ratio >= 1 - 1e-9 && abs(ratio - ratio.rounded()) < 1e-6
        }
        if let period {
          if !options.epochsGiven {
            let kept = parameters.epochSeconds.filter(fits)
            parameters.epochSeconds = kept.isEmpty ? [period] : kept
          }
          for e in parameters.epochSeconds where !fits(e) {
            throw UsageError(
              .unsupported,
              "\(file) holds \(Fixed.shortest(period)) s epochs; an epoch of \(Fixed.shortest(e)) s is not a whole multiple of them"
            )
          }
        }
        // The epochs the cut-points classify are analysed too (the
        // command asking for one epoch length only gets a note instead);
        // an intensity epoch asked for must fit the file.
        let intensity = parameters.intensityEpochSeconds(for: layout.kind)
        if !parameters.epochSeconds.contains(where: { abs($0 - intensity) < 1e-9 }) {
          if !fits(intensity), options.analysis.intensityEpochSeconds != nil, let period {
            throw UsageError(
              .unsupported,
              "\(file) holds \(Fixed.shortest(period)) s epochs; an intensity epoch of \(Fixed.shortest(intensity)) s is not a whole multiple of them"
            )
          }
          if fits(intensity) && !options.epochsGiven {
            parameters.epochSeconds = (parameters.epochSeconds + [intensity]).sorted()
          }
        }
        parameters.timeZone = AccelCommands.localZone(layout, options)
        // An E4 is worn only at the wrist: no suggestion of the waist, and
        // the wrist's cut-points are no hidden choice.
        if layout.format == .empaticaE4 {
          parameters.suggestWearLocation = false
          parameters.wearLocationStated = true
        }
        analyzer = AccelAnalyzer(
          kind: layout.kind, declaredRateHz: layout.declaredRateHz, parameters: parameters, source: file,
          slimEpochSeconds: slimEpochSeconds)
      },
      onBlock: { block in
        if let calibration, calibration.applied {
          var values = block.values
          calibration.apply(to: &values, temperature: block.temperatureCelsius)
          analyzer?.add(time: block.time, values: values)
        } else {
          analyzer?.add(time: block.time, values: block.values)
        }
      })
    // The header, which makes the analyser, comes before every block.
    guard var analyzer else { throw RuntimeError("\(file): samples before the header") }
    return AccelResult(
      file: file, info: info, analysis: analyzer.finish(), calibration: calibration, nonWear: first?.nonWear,
      firstPassDiagnostics: first?.diagnostics ?? [])
  }

  /// What the first pass over a raw recording found.
  struct FirstPass {
    var calibration: CalibrationFit?
    var nonWear: NonWearResult?
    var diagnostics: [Diagnostic] = []
  }

  /// Reads a file once for its still points and non-wear windows, and fits
  /// the calibration; the non-wear windows are judged on the calibrated
  /// scale (offsets change neither a standard deviation nor a range).
  static func firstPass(_ file: String, reader: AccelReader, options: AccelOptions) throws -> FirstPass {
    var still = options.calibration.map { StillPointCollector(parameters: $0) }
    var nonWear = options.nonWear.map { NonWearDetector(parameters: $0) }
    var kind = AccelDataKind.raw
    _ = try reader.read(
      path: file,
      onLayout: { layout in kind = layout.kind },
      onBlock: { block in
        guard kind == .raw else { return }
        still?.add(time: block.time, values: block.values, temperature: block.temperatureCelsius)
        nonWear?.add(time: block.time, values: block.values)
      })
    guard kind == .raw else {
      return FirstPass(diagnostics: [
        Diagnostic(
          code: "not-raw", severity: .note,
          message:
            "auto-calibration and non-wear detection need raw acceleration; the file holds \(kind.rawValue) epochs, so neither was done",
          location: file)
      ])
    }
    var out = FirstPass()
    if var still, let parameters = options.calibration {
      still.finish()
      out.calibration = AutoCalibration.fit(
        still.points, windows: still.windows, parameters: parameters, source: file)
    }
    if var detector = nonWear {
      if let c = out.calibration, c.applied { detector.axisScale = c.scale }
      out.nonWear = detector.finish()
    }
    return out
  }

  /// Analyses many files, `jobs` at a time (default: the number of cores,
  /// never more than files); one file alone is parsed on every core.
  package static func analyseAll(
    _ files: [String], options: AccelOptions, jobs: Int?, progress: ProgressBar? = nil
  ) -> [Result<AccelResult, Error>] {
    let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count))
    @Sendable func one(_ index: Int, _ options: AccelOptions) -> Result<AccelResult, Error> {
      let result = Result {
        try analyse(files[index], options: options) { progress?.reading(file: index, bytes: $0) }
      }
      progress?.finished(file: index)
      return result
    }
    if workers <= 1 { return files.indices.map { one($0, options) } }
    let perFile = {
      var o = options
      o.parseWorkers = 1
      return o
    }()
    return parallelMap(count: files.count, workers: workers) { one($0, perFile) }
  }
}

/// `accel summary`, `accel epochs`, `accel days` and `accel energy`.
/// An accel command's outcome over one recording: its inputs, parameters
/// and diagnostics are those of the recording's run.
protocol RecordingOutcome: CommandOutcome {
  var recording: AccelCommands.RecordingRun { get }
}

extension RecordingOutcome {
  var inputs: [String] { recording.inputs }
  var parameters: [NamedParameter] { recording.parameters }
  var diagnostics: [Diagnostic] { recording.diagnostics }
}

package enum AccelCommands {
  /// The zone of a recording's days and hours: --tz, else the one its
  /// header states (GENEActiv), else UTC.
  static func localZone(_ layout: AccelLayout, _ options: AccelOptions) -> TimeZone {
    options.timeZone ?? layout.timeZone ?? .utc
  }

  /// A recording's run: its file (and `otherInputs`), the parameters it
  /// was read with (and the energy options, and `extra`), its diagnostics
  /// (the reader's, or `diagnostics` when given); each command's outcome
  /// adds the rows it stores. The command names the file by its stored
  /// name, so the run's key does not depend on the folder it was run from.
  struct RecordingRun {
    var result: AccelResult
    var command: String
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var otherInputs: [String]

    init(
      _ r: AccelResult, command: String, options: AccelOptions, energy: AccelEnergyOptions? = nil,
      extra: [NamedParameter] = [], otherInputs: [String] = [], diagnostics: [Diagnostic]? = nil
    ) {
      result = r
      self.command = command
      parameters = options.described([r]) + (energy?.described ?? []) + extra
      self.diagnostics = diagnostics ?? r.diagnostics
      self.otherInputs = otherInputs
    }

    /// The files read: the recording, then the others.
    var inputs: [String] { [result.file] + otherInputs }

    /// The run without the command's rows.
    func record(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord {
      var run = RunRecord(
        command: "\(command) \(CanonicalPath.stored(result.file))", recordedAt: recordedAt, inputs: inputs,
        parameters: parameters)
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }
  }

  /// `accel epochs`: one file's epochs at one length.
  struct EpochsOutcome: RecordingOutcome {
    var recording: RecordingRun
    var epochs: [AccelEpoch]
    var format: OutputFormat?

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = recording.record(inputs: inputs, recordedAt: recordedAt)
      run.accelEpochs = storedEpochs(epochs, recording.result)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      let r = recording.result
      var out = Rendering(request)
      out.emit(
        ResultTable(
          name: "accel-epochs", rows: epochs.map { epochRecord($0, r) },
          keyColumns: ["start", "enmo_mg", "steps", "counts_vm", "intensity"]),
        format: format)
      return out
    }
  }

  /// `accel days`: a recording's days with their energy by model.
  struct DaysOutcome: RecordingOutcome {
    var recording: RecordingRun
    var perDay: [(day: AccelDay, energy: [(model: String, kilocalories: Double)])]
    var options: AccelOptions
    var format: OutputFormat?

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = recording.record(inputs: inputs, recordedAt: recordedAt)
      run.results += storedDays(
        perDay, analysis: recording.result.analysis, file: recording.result.file,
        rules: options.analysis.dayRules)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      renderDays(recording.result, perDay: perDay, options: options, format: format, into: &out)
      return out
    }
  }

  /// `accel energy`: each model's energy over a recording, by hour and
  /// against intake when asked.
  struct EnergyOutcome: RecordingOutcome {
    var recording: RecordingRun
    var energy: RecordingEnergy
    var format: OutputFormat?

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = recording.record(inputs: inputs, recordedAt: recordedAt)
      run.results = storedEnergy(energy.totals, subject: recording.result.file)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(
        ResultTable(
          name: "accel-energy", rows: energy.totals.map { ResultColumns.record(totalColumns, of: $0) }),
        format: format)
      if let hours = energy.hourly { out.emit(hourlyTable(hours), format: format) }
      if let board = energy.balance { out.emit(BalanceCommand.table(board), format: format) }
      return out
    }
  }

  /// Each model's energy over a recording as stored rows, from
  /// `totalColumns` under each model's name (`energy_met_intensity`, kcal).
  package static func storedEnergy(_ totals: [AccelEnergy.Total], subject: String) -> [ResultRow] {
    totals.flatMap { total in
      let model = total.model.replacingOccurrences(of: "-", with: "_")
      return ResultColumns.storedRows(
        totalColumns.map { $0.qualified(by: model) }, of: total, subject: subject)
    }
  }

  /// A recording's epochs as stored rows, one per epoch (ENMO, MAD,
  /// steps, axis-1 counts), when its times are instants.
  package static func storedEpochs(_ epochs: [AccelEpoch], _ r: AccelResult) -> [AccelEpochRow] {
    guard r.info.layout.absoluteTime else { return [] }
    return epochs.map { e in
      AccelEpochRow(
        epochStart: ISO8601.formatUTC(e.start), epochSeconds: e.seconds, enmoMilliG: e.enmoMilliG,
        madMilliG: e.madMilliG, steps: e.steps, countsAxis1: e.countsAxis1)
    }
  }

  /// An instant as ISO-8601 UTC, with milliseconds when it has a fraction
  /// of a second; null when the file's times are not absolute.
  static func time(_ t: Double?, _ result: AccelResult) -> ResultValue {
    guard let t, result.info.layout.absoluteTime else { return .null }
    let millis = (t * 1000).rounded()
    return .string(ISO8601.formatUTC(t, fractionDigits: millis.remainder(dividingBy: 1000) == 0 ? 0 : 3))
  }

  /// A recording's printed summary, from `summaryColumns`.
  package static func summaryRecord(_ r: AccelResult) -> ResultRecord {
    ResultColumns.record(summaryColumns, of: AccelSummaryValue(r))
  }

  /// A recording's summary numbers as stored rows under `subject`, from
  /// `summaryColumns`: each under its name without a unit, the unit in its
  /// own column; an unknown value is no row.
  package static func storedRows(_ r: AccelResult, subject: String) -> [ResultRow] {
    ResultColumns.storedRows(summaryColumns, of: AccelSummaryValue(r), subject: subject)
  }

  /// Every file read and analysed as a summary needs it (no epoch tables
  /// kept, so memory stays flat however long the recording), or why it
  /// could not be; `progress` draws a bar.
  package static func summaries(
    files: [String], options: AccelOptions, jobs: Int? = nil, progress: (@Sendable (String) -> Void)? = nil
  ) -> [Result<AccelResult, Error>] {
    let bar = ProgressBar(label: "accel", files: files, sink: progress)
    var streaming = options
    streaming.analysis.keepEpochs = false
    let results = AccelPipeline.analyseAll(files, options: streaming, jobs: jobs, progress: bar)
    bar.end()
    return results
  }

  /// What `accel summary` computed: a summary per recording read, and a
  /// note per file skipped.
  package struct AccelSummaryOutcome: CommandOutcome {
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
    package var skipped: [String]
    var values: [AccelResult]
    var rows: [ResultRecord]
    var format: OutputFormat?
    package var diagnosticsListedInOutput: Bool { true }

    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      // Every file failed: nothing was summarised, so no run is stored.
      guard !values.isEmpty else { return nil }
      var run = RunRecord(
        command: "accel summary", recordedAt: recordedAt, inputs: inputs, parameters: parameters,
        results: values.flatMap { storedRows($0, subject: $0.file) })
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }

    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(
        ResultTable(
          name: "accel-summary", rows: rows,
          keyColumns: [
            "file", "duration_s", "steps", "enmo_mean_mg", "cut_points", "intensity_epoch_s",
            "moderate_min", "vigorous_min",
          ]),
        format: format)
      return out
    }
  }

  /// What `accel summary` computes: one summary per file read, a note
  /// per unreadable file skipped (`failFast` throws at the first); prints
  /// nothing. `progress` draws a bar.
  package static func summaryOutcome(
    files: [String], options: AccelOptions, jobs: Int? = nil, failFast: Bool = false, format: OutputFormat?,
    progress: (@Sendable (String) -> Void)? = nil
  ) throws -> AccelSummaryOutcome {
    let results = summaries(files: files, options: options, jobs: jobs, progress: progress)
    let summaries = try SkipAndLog(files: files, results: results, failFast: failFast) {
      (summaryRecord($0), $0.diagnostics)
    }
    let values = summaries.values
    let parameters = options.described(values)
    let diagnostics = summaries.diagnostics
    let rows = summaries.rows
    return AccelSummaryOutcome(
      inputs: summaries.inputs, parameters: parameters, diagnostics: diagnostics, skipped: summaries.skipped,
      values: values, rows: rows, format: format)
  }

  /// One summary per file, stored and printed; unreadable files are noted
  /// and skipped and the command then fails (`failFast` stops at the
  /// first).
  package static func summary(
    files: [String], options: AccelOptions, jobs: Int? = nil, failFast: Bool = false,
    databasePath: String? = nil, format: OutputFormat?, driver: Driver
  ) throws {
    let outcome = try summaryOutcome(
      files: files, options: options, jobs: jobs, failFast: failFast, format: format,
      progress: driver.context.progressSink)
    try driver.finish(outcome, database: databasePath)
    try SkippedFiles.check(
      skipped: outcome.skipped.count, of: files.count, read: outcome.values.count, done: "summarised")
  }

  package static func epochRecord(_ e: AccelEpoch, _ r: AccelResult) -> ResultRecord {
    ResultRecord([
      "start": time(e.start, r) == .null ? .number(e.start, 3) : time(e.start, r),
      "seconds": .number(e.seconds, 0),
      "samples": .integer(e.samples),
      "coverage": .number(e.coverage, 3),
      "enmo_mg": .number(e.enmoMilliG, 2),
      "mad_mg": .number(e.madMilliG, 2),
      "steps": e.steps.map { .integer($0) } ?? .null,
      "counts_axis1": .number(e.countsAxis1, 0),
      "counts_x": .number(e.countsX, 0),
      "counts_y": .number(e.countsY, 0),
      "counts_z": .number(e.countsZ, 0),
      "counts_vm": .number(e.countsVectorMagnitude, 1),
      "intensity": e.intensity.map { .string($0.rawValue) } ?? .null,
    ])
  }

  /// One file analysed at one epoch length only.
  package static func epochs(file: String, epochSeconds: Double, options: AccelOptions) throws -> AccelResult
  {
    var options = options
    options.analysis.epochSeconds = [epochSeconds]
    options.epochsGiven = true
    return try AccelPipeline.analyse(file, options: options)
  }

  /// The epoch table of one file at one epoch length.
  package static func epochs(
    file: String, epochSeconds: Double, options: AccelOptions, databasePath: String? = nil,
    format: OutputFormat?, driver: Driver
  ) throws {
    let r = try epochs(file: file, epochSeconds: epochSeconds, options: options)
    let epochs = r.analysis.epochs(seconds: epochSeconds) ?? []
    try driver.finish(
      EpochsOutcome(
        recording: RecordingRun(r, command: "accel epochs", options: options), epochs: epochs, format: format),
      database: databasePath)
  }

  /// Days, local hours and times of day need times that are instants; a
  /// phone's sensor clock without `--start` counts from the first sample,
  /// which would read as 1 January 1970.
  static func requireDates(_ r: AccelResult, for what: String) throws {
    guard !r.info.layout.absoluteTime else { return }
    throw UsageError(
      .unsupported,
      "\(r.file): times count from the first sample, not from a date, so there are no \(what); give the time of the first sample with \(Remedy(.start).text) (ISO-8601 with an offset)"
    )
  }

  /// A recording's days, each with its energy by model.
  package static func days(_ r: AccelResult, options: AccelOptions, energy: AccelEnergyOptions) throws
    -> [(day: AccelDay, energy: [(model: String, kilocalories: Double)])]
  {
    try requireDates(r, for: "days")
    let zone = localZone(r.info.layout, options)
    let byDay = try AccelEnergy.byDay(r.analysis, options: energy, timeZone: zone)
    return r.analysis.days.map { d in (d, (byDay[d.date] ?? []).map { ($0.0, $0.1) }) }
  }

  /// Daily summaries with energy by model.
  package static func days(
    file: String, options: AccelOptions, energy: AccelEnergyOptions, databasePath: String? = nil,
    format: OutputFormat?, driver: Driver
  ) throws {
    let r = try AccelPipeline.analyse(file, options: options)
    let perDay = try days(r, options: options, energy: energy)
    try driver.finish(
      DaysOutcome(
        recording: RecordingRun(r, command: "accel days", options: options, energy: energy), perDay: perDay,
        options: options, format: format), database: databasePath)
  }

  /// A day as the columns of `accel days` read it.
  static func dayValue(
    _ day: AccelDay, _ analysis: AccelAnalysis, rules: DayRules,
    energy: [(model: String, kilocalories: Double)] = []
  ) -> AccelDayValue {
    AccelDayValue(
      day: day, isValid: rules.isValid(day), cutPoints: analysis.cutPoints.id,
      intensityEpochSeconds: analysis.intensityEpochSeconds, energy: energy)
  }

  /// The models whose energy the days have, in their order.
  static func models(_ perDay: [(day: AccelDay, energy: [(model: String, kilocalories: Double)])]) -> [String]
  {
    var models: [String] = []
    for (_, energy) in perDay {
      for (model, _) in energy where !models.contains(model) { models.append(model) }
    }
    return models
  }

  /// A recording's days as stored rows, one subject per day (`file date`),
  /// from `dayColumns(models:)`: each model's energy as `energy_MODEL`.
  static func storedDays(
    _ perDay: [(day: AccelDay, energy: [(model: String, kilocalories: Double)])], analysis: AccelAnalysis,
    file: String, rules: DayRules
  ) -> [ResultRow] {
    let columns = dayColumns(models: models(perDay))
    return perDay.flatMap { d, energy -> [ResultRow] in
      ResultColumns.storedRows(
        columns, of: dayValue(d, analysis, rules: rules, energy: energy), subject: "\(file) \(d.date)")
    }
  }

  static func renderDays(
    _ r: AccelResult, perDay: [(day: AccelDay, energy: [(model: String, kilocalories: Double)])],
    options: AccelOptions, format: OutputFormat?, into out: inout Rendering
  ) {
    let rules = options.analysis.dayRules
    let columns = dayColumns(models: models(perDay))
    let rows = perDay.map { d, energy -> ResultRecord in
      ResultColumns.record(columns, of: dayValue(d, r.analysis, rules: rules, energy: energy))
    }
    out.emit(
      ResultTable(
        name: "accel-days", rows: rows,
        keyColumns: [
          "date", "wear_h", "valid", "cut_points", "intensity_epoch_s", "sedentary_min", "light_min",
          "moderate_min", "vigorous_min", "mvpa_bout_min", "sedentary_bout_min", "sedentary_breaks",
        ]), format: format)
    let summary = ValidDays(perDay.map(\.day), rules: rules)
    out.emit(
      ResultTable(name: "accel-valid-days", rows: [summary.record(r)]), format: format)
  }

  /// Day-level means over the valid days only.
  package struct ValidDays: Sendable {
    package var rules: DayRules
    package var days: Int
    package var valid: [AccelDay]

    package init(_ days: [AccelDay], rules: DayRules) {
      self.rules = rules
      self.days = days.count
      valid = days.filter { rules.isValid($0) }
    }

    /// The mean of a day's value over the valid days that have it.
    package func mean(_ value: (AccelDay) -> Double?) -> Double? {
      let values = valid.compactMap(value)
      return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    func record(_ r: AccelResult) -> ResultRecord {
      ResultRecord([
        "rule": .string(
          "valid: at least \(Fixed.shortest(rules.minimumWearHours)) h of wear; GGIR's bout rule: MVPA bouts of \(Fixed.shortest(rules.boutMinutes)) min at \(Fixed.shortest(rules.boutShare * 100)) %, sedentary bouts of \(Fixed.shortest(rules.sedentaryBoutMinutes)) min at \(Fixed.shortest(rules.sedentaryBoutShare * 100)) %"
        ),
        "days": .integer(days),
        "valid_days": .integer(valid.count),
        "wear_h_mean": .number(mean { $0.wearHours }, 2),
        "enmo_mean_mg": .number(mean(\.enmoMeanMilliG), 2),
        "steps_mean": .number(mean { $0.steps.map(Double.init) }, 0),
        "sedentary_min_mean": .number(mean { $0.minutes[.sedentary] }, 1),
        "light_min_mean": .number(mean { $0.minutes[.light] }, 1),
        "moderate_min_mean": .number(mean { $0.minutes[.moderate] }, 1),
        "vigorous_min_mean": .number(mean { $0.minutes[.vigorous] }, 1),
        "mvpa_bout_min_mean": .number(mean(\.mvpaBoutMinutes), 1),
        "sedentary_bout_min_mean": .number(mean(\.sedentaryBoutMinutes), 1),
        "sedentary_breaks_mean": .number(mean { $0.sedentaryBreaks.map(Double.init) }, 1),
      ])
    }
  }

  /// A recording's energy: each model's total, the hour-of-day profile
  /// when asked, and the StepMyHealth calorie balance when an intake is
  /// given.
  package struct RecordingEnergy: Sendable {
    package var recording: AccelResult
    package var totals: [AccelEnergy.Total]
    package var hourly: [AccelEnergy.Hour]?
    package var balance: BalanceCommand.Leaderboard?
    /// What applying the equations noticed (another device or site).
    package var diagnostics: [Diagnostic] = []
  }

  /// The device a recording's format names ("actigraph", "geneactiv",
  /// "axivity", "empatica"), nil for a phone or a generic CSV.
  static func equationDevice(of format: AccelFormat) -> String? {
    switch format {
    case .actigraphRaw, .actigraphCounts, .actigraphGT3X: return "actigraph"
    case .geneactiv, .geneactivBin: return "geneactiv"
    case .axivity, .axivityCWA: return "axivity"
    case .empaticaE4: return "empatica"
    case .ukBiobankEpoch: return "axivity"
    case .phone, .generic: return nil
    }
  }

  /// The options with each equation's epoch among the epochs analysed.
  package static func withEquationEpochs(_ options: AccelOptions, energy: AccelEnergyOptions) throws
    -> AccelOptions
  {
    var options = options
    for id in energy.equations {
      let e = try AccelEquation.named(id)
      if !options.analysis.epochSeconds.contains(where: { abs($0 - e.epochSeconds) < 1e-9 }) {
        options.analysis.epochSeconds = (options.analysis.epochSeconds + [e.epochSeconds]).sorted()
      }
    }
    return options
  }

  /// The totals of the equations asked for (`AccelEnergyOptions.equations`)
  /// on a recording, each on its own epoch, with a warning where the
  /// recording's device or wear location is not the equation's, and an
  /// error where the recording gives none of the equation's quantity.
  package static func equationTotals(_ r: AccelResult, options: AccelOptions, energy: AccelEnergyOptions)
    throws -> (totals: [AccelEnergy.Total], diagnostics: [Diagnostic])
  {
    var totals: [AccelEnergy.Total] = []
    var diagnostics: [Diagnostic] = []
    let device = equationDevice(of: r.info.layout.format)
    let stated = r.statedWearLocation.flatMap(CutPoints.wearLocation(stated:))
    let given = options.analysis.wearLocationStated ? options.analysis.steps.wearLocation : nil
    let site = stated ?? given
    for id in energy.equations {
      let e = try AccelEquation.named(id)
      let result = try e.energy(r.analysis, bodyMassKilograms: energy.bodyMassKilograms, sex: energy.sex)
      guard let kcal = result.kilocalories else {
        throw UsageError(
          .unsupported,
          "\(r.file): \(id) takes \(e.quantity.rawValue) on \(Fixed.shortest(e.epochSeconds)) s epochs, and the recording gives none (\(r.analysis.kind.rawValue) data\(r.analysis.epochs(seconds: e.epochSeconds) == nil ? "; its epochs cannot be cut to \(Fixed.shortest(e.epochSeconds)) s" : ""))"
        )
      }
      totals.append(
        AccelEnergy.Total(
          model: id, kcal: kcal,
          basis:
            "\(e.model.info.equation) on \(result.epochs) worn \(Fixed.shortest(e.epochSeconds)) s epochs of \(e.quantity.rawValue) (\(e.model.info.citation))"
        ))
      if result.missing > 0 {
        diagnostics.append(
          Diagnostic(
            code: "equation-epochs-unknown",
            message:
              "\(id): \(result.missing) worn \(Fixed.shortest(e.epochSeconds)) s epoch(s) have no \(e.quantity.rawValue) and add nothing to its total",
            location: r.file))
      }
      if let device, device != e.device {
        diagnostics.append(
          Diagnostic(
            code: "equation-device",
            message:
              "\(id) was derived on \(e.device == "actigraph" ? "ActiGraph" : "GENEActiv") recordings; this one is from \(device == "actigraph" ? "an ActiGraph" : device == "geneactiv" ? "a GENEActiv" : "an \(device.capitalized)") (\(r.info.layout.format.rawValue)): the devices' outputs differ, so the equation is applied outside its own data",
            location: r.file))
      } else if device == nil {
        diagnostics.append(
          Diagnostic(
            code: "equation-device", severity: .note,
            message:
              "\(id) was derived on \(e.device == "actigraph" ? "ActiGraph" : "GENEActiv") recordings; the device of this \(r.info.layout.format.rawValue) file is not known",
            location: r.file))
      }
      if let site, site != e.site {
        diagnostics.append(
          Diagnostic(
            code: "equation-wear-location",
            message:
              "\(id) was derived at the \(e.site.rawValue); this recording was worn at the \(site.rawValue) (\(stated != nil ? "its header: \"\(r.statedWearLocation ?? "")\"" : Remedy(.wearLocation).text)): the equation is applied outside its own data",
            location: r.file))
      } else if site == nil {
        diagnostics.append(
          Diagnostic(
            code: "equation-wear-location", severity: .note,
            message:
              "\(id) was derived at the \(e.site.rawValue); the recording states no wear location (\(Remedy(.wearLocation).text) says it)",
            location: r.file))
      }
    }
    return (totals, diagnostics)
  }

  package static func recordingEnergy(
    _ r: AccelResult, options: AccelOptions, energy: AccelEnergyOptions, intakeKilocalories: Double?,
    allowanceKilocalories: Double?, hourly: Bool = false
  ) throws -> RecordingEnergy {
    if hourly { try requireDates(r, for: "hours of the day") }
    let zone = localZone(r.info.layout, options)
    var result = RecordingEnergy(
      recording: r, totals: try AccelEnergy.totals(r.analysis, options: energy),
      hourly: hourly ? try AccelEnergy.hourly(r.analysis, options: energy, timeZone: zone) : nil, balance: nil
    )
    let equations = try equationTotals(r, options: options, energy: energy)
    result.totals += equations.totals
    result.diagnostics = equations.diagnostics
    if let intake = intakeKilocalories {
      guard let steps = r.analysis.steps else {
        throw UsageError(.unsupported, "\(r.file) has no steps; the calorie balance needs them")
      }
      let perStep = PerStep.stepMyHealthKilocaloriesPerStep
      result.balance = try BalanceCommand.leaderboard(
        users: [
          BalanceCommand.User(
            name: (r.file as NSString).lastPathComponent,
            balance: CalorieBalance(
              intakeKilocalories: intake, steps: Double(steps),
              allowanceKilocalories: allowanceKilocalories ?? 2000,
              kilocaloriesPerStep: perStep))
        ], kilocaloriesPerStep: perStep)
    }
    return result
  }

  /// `accel energy`: analyse, compute, record, print.
  package static func energy(
    file: String, options: AccelOptions, energy: AccelEnergyOptions, intakeKilocalories: Double?,
    allowanceKilocalories: Double?, hourly: Bool = false, databasePath: String? = nil, format: OutputFormat?,
    driver: Driver
  ) throws {
    let options = try withEquationEpochs(options, energy: energy)
    let r = try AccelPipeline.analyse(file, options: options)
    let result = try recordingEnergy(
      r, options: options, energy: energy, intakeKilocalories: intakeKilocalories,
      allowanceKilocalories: allowanceKilocalories, hourly: hourly)
    guard !result.totals.isEmpty else {
      // The error points at the warnings: they are printed before it.
      try driver.finish(NoticedBeforeFailure(diagnostics: r.diagnostics), database: nil)
      throw UsageError(
        .unsupported,
        "\(r.file): no energy model applies: the recording gives neither steps nor intensity classes (see its warnings)"
      )
    }
    try driver.finish(
      EnergyOutcome(
        recording: RecordingRun(
          r, command: "accel energy", options: options, energy: energy,
          extra: result.balance?.parameters ?? [], diagnostics: r.diagnostics + result.diagnostics),
        energy: result, format: format), database: databasePath)
  }
}

extension AccelCommands {
  static func hourlyTable(_ hours: [AccelEnergy.Hour]) -> ResultTable {
    ResultTable(
      name: "accel-hourly",
      rows: hours.map { h in
        var record = ResultRecord([
          "hour": .integer(h.hour), "worn_h": .number(h.wornHours, 2), "days": .integer(h.days),
          "steps": .integer(h.steps),
        ])
        for (model, kcal) in h.kilocalories { record[modelEnergy(model).key] = modelEnergy.printed(kcal) }
        return record
      })
  }

  /// A recording's charts and its hourly table, ready to draw and print.
  package struct Plot: Sendable {
    package var hourly: ResultTable
    package var charts: [GnuplotChart]
  }

  /// What `accel plot` computed: the hourly table and the charts to draw.
  struct AccelPlotOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var plot: Plot
    var chartsDirectory: String?
    var format: OutputFormat?

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(plot.hourly, format: format)
      for chart in plot.charts { out.draw(chart, folder: chartsDirectory, format: format) }
      return out
    }
  }

  /// Charts of a recording by local time: acceleration (ENMO, or counts
  /// per minute) per epoch with the cut-points, steps per hour, energy per
  /// hour by model and, when non-wear was detected, hours worn and not
  /// worn per day against the valid-day rule, after the hourly table.
  package static func plot(
    file: String, options: AccelOptions, energy: AccelEnergyOptions, chartsDirectory: String?,
    format: OutputFormat?, driver: Driver
  ) throws {
    let r = try AccelPipeline.analyse(file, options: options)
    let plot = try plot(r, options: options, energy: energy)
    let parameters = options.described([r]) + energy.described
    try driver.finish(
      AccelPlotOutcome(
        inputs: [r.file], parameters: parameters, diagnostics: r.diagnostics, plot: plot,
        chartsDirectory: chartsDirectory, format: format), database: nil)
  }

  package static func plot(_ r: AccelResult, options: AccelOptions, energy: AccelEnergyOptions) throws -> Plot
  {
    try requireDates(r, for: "local times to plot against")
    let file = r.file
    var charts: [GnuplotChart] = []
    let zone = localZone(r.info.layout, options)
    let stem = GnuplotChart.safeFileStem(
      URL(fileURLWithPath: file).lastPathComponent.components(separatedBy: ".").first ?? "recording")
    let epochs = r.analysis.epochs.last?.epochs ?? []
    guard let first = epochs.first else {
      throw InputError(.empty, SourceLocation(file: file), "no epochs", expected: "a recording to plot")
    }
    let local0 = first.start + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: first.start)))
    let midnight = (local0 / 86400).rounded(.down) * 86400
    func hours(_ t: Double) -> Double {
      (t + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: t))) - midnight) / 3600
    }
    let counts = r.analysis.kind == .counts
    let cut = r.analysis.cutPoints
    let perMinute = 60 / (epochs.first?.seconds ?? 60)
    let notWorn = Set(
      epochs.filter { e in r.nonWear?.isNotWorn(e.start + e.seconds / 2) ?? false }.map(\.start))
    var acceleration = GnuplotChart(
      name: "\(stem)-acceleration",
      title: counts ? "Axis-1 counts per minute" : "ENMO per \(Fixed.shortest(first.seconds)) s epoch",
      xLabel: "local time (h)", yLabel: counts ? "activity (counts/min)" : "ENMO (mg)",
      series: [
        .init(
          title: (counts ? "counts/min" : "ENMO") + (notWorn.isEmpty ? "" : " (gaps: not worn)"),
          style: .lines,
          points: epochs.compactMap { e in
            // Time not worn is a gap, not a value of 0 that reads as
            // worn, sedentary time.
            if notWorn.contains(e.start) { return GnuplotChart.Point(hours(e.start), .nan) }
            guard let v = counts ? e.countsAxis1.map({ $0 * perMinute }) : e.enmoMilliG else { return nil }
            return GnuplotChart.Point(hours(e.start), v)
          })
      ])
    acceleration.yFromZero = true
    acceleration.horizontalLines = [
      .init(
        y: cut.light,
        title: cut.publishedEpochSeconds == first.seconds
          ? "light (\(cut.id), \(Fixed.shortest(cut.publishedEpochSeconds)) s epochs)"
          : "light (\(cut.id), published for \(Fixed.shortest(cut.publishedEpochSeconds)) s epochs; drawn over \(Fixed.shortest(first.seconds)) s means)"
      ),
      .init(y: cut.moderate, title: "moderate"),
      .init(y: cut.vigorous, title: "vigorous"),
    ]
    let byHour = try AccelEnergy.hourly(r.analysis, options: energy, timeZone: zone)
    charts.append(acceleration)
    // Per hour of the day: the mean per worn hour over the days worn then
    // (a sum over days would grow with the days and dip where the device
    // was off), with those days under each hour.
    let dayCount = r.analysis.days.filter { $0.wearHours > 0 }.count
    let over = dayCount == 1 ? "one day" : "\(dayCount) days"
    let dayLabels = byHour.map { "\($0.days) d" }
    let hourNote = "mean over \(over); under each hour, the days worn in it"
    if r.analysis.steps != nil {
      var steps = GnuplotChart(
        name: "\(stem)-steps", title: "Steps per worn hour: \(hourNote)", xLabel: "local hour (h)",
        yLabel: "steps (per worn hour)", series: [])
      steps.stackedBars = GnuplotChart.StackedBars(
        categories: byHour.map { String($0.hour) }, seriesTitles: ["steps"],
        values: byHour.map { [$0.perWornHour(Double($0.steps)) ?? .nan] }, subLabels: dayLabels)
      charts.append(steps)
    }
    if let allModels = byHour.first?.kilocalories.map(\.0), !allModels.isEmpty {
      let all = byHour.map { h in h.kilocalories.map { h.perWornHour($0.1) ?? .nan } }
      // A model whose largest hour is under 1 % of the chart's largest
      // value would be a key entry without a visible bar: it is left out,
      // and the title says so (the table keeps it).
      let top = all.joined().filter(\.isFinite).max() ?? 0
      let largest = allModels.indices.map { k in all.map { $0[k] }.filter(\.isFinite).max() ?? 0 }
      let kept = allModels.indices.filter { top <= 0 || largest[$0] >= 0.01 * top }
      let left = allModels.indices.filter { !kept.contains($0) }
      let leftNote =
        left.isEmpty
        ? ""
        : "; not drawn, under 1 % of the scale: "
          + left.map { "\(allModels[$0]) (at most \(Fixed.format(largest[$0], digits: 2)) kcal)" }.joined(
            separator: ", ")
      var chart = GnuplotChart(
        name: "\(stem)-energy", title: "Energy per worn hour by model: \(hourNote)\(leftNote)",
        xLabel: "local hour (h)", yLabel: "energy (kcal per worn hour)",
        series: [])
      chart.stackedBars = GnuplotChart.StackedBars(
        categories: byHour.map { String($0.hour) }, seriesTitles: kept.map { allModels[$0] },
        values: all.map { row in kept.map { row[$0] } }, clustered: true,
        subLabels: dayLabels)
      charts.append(chart)
    }
    if r.nonWear != nil, !r.analysis.days.isEmpty {
      let rules = options.analysis.dayRules
      var chart = GnuplotChart(
        name: "\(stem)-wear", title: "Wear per day", xLabel: "local date", yLabel: "hours (h)", series: [])
      chart.stackedBars = GnuplotChart.StackedBars(
        categories: r.analysis.days.map(\.date), seriesTitles: ["worn", "not worn"],
        values: r.analysis.days.map { [$0.wearHours, $0.nonWearHours] })
      chart.horizontalLines = [
        .init(
          y: rules.minimumWearHours, title: "valid day: \(Fixed.shortest(rules.minimumWearHours)) h of wear")
      ]
      chart.yFromZero = true
      charts.append(chart)
    }
    return Plot(hourly: hourlyTable(byHour), charts: charts)
  }

  /// Writes a synthetic recording as `time,x,y,z` CSV (ISO-8601 UTC times
  /// to the millisecond, g to 4 decimals), streamed and atomic, and prints
  /// what it holds by construction.
  package static func synth(_ spec: SyntheticRecordingSpec, outputPath: String, driver: Driver) throws {
    let nanosPerSample = 1e9 / spec.rateHz
    let startWhole = spec.startSecondsSince1970.rounded(.down)
    let startNanos = Int64(((spec.startSecondsSince1970 - startWhole) * 1e9).rounded())
    try AtomicFile.stream(to: outputPath) { write in
      var buffer: [UInt8] = []
      buffer.reserveCapacity(1 << 20)
      buffer += Array("time,x,y,z\n".utf8)
      var second = Int64.min
      var prefix: [UInt8] = []
      try AccelSynthesizer.generate(spec) { i, x, y, z in
        let nanos = startNanos + Int64((Double(i) * nanosPerSample).rounded())
        let s = nanos / 1_000_000_000
        if s != second {
          second = s
          prefix = Array(ISO8601.formatUTC(startWhole + Double(s)).dropLast().utf8)
        }
        buffer += prefix
        let millis = Int((nanos % 1_000_000_000) / 1_000_000)
        buffer += [
          0x2E, UInt8(0x30 + millis / 100), UInt8(0x30 + millis / 10 % 10), UInt8(0x30 + millis % 10), 0x5A,
        ]
        for v in [x, y, z] {
          buffer.append(0x2C)
          appendFixed4(v, to: &buffer)
        }
        buffer.append(0x0A)
        if buffer.count > (1 << 20) - 128 {
          try write(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
      try write(buffer)
    }
    let legs = spec.legs.map { "\($0.movement.name) \(Fixed.shortest($0.seconds)) s" }.joined(separator: ", ")
    var out = driver.rendering()
    out.write(
      "wrote \(outputPath): \(spec.samples) samples at \(Fixed.shortest(spec.rateHz)) Hz (\(legs)), \(spec.steps) steps by construction, seed \(spec.seed)\n"
    )
    try driver.print(out)
  }

  /// What `accel convert` wrote.
  package struct Conversion: Sendable {
    package var info: AccelFileInfo
    package var outputPath: String
  }

  /// Writes any accelerometer file EnergyLab reads (device binaries
  /// included) as `time,x,y,z[,temperature]` CSV, streamed and atomic:
  /// ISO-8601 UTC times to the microsecond, g and °C to 6 decimals (an
  /// empty temperature where a block recorded none). The CSV reader reads
  /// it back to the same samples within 5e-7 g and 5e-7 s.
  package static func convert(file: String, outputPath: String, options: AccelOptions) throws -> Conversion {
    var reader = AccelReader(map: options.map, timeZone: options.timeZone, workers: options.parseWorkers)
    reader.fillIdleSleep = options.fillIdleSleep
    var info: AccelFileInfo?
    try AtomicFile.stream(to: outputPath) { write in
      var withTemperature = false
      var buffer: [UInt8] = []
      buffer.reserveCapacity(1 << 20)
      info = try reader.read(
        path: file,
        onLayout: { layout in
          guard layout.kind == .raw else {
            throw UsageError(
              .unsupported,
              "\(file) holds \(layout.kind.rawValue) epochs, not raw acceleration; convert writes raw samples only"
            )
          }
          withTemperature = layout.columnNames.contains("temperature")
          buffer += Array((withTemperature ? "time,x,y,z,temperature\n" : "time,x,y,z\n").utf8)
        },
        onBlock: { block in
          for i in 0..<block.count {
            buffer += Array(ISO8601.formatUTC(block.time[i], fractionDigits: 6).utf8)
            for k in 0..<3 {
              buffer.append(0x2C)
              appendFixed(block.values[i * 3 + k], digits: 6, to: &buffer)
            }
            if withTemperature {
              buffer.append(0x2C)
              if i < block.temperatureCelsius.count, block.temperatureCelsius[i].isFinite {
                appendFixed(block.temperatureCelsius[i], digits: 6, to: &buffer)
              }
            }
            buffer.append(0x0A)
            if buffer.count > (1 << 20) - 256 {
              try write(buffer)
              buffer.removeAll(keepingCapacity: true)
            }
          }
        })
      try write(buffer)
    }
    guard let info else { throw RuntimeError("\(file): read without a result") }
    return Conversion(info: info, outputPath: outputPath)
  }

  /// What `accel convert` wrote, for its one line of report.
  struct AccelConversionOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var result: Conversion
    var file: String
    var outputPath: String

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      let rate = result.info.layout.declaredRateHz.map { " at \(Fixed.shortest($0)) Hz" } ?? ""
      out.write(
        "wrote \(outputPath): \(result.info.rows) samples\(rate) from \(file) (\(result.info.layout.format.rawValue))\n"
      )
      return out
    }
  }

  /// `accel convert`: converts, then reports what was written and the
  /// reader's diagnostics.
  package static func convert(file: String, outputPath: String, options: AccelOptions, driver: Driver)
    throws
  {
    let result = try convert(file: file, outputPath: outputPath, options: options)
    try driver.finish(
      AccelConversionOutcome(
        inputs: [file], parameters: options.map.described, diagnostics: result.info.diagnostics,
        result: result, file: file, outputPath: outputPath), database: nil)
  }

  /// Appends `value` with `digits` decimals, as `-0.012300`.
  static func appendFixed(_ value: Double, digits: Int, to buffer: inout [UInt8]) {
    var power: Int64 = 1
    for _ in 0..<digits { power *= 10 }
    var scaled = Int64((value * Double(power)).rounded())
    if scaled < 0 {
      buffer.append(0x2D)
      scaled = -scaled
    }
    buffer += Array(String(scaled / power).utf8)
    buffer.append(0x2E)
    var fraction = scaled % power
    var digitsOut = [UInt8](repeating: 0x30, count: digits)
    for k in stride(from: digits - 1, through: 0, by: -1) {
      digitsOut[k] = UInt8(0x30 + fraction % 10)
      fraction /= 10
    }
    buffer += digitsOut
  }

  /// Appends `value` with four decimals, as `-0.0123`.
  static func appendFixed4(_ value: Double, to buffer: inout [UInt8]) {
    var scaled = Int64((value * 10_000).rounded())
    if scaled < 0 {
      buffer.append(0x2D)
      scaled = -scaled
    }
    let whole = scaled / 10_000
    let fraction = Int(scaled % 10_000)
    buffer += Array(String(whole).utf8)
    buffer += [
      0x2E, UInt8(0x30 + fraction / 1000), UInt8(0x30 + fraction / 100 % 10),
      UInt8(0x30 + fraction / 10 % 10),
      UInt8(0x30 + fraction % 10),
    ]
  }
}

extension Array where Element == AccelDay {
  /// The sum of a day's value over the days that have it; nil when none
  /// does.
  func total(_ value: (AccelDay) -> Double?) -> Double? {
    let values = compactMap(value)
    return values.isEmpty ? nil : values.reduce(0, +)
  }
}
