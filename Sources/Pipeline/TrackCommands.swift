import EnergyLabCore
import Estimation
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// `track synth` and `track summary` as library calls.
package enum TrackCommands {
  /// The track `track synth` wrote, for its one line of report.
  struct TrackSynthOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter] { [] }
    var diagnostics: [Diagnostic] { [] }
    var spec: SyntheticTrackSpec
    var track: Track
    var outputPath: String

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      if spec.route.count >= 2 {
        out.write(
          "wrote \(outputPath): \(track.points.count) fixes following \(spec.route.count) waypoints at \(Fixed.shortest(spec.speedMetersPerSecond)) m/s, seed \(spec.seed)\n"
        )
        return out
      }
      let legs = spec.effectiveLegs.map {
        "\(Fixed.format($0.durationSeconds, digits: 0)) s at \(Fixed.shortest($0.speedMetersPerSecond)) m/s, grade \(Fixed.shortest($0.gradeFraction))"
      }
      out.write(
        "wrote \(outputPath): \(track.points.count) fixes, \(legs.joined(separator: "; then ")), seed \(spec.seed)\n"
      )
      return out
    }
  }

  /// Writes a synthetic track as GPX to `outputPath` (atomically) and prints
  /// what it holds by construction. `inputs` are the files the spec was
  /// read from (a route).
  package static func synth(
    _ spec: SyntheticTrackSpec, outputPath: String, inputs: [String] = [], driver: Driver
  ) throws {
    let track = TrackSynthesizer.track(spec)
    try AtomicFile.write(
      GPXWriter.gpx(track, creator: "EnergyLab \(EnergyLabVersion.current) track synth"), to: outputPath)
    try driver.finish(
      TrackSynthOutcome(inputs: inputs, spec: spec, track: track, outputPath: outputPath), database: nil)
  }

  /// Reads a GPX, TCX or FIT file whole, cleaned as the parameters say.
  package static func readTrack(
    _ path: String, parameters: TrackAnalysisParameters = TrackAnalysisParameters(),
    defaultTimeZone: TimeZone? = nil
  ) throws -> Track {
    try readTrackAndHeader(path, parameters: parameters, defaultTimeZone: defaultTimeZone).track
  }

  /// `readTrack`, with what the file says of itself (its format).
  static func readTrackAndHeader(
    _ path: String, parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone?
  ) throws -> (track: Track, header: TrackHeader) {
    var assembler = TrackAssembler()
    var cleaner = TrackCleaner(parameters: parameters.cleaning)
    var elevation = ElevationCleaner(parameters: parameters.elevationCleaning)
    let header = try streamTrackFile(
      path, defaultTimeZone: defaultTimeZone, readTruncated: parameters.readTruncatedFiles,
      ignoreCRC: parameters.ignoreFileCRC
    ) { p in
      cleaner.add(p) { elevation.add($0) { assembler.add($0) } }
    }
    cleaner.finish { elevation.add($0) { assembler.add($0) } }
    elevation.finish { assembler.add($0) }
    var track = assembler.track(
      name: header.name, source: path, structure: header.structure,
      deviceDistanceMeters: header.deviceDistanceMeters,
      declaredSportBySegment: header.declaredSportBySegment,
      diagnostics: header.diagnostics + cleaner.diagnostics(source: path))
    track.elevationTally = elevation.tally
    // FIT: legs whose sessions the file writes after their records.
    if let fit = header.fit { track = fit.splittingSegmentsBySession(track) }
    return (track, header)
  }

  /// Streams the fixes of any track file in file order: FIT (told by its
  /// content), GPX and TCX, or a COSMED K5 export (a position, speed and
  /// heart rate per breath). `readTruncated` reads a FIT file that ends
  /// early up to its last whole message.
  package static func streamTrackFile(
    _ path: String, defaultTimeZone: TimeZone?, readTruncated: Bool = false, ignoreCRC: Bool = false,
    onPoint: @escaping (TrackPoint) throws -> Void
  ) throws -> TrackHeader {
    guard isMeasuredExport(path) else {
      // FIT by its content, else GPX or TCX.
      return try TrackFileReader(
        gpx: GPXReader(defaultTimeZone: defaultTimeZone),
        fit: FITReader(ignoreCRC: ignoreCRC, readTruncated: readTruncated)
      ).stream(path: path, onPoint: onPoint)
    }
    let track = try MeasuredExpenditureReader(timeZone: defaultTimeZone).readCOSMED(path: path).track()
    let fixes = (track.points + track.timeOnlyPoints).sorted { $0.sourceLine < $1.sourceLine }
    for p in fixes { try onPoint(p) }
    return TrackHeader(
      name: nil, format: "cosmed-k5", sports: [], structure: track.structure, deviceDistanceMeters: nil,
      diagnostics: track.diagnostics)
  }

  /// Whether a track file is a measured-expenditure export (CSV) rather
  /// than GPX or TCX: by its name's ending.
  package static func isMeasuredExport(_ path: String) -> Bool {
    let lower = path.lowercased()
    return [".csv", ".csv.gz", ".txt", ".txt.gz"].contains { lower.hasSuffix($0) }
  }

  /// A summary's printed row, from `summaryColumns`.
  package static func summaryRecord(_ s: TrackSummary, format: String?, fit: FITSummary? = nil)
    -> ResultRecord
  {
    ResultColumns.record(summaryColumns, of: TrackSummaryValue(s, format: format, fit: fit))
  }

  /// A summary as the store's `tracks` row of the file at `path`.
  static func trackRow(_ s: TrackSummary, path: String) -> TrackRow {
    TrackRow(
      path: path, points: s.points, startTime: s.startSecondsSince1970.map { ISO8601.formatUTC($0) },
      endTime: s.endSecondsSince1970.map { ISO8601.formatUTC($0) }, durationSeconds: s.durationSeconds,
      distanceMeters: s.distance2DMeters)
  }

  /// A summary's numbers as stored rows under `subject`, from
  /// `summaryColumns`: each under its name without a unit, the unit in its
  /// own column; a value the summary does not have is no row, never 0.
  package static func storedRows(_ s: TrackSummary, fit: FITSummary? = nil, subject: String) -> [ResultRow] {
    ResultColumns.storedRows(
      summaryColumns, of: TrackSummaryValue(s, format: nil, fit: fit), subject: subject)
  }

  /// Each file's summary and what the file says of itself, or why it could
  /// not be read, in the order the files were given.
  package struct Summaries: Sendable {
    package var files: [String]
    package var results: [Result<(TrackSummary, TrackHeader), Error>]
    package var parameters: [NamedParameter]
  }

  /// Summaries of many files in constant memory per file, on `jobs`
  /// threads (default: the number of cores, never more than files); one
  /// file reads and computes on two threads. `progress` draws a bar.
  package static func summaries(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil, jobs: Int? = nil,
    progress: (@Sendable (String) -> Void)? = nil
  ) -> Summaries {
    let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count))
    let bar = ProgressBar(label: "track", files: files, sink: progress)
    let results: [Result<(TrackSummary, TrackHeader), Error>] =
      files.count == 1
      ? [
        Result {
          try TrackPipelines.summarise(
            file: files[0], parameters: parameters, defaultTimeZone: defaultTimeZone)
        }
      ]
      : parallelMap(count: files.count, workers: workers) { index in
        let result = Result {
          try TrackPipelines.summariseSequentially(
            file: files[index], parameters: parameters, defaultTimeZone: defaultTimeZone)
        }
        bar.finished(file: index)
        return result
      }
    bar.end()
    return Summaries(files: files, results: results, parameters: parameters.described)
  }

  /// What `track summary` computed: a summary per track read, and a note
  /// per file skipped.
  package struct TrackSummaryOutcome: CommandOutcome {
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
    package var skipped: [String]
    var values: [(TrackSummary, TrackHeader)]
    var rows: [ResultRecord]
    var format: OutputFormat?
    package var diagnosticsListedInOutput: Bool { true }

    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      // Every file failed: nothing was summarised, so no run is stored.
      guard !values.isEmpty else { return nil }
      var run = RunRecord(
        command: "track summary", recordedAt: recordedAt, inputs: inputs, parameters: parameters,
        results: values.flatMap { storedRows($0.0, fit: $0.1.fit, subject: $0.0.source) })
      run.tracks = values.map { s, _ in trackRow(s, path: s.source) }
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }

    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(
        ResultTable(
          name: "track-summary", rows: rows,
          keyColumns: ["file", "start_time", "duration_s", "distance_2d_m", "elevation_gain_m"]),
        format: format)
      return out
    }
  }

  /// What `track summary` computes: the summaries of the files read, a
  /// note per unreadable file skipped (`failFast` throws at the first);
  /// prints nothing. `progress` draws a bar.
  package static func summaryOutcome(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    failFast: Bool = false, jobs: Int? = nil, format: OutputFormat?,
    progress: (@Sendable (String) -> Void)? = nil
  ) throws -> TrackSummaryOutcome {
    let found = summaries(
      files: files, parameters: parameters, defaultTimeZone: defaultTimeZone, jobs: jobs,
      progress: progress)
    let summaries = try SkipAndLog(files: files, results: found.results, failFast: failFast) {
      (summaryRecord($0.0, format: $0.1.format, fit: $0.1.fit), $0.0.diagnostics)
    }
    let values = summaries.values
    let diagnostics = summaries.diagnostics
    let rows = summaries.rows
    return TrackSummaryOutcome(
      inputs: summaries.inputs, parameters: found.parameters, diagnostics: diagnostics,
      skipped: summaries.skipped, values: values, rows: rows, format: format)
  }

  /// `track summary`: summarise, store and print (unreadable files noted
  /// and skipped); fails when any file was skipped (`failFast` stops at
  /// the first).
  package static func summary(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    failFast: Bool = false,
    jobs: Int? = nil, databasePath: String? = nil, format: OutputFormat?, driver: Driver
  ) throws {
    let outcome = try summaryOutcome(
      files: files, parameters: parameters, defaultTimeZone: defaultTimeZone, failFast: failFast, jobs: jobs,
      format: format, progress: driver.context.progressSink)
    try driver.finish(outcome, database: databasePath)
    try SkippedFiles.check(
      skipped: outcome.skipped.count, of: files.count, read: outcome.values.count, done: "summarised")
  }

  /// A track cut into activities: what the file declares, else the mode
  /// classifier (the epoch model by default, or speed bands); or the Alter
  /// Eco thesis's classifier. With epochs, every epoch from the first fix to
  /// the last with its mode.
  package struct Segmentation: Sendable {
    package enum Activities: Sendable {
      case modes([ModeActivity])
      case alterEco([AlterEcoActivity])
    }
    package var file: String
    package var activities: Activities
    /// Every epoch of the track with its mode (when asked for).
    package var epochs: [ModeEpoch]?
    /// The files read: the track, and the regions of the Alter Eco rules.
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
  }

  /// The activities of a track: declared sports first, then `inference`;
  /// or the Alter Eco thesis's classifier when `alterEco` is given.
  /// `epochs` also gives every epoch with its mode (not with Alter Eco).
  package static func segmentation(
    file: String, parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    inference: ModeInference = .standard, alterEco: AlterEcoParameters? = nil,
    regionsPath: String? = nil, epochs: Bool = false
  ) throws -> Segmentation {
    let track = try readTrack(file, parameters: parameters, defaultTimeZone: defaultTimeZone)
    if let alterEco {
      var regions: [RegionOfInterest] = []
      if let regionsPath {
        regions = try FactorReaders.regions(path: regionsPath).map {
          RegionOfInterest(
            name: $0.name, kind: $0.kind == "airport" ? .airport : .station,
            latitudeDegrees: $0.latitudeDegrees,
            longitudeDegrees: $0.longitudeDegrees, radiusMeters: $0.radiusMeters)
        }
      }
      let activities = AlterEcoClassifier(parameters: alterEco, regions: regions).activities(
        of: track.points, joinSegments: parameters.joinSegments)
      return Segmentation(
        file: file, activities: .alterEco(activities), inputs: [file] + (regionsPath.map { [$0] } ?? []),
        parameters: alterEco.described + parameters.described, diagnostics: track.diagnostics)
    }
    let (steps, trackDiagnostics) = TrackAnalysis(parameters: parameters).steps(of: track)
    var diagnostics = trackDiagnostics
    if case .epochModel(let p) = inference, !p.accelerometerMoving.isEmpty {
      diagnostics.append(accelerometerOverlap(steps, parameters: p, file: file))
    }
    let classified = ModeClassifier(inference: inference).activities(
      of: steps, points: track.points, declaredSportBySegment: track.declaredSportBySegment, source: file)
    var timeline: [ModeEpoch]?
    if epochs {
      var modes = Array(repeating: TransportMode.stationary, count: steps.count)
      for a in classified.activities { for i in a.activity.stepRange { modes[i] = a.activity.mode } }
      var p = ModeModelParameters()
      p.epochSeconds = inference.epochSeconds
      timeline = EpochModeClassifier(parameters: p).timeline(of: steps, points: track.points, modes: modes)
    }
    return Segmentation(
      file: file, activities: .modes(classified.activities), epochs: timeline, inputs: [file],
      parameters: parameters.described + inference.described,
      diagnostics: track.diagnostics + diagnostics + classified.diagnostics)
  }

  /// How many of a track's epochs the accelerometer recording covers: a
  /// note, or a warning when it covers none (the recording then changes
  /// nothing).
  static func accelerometerOverlap(_ steps: [TrackStep], parameters p: ModeModelParameters, file: String)
    -> Diagnostic
  {
    let epochs = EpochModeClassifier(parameters: p).observedEpochs(of: steps)
    let covered = epochs.filter { $0.accelerometerMoving != nil }
    let moving = covered.filter { $0.accelerometerMoving == true }.count
    if covered.isEmpty {
      return Diagnostic(
        code: "accel-no-overlap", severity: .warning,
        message:
          "the accelerometer recording covers none of the track's \(epochs.count) epochs (worn and classified): modes from speed alone",
        location: file)
    }
    return Diagnostic(
      code: "accel-joined", severity: .note,
      message:
        "the accelerometer joins the speed in \(covered.count) of \(epochs.count) epochs (\(moving) moving, \(covered.count - moving) still)",
      location: file)
  }

  /// Whether an accelerometer recording was moving (light intensity or
  /// above by its own cut-points) in each epoch of `epochSeconds`, keyed
  /// by the epoch's start (s since 1970): its worn, classified epochs
  /// vote by the seconds they overlap each epoch, and a tie is moving.
  package static func accelerometerStates(
    _ path: String, epochSeconds: Double, timeZone: TimeZone?
  ) throws -> (states: [Double: Bool], diagnostics: [Diagnostic]) {
    var options = AccelOptions()
    options.timeZone = timeZone
    let result = try AccelPipeline.analyse(path, options: options)
    guard let classified = result.analysis.intensityEpochs else {
      throw UsageError(
        .unsupported,
        "\(path): no intensity classes (no cut-points apply to its data), so it cannot tell moving from still"
      )
    }
    var votes: [Double: (moving: Double, total: Double)] = [:]
    for e in classified where e.worn {
      guard let intensity = e.intensity else { continue }
      let end = e.start + e.seconds
      var t = (e.start / epochSeconds).rounded(.down) * epochSeconds
      while t < end {
        let overlap = min(end, t + epochSeconds) - max(e.start, t)
        if overlap > 0 {
          var v = votes[t, default: (0, 0)]
          v.total += overlap
          if intensity != .sedentary { v.moving += overlap }
          votes[t] = v
        }
        t += epochSeconds
      }
    }
    return (votes.mapValues { $0.moving * 2 >= $0.total }, result.diagnostics)
  }

  /// The activities as rows of the `track-segments` table.
  package static func rows(_ segmentation: Segmentation) -> [ResultRecord] {
    let file = segmentation.file
    switch segmentation.activities {
    case .alterEco(let activities):
      return activities.enumerated().map { k, a in
        ResultRecord([
          "file": .string(file), "activity": .integer(k + 1), "mode": .string(a.mode),
          "start_time": .string(ISO8601.formatUTC(a.startSecondsSince1970)),
          "end_time": .string(ISO8601.formatUTC(a.endSecondsSince1970)),
          "distance_m": .number(a.distanceMeters, 1),
          "duration_s": .number(a.endSecondsSince1970 - a.startSecondsSince1970, 1),
        ])
      }
    case .modes(let activities):
      return activities.enumerated().map { k, m in
        let a = m.activity
        return ResultRecord([
          "file": .string(file), "activity": .integer(k + 1), "mode": .string(a.mode.rawValue),
          "mode_source": .string(m.source.rawValue),
          "start_time": a.startSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
          "end_time": a.endSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
          "distance_m": .number(a.distanceMeters, 1), "duration_s": .number(a.durationSeconds, 1),
          "speed_mps": .number(a.durationSeconds > 0 ? a.distanceMeters / a.durationSeconds : nil, 3),
        ])
      }
    }
  }

  /// The activities as the `track-segments` table.
  package static func table(_ segmentation: Segmentation) -> ResultTable {
    table(rows(segmentation))
  }

  static func table(_ rows: [ResultRecord]) -> ResultTable {
    ResultTable(
      name: "track-segments", rows: rows,
      keyColumns: ["file", "activity", "mode", "distance_m", "duration_s"])
  }

  /// The epochs as rows of the `track-epochs` table: file, epoch start
  /// with the offset of `timeZone` at that instant, mode, speed, fixes.
  package static func epochRows(_ segmentation: Segmentation, timeZone: TimeZone) -> [ResultRecord] {
    (segmentation.epochs ?? []).map { e in
      let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: e.startSecondsSince1970))
      return ResultRecord([
        "file": .string(segmentation.file),
        "epoch_start": .string(ISO8601.formatWithOffset(e.startSecondsSince1970, offsetSeconds: offset)),
        "mode": .string(e.mode.rawValue), "speed_mps": .number(e.speedMetersPerSecond, 3),
        "fix": .bool(e.fixes > 0), "fixes": .integer(e.fixes),
      ])
    }
  }

  /// The activities as stored rows (no model, so no energy or CO2).
  package static func activityRows(_ segmentation: Segmentation) -> [ActivityRow] {
    let file = segmentation.file
    switch segmentation.activities {
    case .alterEco(let activities):
      return activities.enumerated().map { k, a in
        ActivityRow(
          trackPath: file, index: k + 1, mode: a.mode, startTime: ISO8601.formatUTC(a.startSecondsSince1970),
          endTime: ISO8601.formatUTC(a.endSecondsSince1970), distanceMeters: a.distanceMeters,
          durationSeconds: a.endSecondsSince1970 - a.startSecondsSince1970, model: "",
          energyKilocalories: nil, co2Kilograms: nil)
      }
    case .modes(let activities):
      return activities.enumerated().map { k, m in
        let a = m.activity
        return ActivityRow(
          trackPath: file, index: k + 1, mode: a.mode.rawValue,
          startTime: a.startSecondsSince1970.map { ISO8601.formatUTC($0) },
          endTime: a.endSecondsSince1970.map { ISO8601.formatUTC($0) }, distanceMeters: a.distanceMeters,
          durationSeconds: a.durationSeconds, model: "", energyKilocalories: nil, co2Kilograms: nil)
      }
    }
  }

  /// The epochs as stored rows: the mode's index in `TransportMode` order
  /// is not a number to store, so each epoch stores its speed and fixes,
  /// and its mode as a metric named after it (value 1).
  static func storedEpochs(_ segmentation: Segmentation, epochSeconds: Double) -> [EpochRow] {
    (segmentation.epochs ?? []).flatMap { e -> [EpochRow] in
      let start = ISO8601.formatUTC(e.startSecondsSince1970)
      var rows = [
        EpochRow(
          source: segmentation.file, epochStart: start, epochSeconds: epochSeconds,
          metric: "mode_\(e.mode.rawValue)",
          value: 1, unit: "flag"),
        EpochRow(
          source: segmentation.file, epochStart: start, epochSeconds: epochSeconds, metric: "fixes",
          value: Double(e.fixes), unit: "count"),
      ]
      if let v = e.speedMetersPerSecond {
        rows.append(
          EpochRow(
            source: segmentation.file, epochStart: start, epochSeconds: epochSeconds, metric: "speed",
            value: v, unit: "m/s"))
      }
      return rows
    }
  }

  /// What `track segments` computed: each track's segmentation, with the
  /// classifier and zone it is printed by, and a note per file skipped.
  package struct TrackSegmentsOutcome: CommandOutcome {
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
    package var skipped: [String]
    var found: [Segmentation]
    var classifier: String
    var epochs: Bool
    var inference: ModeInference
    var zone: TimeZone
    var format: OutputFormat?

    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "track segments --classifier \(classifier)\(epochs ? " --epochs" : "")",
        recordedAt: recordedAt, inputs: inputs, parameters: parameters)
      run.activities = found.flatMap(activityRows)
      run.epochs = found.flatMap { storedEpochs($0, epochSeconds: inference.epochSeconds) }
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }

    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      if epochs {
        out.emit(
          ResultTable(
            name: "track-epochs", rows: found.flatMap { epochRows($0, timeZone: zone) },
            keyColumns: ["file", "epoch_start", "mode", "speed_mps", "fix"]), format: format)
      } else {
        out.emit(table(found.flatMap(rows)), format: format)
      }
      return out
    }
  }

  /// What `track segments` computes: each file segmented (on every
  /// core), a note per unreadable file skipped (`failFast` throws at the
  /// first); prints nothing. With `epochs`, the epoch table too.
  package static func segmentsOutcome(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    inference: ModeInference = .standard, alterEco: AlterEcoParameters? = nil,
    regionsPath: String? = nil, epochs: Bool = false, accelerometerPath: String? = nil,
    failFast: Bool = false, jobs: Int? = nil, format: OutputFormat?
  ) throws -> TrackSegmentsOutcome {
    var joined = inference
    var accelerometerDiagnostics: [Diagnostic] = []
    if let accelerometerPath {
      guard case .epochModel(var p) = inference, alterEco == nil else {
        throw UsageError(.unsupported, "an accelerometer recording joins the epoch model (epoch-hmm) only")
      }
      let (states, notes) = try accelerometerStates(
        accelerometerPath, epochSeconds: p.epochSeconds, timeZone: defaultTimeZone)
      p.accelerometerMoving = states
      joined = .epochModel(p)
      accelerometerDiagnostics = notes
    }
    let inference = joined
    let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count))
    let results = parallelMap(count: files.count, workers: workers) { k in
      Result {
        try segmentation(
          file: files[k], parameters: parameters, defaultTimeZone: defaultTimeZone, inference: inference,
          alterEco: alterEco, regionsPath: regionsPath, epochs: epochs)
      }
    }
    var found: [Segmentation] = []
    var skipped: [String] = []
    for result in results {
      switch result {
      case .success(let s): found.append(s)
      case .failure(let error as InputError):
        if failFast { throw error }
        skipped.append(SkippedFiles.note(error))
      case .failure(let error): throw error
      }
    }
    let classifier = alterEco == nil ? inference.identifier : "alter-eco"
    var inputs: [String] = []
    for s in found { for i in s.inputs where !inputs.contains(i) { inputs.append(i) } }
    if let accelerometerPath { inputs.append(accelerometerPath) }
    let parameterList =
      (found.first?.parameters ?? parameters.described)
      + (epochs
        ? [
          NamedParameter(
            name: "epoch_s", value: Fixed.shortest(inference.epochSeconds),
            meaning: "length of the printed epochs")
        ] : [])
    let diagnostics = accelerometerDiagnostics + found.flatMap(\.diagnostics)
    let zone = defaultTimeZone ?? .utc
    return TrackSegmentsOutcome(
      inputs: inputs, parameters: parameterList, diagnostics: diagnostics, skipped: skipped, found: found,
      classifier: classifier, epochs: epochs, inference: inference, zone: zone, format: format)
  }

  /// `track segments`: segment, then store and print through the driver,
  /// one run for all files; fails when any file was skipped.
  package static func segments(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    inference: ModeInference = .standard, alterEco: AlterEcoParameters? = nil,
    regionsPath: String? = nil, epochs: Bool = false, accelerometerPath: String? = nil,
    failFast: Bool = false,
    jobs: Int? = nil, databasePath: String? = nil, format: OutputFormat?, driver: Driver
  ) throws {
    let outcome = try segmentsOutcome(
      files: files, parameters: parameters, defaultTimeZone: defaultTimeZone, inference: inference,
      alterEco: alterEco, regionsPath: regionsPath, epochs: epochs, accelerometerPath: accelerometerPath,
      failFast: failFast, jobs: jobs, format: format)
    try driver.finish(outcome, database: databasePath)
    try SkippedFiles.check(
      skipped: outcome.skipped.count, of: files.count, read: outcome.found.count, done: "segmented")
  }

  /// A track's charts and its activities, ready to draw and print.
  package struct Plot: Sendable {
    package var charts: [GnuplotChart]
    package var activities: ResultTable
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
  }

  /// What `track plot` computed: the charts to draw and the activities.
  struct TrackPlotOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var plot: Plot
    var chartsDirectory: String?
    var format: OutputFormat?

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      for chart in plot.charts { out.draw(chart, folder: chartsDirectory, format: format) }
      out.emit(plot.activities, format: format)
      return out
    }
  }

  /// Charts of one track: speed over time coloured by mode, elevation and
  /// grade over distance, and the mode segmentation.
  package static func plot(
    file: String, parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    inference: ModeInference = .standard, chartsDirectory: String?, format: OutputFormat?,
    driver: Driver
  ) throws {
    let plot = try plot(
      file: file, parameters: parameters, defaultTimeZone: defaultTimeZone, inference: inference)
    try driver.finish(
      TrackPlotOutcome(
        inputs: [file], parameters: plot.parameters, diagnostics: plot.diagnostics, plot: plot,
        chartsDirectory: chartsDirectory, format: format), database: nil)
  }

  package static func plot(
    file: String, parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    inference: ModeInference = .standard
  ) throws -> Plot {
    let track = try readTrack(file, parameters: parameters, defaultTimeZone: defaultTimeZone)
    let analysis = TrackAnalysis(parameters: parameters)
    let (steps, diagnostics) = analysis.steps(of: track)
    var charts: [GnuplotChart] = []
    let stem = GnuplotChart.safeFileStem(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
    let trackName = URL(fileURLWithPath: file).lastPathComponent
    guard let t0 = steps.first(where: { $0.startSecondsSince1970 != nil })?.startSecondsSince1970 else {
      // Say what is missing: a fix to make a step, or times on the fixes.
      let timed = track.points.filter { $0.timeSecondsSince1970 != nil }.count
      let what =
        track.points.count < 2
        ? "\(track.points.count == 1 ? "one fix" : "no fix")\(timed == 1 ? " (with a time)" : ""), so no step"
        : timed == 1 ? "one fix of \(track.points.count) has a time" : "fixes without times"
      throw InputError(
        .malformed, SourceLocation(file: file), what,
        expected: track.points.count < 2
          ? "two or more fixes to plot speed" : "<time> on the fixes to plot speed")
    }
    // What the file declares wins; the classifier fills the rest.
    let classified = ModeClassifier(inference: inference).activities(
      of: steps, points: track.points, declaredSportBySegment: track.declaredSportBySegment, source: file)
    let activities = classified.activities.map(\.activity)
    // Speed over time, one series per mode.
    var speedSeries: [GnuplotChart.Series] = []
    for mode in TransportMode.allCases {
      let points = activities.filter { $0.mode == mode }.flatMap { a in
        steps[a.stepRange].compactMap { s -> GnuplotChart.Point? in
          guard let t = s.startSecondsSince1970, let v = s.speedMetersPerSecond else { return nil }
          return GnuplotChart.Point((t - t0) / 60, v)
        }
      }
      if !points.isEmpty { speedSeries.append(.init(title: mode.rawValue, style: .points, points: points)) }
    }
    var speed = GnuplotChart(
      name: "\(stem)-speed", title: "Speed by mode: \(trackName)", xLabel: "time since start (min)",
      yLabel: "speed (m/s)",
      series: speedSeries)
    speed.yFromZero = true
    charts.append(speed)
    // Elevation over distance.
    var distance = 0.0
    var elevation: [GnuplotChart.Point] = []
    // Along the path's distance (gaps left out); a segment's first fix
    // starts its line where the one before ended.
    for (k, s) in steps.enumerated() {
      if k == 0 || steps[k - 1].segment != s.segment || s.followsTimeGap,
        let z = track.points[s.endPointIndex - 1].elevationMeters
      {
        elevation.append(.init(distance / 1000, z))
      }
      distance += s.distance2DMeters
      if let z = track.points[s.endPointIndex].elevationMeters { elevation.append(.init(distance / 1000, z)) }
    }
    if !elevation.isEmpty {
      charts.append(
        GnuplotChart(
          name: "\(stem)-elevation", title: "Elevation: \(trackName)", xLabel: "distance (km)",
          yLabel: "elevation (m)",
          series: [.init(title: "elevation", style: .lines, points: elevation)]))
    }
    // Grade of each fixed-distance window, as steps.
    let windows = analysis.gradeWindows(of: track)
    if !windows.isEmpty {
      let points = windows.flatMap {
        [
          GnuplotChart.Point($0.startMeters / 1000, $0.gradeFraction * 100),
          GnuplotChart.Point($0.endMeters / 1000, $0.gradeFraction * 100),
        ]
      }
      charts.append(
        GnuplotChart(
          name: "\(stem)-grade",
          title: "Grade over \(Fixed.shortest(parameters.gradeWindowMeters)) m windows: \(trackName)",
          xLabel: "distance (km)", yLabel: "grade (%)",
          series: [.init(title: "grade", style: .lines, points: points)]))
    }
    // Segmentation: minutes per activity, stacked by mode.
    var segmentation = GnuplotChart(
      name: "\(stem)-modes", title: "Activities by mode: \(trackName)", xLabel: "activity (in order)",
      yLabel: "duration (min)", series: [])
    let modesSeen = TransportMode.allCases.filter { m in activities.contains { $0.mode == m } }
    segmentation.stackedBars = GnuplotChart.StackedBars(
      categories: activities.enumerated().map { "\($0 + 1) \($1.mode.rawValue)" },
      seriesTitles: modesSeen.map(\.rawValue),
      values: activities.map { a in modesSeen.map { $0 == a.mode ? a.durationSeconds / 60 : 0 } })
    charts.append(segmentation)
    let rows = activities.enumerated().map { k, a in
      ResultRecord([
        "activity": .integer(k + 1), "mode": .string(a.mode.rawValue),
        "start_min": .number(a.startSecondsSince1970.map { ($0 - t0) / 60 }, 1),
        "duration_min": .number(a.durationSeconds / 60, 1), "distance_m": .number(a.distanceMeters, 1),
      ])
    }
    return Plot(
      charts: charts, activities: ResultTable(name: "track-activities", rows: rows),
      parameters: parameters.described + inference.described,
      diagnostics: track.diagnostics + diagnostics + classified.diagnostics)
  }
}

extension TrackCommands {
  /// Trips, stays and places of tracks of one person (`track trips`).
  package struct TripsResult: Sendable {
    package var files: [String]
    package var found: TripsAndPlaces
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
  }

  /// Each file's epochs and modes (declared sports first, then
  /// `inference`), its trips and stays; then the places of all the stays
  /// together, as one person's. Unreadable files are skipped, each with a
  /// note in `skipped` (or thrown with `failFast`).
  package static func trips(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    inference: ModeInference = .standard, tripParameters: TripParameters = TripParameters(), jobs: Int? = nil,
    failFast: Bool = false
  ) throws -> (result: TripsResult, skipped: [String]) {
    let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count))
    let detector = TripDetector(parameters: tripParameters)
    let results = parallelMap(count: files.count, workers: workers) { k in
      Result { () -> (trips: [Trip], stays: [Stay], diagnostics: [Diagnostic]) in
        let s = try segmentation(
          file: files[k], parameters: parameters, defaultTimeZone: defaultTimeZone, inference: inference,
          epochs: true)
        let found = detector.tripsAndStays(
          of: s.epochs ?? [], epochSeconds: inference.epochSeconds, source: files[k])
        return (found.trips, found.stays, s.diagnostics)
      }
    }
    var trips: [Trip] = []
    var stays: [Stay] = []
    var diagnostics: [Diagnostic] = []
    var read: [String] = []
    var skipped: [String] = []
    for (file, result) in zip(files, results) {
      switch result {
      case .success(let r):
        trips += r.trips
        stays += r.stays
        diagnostics += r.diagnostics
        read.append(file)
      case .failure(let error as InputError):
        if failFast { throw error }
        skipped.append(SkippedFiles.note(error))
      case .failure(let error): throw error
      }
    }
    let places = detector.places(&stays)
    return (
      TripsResult(
        files: read, found: TripsAndPlaces(trips: trips, stays: stays, places: places),
        parameters: parameters.described + inference.described + tripParameters.described,
        diagnostics: diagnostics), skipped
    )
  }

  /// The trips table: file, trip, start and end with their offset, modes in
  /// order, distance, duration, pauses.
  package static func tripsTable(_ r: TripsResult, timeZone: TimeZone) -> ResultTable {
    var index: [String: Int] = [:]
    let rows = r.found.trips.map { t -> ResultRecord in
      let trip = index[t.source, default: 0] + 1
      index[t.source] = trip
      return ResultRecord([
        "file": .string(t.source), "trip": .integer(trip),
        "start_time": .string(local(t.startSecondsSince1970, timeZone)),
        "end_time": .string(local(t.endSecondsSince1970, timeZone)),
        "modes": .string(t.modes.map(\.rawValue).joined(separator: ">")),
        "distance_m": .number(t.distanceMeters, 1), "duration_s": .number(t.durationSeconds, 0),
        "pauses": .integer(t.pauses),
      ])
    }
    return ResultTable(
      name: "trips", rows: rows,
      keyColumns: ["file", "trip", "start_time", "modes", "distance_m", "duration_s"])
  }

  /// The places table: centre, visits, time spent.
  package static func placesTable(_ r: TripsResult) -> ResultTable {
    ResultTable(
      name: "places",
      rows: r.found.places.map { p in
        ResultRecord([
          "place": .integer(p.index), "latitude_deg": .number(p.latitudeDegrees, 6),
          "longitude_deg": .number(p.longitudeDegrees, 6), "visits": .integer(p.visits),
          "duration_s": .number(p.durationSeconds, 0),
        ])
      })
  }

  /// The stays table: file, start, end, duration, place (unknown without
  /// a fix).
  package static func staysTable(_ r: TripsResult, timeZone: TimeZone) -> ResultTable {
    ResultTable(
      name: "stays",
      rows: r.found.stays.map { s in
        ResultRecord([
          "file": .string(s.source), "start_time": .string(local(s.startSecondsSince1970, timeZone)),
          "end_time": .string(local(s.endSecondsSince1970, timeZone)),
          "duration_s": .number(s.durationSeconds, 0), "place": s.place.map { .integer($0) } ?? .null,
        ])
      })
  }

  static func local(_ seconds: Double, _ zone: TimeZone) -> String {
    ISO8601.formatWithOffset(
      seconds, offsetSeconds: zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
  }

  /// What `track trips` computed: trips, stays and places, and a note per
  /// file skipped.
  package struct TrackTripsOutcome: CommandOutcome {
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
    package var skipped: [String]
    var r: TripsResult
    var inference: ModeInference
    var zone: TimeZone
    var format: OutputFormat?

    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "track trips --classifier \(inference.identifier)", recordedAt: recordedAt,
        inputs: inputs,
        parameters: r.parameters)
      var index: [String: Int] = [:]
      run.trips = r.found.trips.map { t in
        let trip = index[t.source, default: 0] + 1
        index[t.source] = trip
        return TripRow(
          trackPath: t.source, index: trip,
          startTime: ISO8601.formatUTC(t.startSecondsSince1970),
          endTime: ISO8601.formatUTC(t.endSecondsSince1970),
          modes: t.modes.map(\.rawValue).joined(separator: ">"),
          distanceMeters: t.distanceMeters, durationSeconds: t.durationSeconds, pauses: t.pauses)
      }
      run.places = r.found.places.map {
        PlaceRow(
          index: $0.index, latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees,
          visits: $0.visits, durationSeconds: $0.durationSeconds)
      }
      run.results = r.found.stays.enumerated().flatMap { k, s -> [ResultRow] in
        let subject = "\(s.source) stay \(ISO8601.formatUTC(s.startSecondsSince1970))"
        return [ResultRow(subject: subject, metric: "duration", value: s.durationSeconds, unit: "s")]
          + (s.place.map {
            [ResultRow(subject: subject, metric: "place", value: Double($0), unit: "index")]
          }
            ?? [])
      }
      run.diagnostics = r.diagnostics.map(DiagnosticRow.init)
      return run
    }

    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(tripsTable(r, timeZone: zone), format: format)
      out.emit(placesTable(r), format: format)
      out.emit(staysTable(r, timeZone: zone), format: format)
      return out
    }
  }

  /// What `track trips` computes: trips, stays and places of the files
  /// read, a note per unreadable file skipped; prints nothing.
  package static func tripsOutcome(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    inference: ModeInference = .standard, tripParameters: TripParameters = TripParameters(), jobs: Int? = nil,
    failFast: Bool = false, format: OutputFormat?
  ) throws -> TrackTripsOutcome {
    let (r, skipped) = try trips(
      files: files, parameters: parameters, defaultTimeZone: defaultTimeZone, inference: inference,
      tripParameters: tripParameters, jobs: jobs, failFast: failFast)
    return TrackTripsOutcome(
      inputs: r.files, parameters: r.parameters, diagnostics: r.diagnostics, skipped: skipped, r: r,
      inference: inference, zone: defaultTimeZone ?? .utc, format: format)
  }

  /// `track trips`: trips, stays and places of the files, stored (trips and
  /// places in their tables, stays among the results) and printed; fails
  /// when any file was skipped.
  package static func trips(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    inference: ModeInference = .standard, tripParameters: TripParameters = TripParameters(), jobs: Int? = nil,
    failFast: Bool = false, databasePath: String? = nil, format: OutputFormat?, driver: Driver
  ) throws {
    let outcome = try tripsOutcome(
      files: files, parameters: parameters, defaultTimeZone: defaultTimeZone, inference: inference,
      tripParameters: tripParameters, jobs: jobs, failFast: failFast, format: format)
    try driver.finish(outcome, database: databasePath)
    try SkippedFiles.check(
      skipped: outcome.skipped.count, of: files.count, read: outcome.r.files.count, done: "read")
  }
}
