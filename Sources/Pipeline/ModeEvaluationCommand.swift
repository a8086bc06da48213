import EnergyLabCore
import Evaluation
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// `evaluate modes`: EnergyLab's transport modes (and another tool's)
/// scored per epoch against an observer's second-by-second truth.
///
/// Scoring, as the PALMS validation folder's README states it: 30 s epochs
/// starting at whole half-minutes; an epoch's true class is the class of
/// the most observed seconds when it holds at least 16; epochs whose truth
/// is mixed or unknown, or in which no track has a fix, are left out and
/// counted. Every predictor is scored on exactly the same epochs.
package enum ModeEvaluationCommand {
  package struct Options: Sendable {
    /// Folder of truth files (`*.csv`, one per day).
    package var truthDirectory: String
    /// The GPS tracks of the same days.
    package var tracks: [String]
    /// Another tool's epochs (PALMS's own output), scored beside EnergyLab.
    package var palmsPath: String?
    /// Time zone of the truth's (and PALMS's) local times.
    package var timeZone: TimeZone
    package var trackParameters = TrackAnalysisParameters()
    package var model = ModeModelParameters()
    /// Also score each day with a model fitted on the other days.
    package var leaveOneDayOut = true
    /// Print the counts fitted on every day.
    package var fit = false
    /// Also score the speed bands (`SpeedBandClassifier`) on the same
    /// epochs: each epoch takes the band of the last step whose middle
    /// falls in it.
    package var speedBands: SpeedBandParameters?
    package var chartsDirectory: String?
    package var databasePath: String?
    package var format: OutputFormat?
    package var jobs: Int?

    package init(truthDirectory: String, tracks: [String], palmsPath: String? = nil, timeZone: TimeZone) {
      self.truthDirectory = truthDirectory
      self.tracks = tracks
      self.palmsPath = palmsPath
      self.timeZone = timeZone
    }
  }

  /// A predictor's score: overall and per truth file (day).
  package struct Score: Sendable {
    package var predictor: String
    package var confusion: ModeConfusion
    package var byDay: [ModeConfusion]
  }

  package struct Evaluation: Sendable {
    package var days: [String]
    package var scores: [Score]
    /// Counts fitted on every day (with `fit`).
    package var fitted: ModeModelCounts?
    package var inputs: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
    package var truthName: String
  }

  /// A track's epochs as observed (fixes and speeds), read once.
  struct TrackEpochs: Sendable {
    var file: String
    var epochs: [ModeEpoch]
    var diagnostics: [Diagnostic]
    /// The speed bands' class per epoch start, when asked for.
    var bands: [Double: ScoredMode] = [:]
  }

  package static func evaluate(_ options: Options) throws -> Evaluation {
    let dir = options.truthDirectory
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw InputError(
        .unreadable, SourceLocation(file: dir), "not a folder", expected: "a folder of truth CSV files")
    }
    let truthFiles = try FileManager.default.contentsOfDirectory(atPath: dir)
      .filter { $0.lowercased().hasSuffix(".csv") }.sorted()
      .map { (dir as NSString).appendingPathComponent($0) }
    guard !truthFiles.isEmpty else {
      throw InputError(
        .empty, SourceLocation(file: dir), "no .csv files", expected: "truth files, one per day")
    }
    let epochSeconds = options.model.epochSeconds
    let workers = max(1, options.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    // Truth per day, read on all cores.
    let truths = try parallelMap(count: truthFiles.count, workers: workers) { k in
      Result { () -> (TruthEpochs, [String: Int]) in
        var truth = TruthEpochs(epochSeconds: epochSeconds)
        var unknown: [String: Int] = [:]
        for s in try ModeTruthReader.observedSeconds(path: truthFiles[k], timeZone: options.timeZone) {
          let mode = ScoredMode(observed: s.label)
          if mode == nil { unknown[s.label.isEmpty ? "(empty)" : s.label, default: 0] += 1 }
          truth.add(secondsSince1970: s.secondsSince1970, mode: mode)
        }
        return (truth, unknown)
      }
    }.map { try $0.get() }
    var diagnostics: [Diagnostic] = []
    var unknownLabels: [String: Int] = [:]
    for (_, u) in truths { unknownLabels.merge(u, uniquingKeysWith: +) }
    if !unknownLabels.isEmpty {
      let listed = unknownLabels.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      diagnostics.append(
        Diagnostic(
          code: "truth-label-unscored", severity: .note,
          message: "seconds whose observed mode names no scored class count as unknown: \(listed)",
          location: dir))
    }
    // Epochs of every track, read on all cores.
    let classifier = EpochModeClassifier(parameters: options.model)
    let tracks = try parallelMap(count: options.tracks.count, workers: workers) { k in
      Result { () -> TrackEpochs in
        let file = options.tracks[k]
        let track = try TrackCommands.readTrack(file, parameters: options.trackParameters)
        let (steps, notes) = TrackAnalysis(parameters: options.trackParameters).steps(of: track)
        var bands: [Double: ScoredMode] = [:]
        if let p = options.speedBands {
          let length = options.model.epochSeconds
          for a in SpeedBandClassifier(parameters: p).activities(of: steps) {
            for step in steps[a.stepRange] {
              guard let start = step.startSecondsSince1970 else { continue }
              let middle = start + (step.durationSeconds ?? 0) / 2
              bands[(middle / length).rounded(.down) * length] = ScoredMode(a.mode)
            }
          }
        }
        return TrackEpochs(
          file: file, epochs: classifier.observedEpochs(of: steps, points: track.points),
          diagnostics: track.diagnostics + notes, bands: bands)
      }
    }.map { try $0.get() }
    for t in tracks { diagnostics += t.diagnostics }
    // Which day each epoch's truth comes from (the first file that has it).
    var firstDay: [Double: Int] = [:]
    for (k, t) in truths.enumerated() {
      for e in t.0.epochStarts where firstDay[e] == nil { firstDay[e] = k }
    }
    let dayOf = firstDay
    var withFix = Set<Double>()
    for t in tracks { for e in t.epochs where e.fixes > 0 { withFix.insert(e.startSecondsSince1970) } }

    @Sendable func truthMode(_ e: Double, excludingDay: Int? = nil) -> TransportMode? {
      guard let k = dayOf[e], k != excludingDay, let m = truths[k].0.mode(at: e) else { return nil }
      return modeModelStates[m.index]
    }
    @Sendable func decode(_ counts: ModeModelCounts?) -> [Double: ScoredMode] {
      var p = options.model
      if let counts { p.counts = counts }
      let c = EpochModeClassifier(parameters: p)
      var out: [Double: ScoredMode] = [:]
      for t in tracks {
        for e in c.decode(t.epochs) { out[e.startSecondsSince1970] = ScoredMode(e.mode) }
      }
      return out
    }
    @Sendable func fitted(excludingDay day: Int?) -> ModeModelCounts {
      var counts = ModeModelCounts(bins: options.model.speedBinUpperEdges.count + 1)
      for t in tracks {
        counts.merge(classifier.counts(of: t.epochs) { truthMode($0, excludingDay: day) })
      }
      return counts
    }
    func score(_ name: String, _ predicted: (Int) -> [Double: ScoredMode]) -> Score {
      var byDay: [ModeConfusion] = []
      for (k, t) in truths.enumerated() {
        let labels = predicted(k)
        var c = ModeConfusion()
        for e in t.0.epochStarts where dayOf[e] == k {
          guard let truth = t.0.mode(at: e) else {
            c.mixedOrUnknown += 1
            continue
          }
          guard withFix.contains(e) else {
            c.withoutFix += 1
            continue
          }
          c.add(truth: truth, predicted: labels[e])
        }
        byDay.append(c)
      }
      var total = ModeConfusion()
      for c in byDay { total.merge(c) }
      return Score(predictor: name, confusion: total, byDay: byDay)
    }
    var scores: [Score] = []
    let inSample = decode(nil)
    scores.append(score("energylab", { _ in inSample }))
    if options.leaveOneDayOut {
      let folds = parallelMap(count: truths.count, workers: workers) { k in decode(fitted(excludingDay: k)) }
      scores.append(score("energylab-held-out", { folds[$0] }))
    }
    if options.speedBands != nil {
      var bands: [Double: ScoredMode] = [:]
      for t in tracks { bands.merge(t.bands) { _, later in later } }
      scores.append(score("speed-bands", { _ in bands }))
    }
    var inputs = truthFiles + options.tracks
    if let palms = options.palmsPath {
      var labels: [Double: ScoredMode] = [:]
      var unknown: [String: Int] = [:]
      for row in try ModeTruthReader.palmsEpochs(path: palms, timeZone: options.timeZone) {
        let start = (row.secondsSince1970 / epochSeconds).rounded(.down) * epochSeconds
        if let m = ScoredMode(palmsTripMode: row.label) {
          labels[start] = m
        } else {
          unknown[row.label, default: 0] += 1
        }
      }
      for (label, n) in unknown.sorted(by: { $0.key < $1.key }) {
        diagnostics.append(
          Diagnostic(
            code: "palms-mode-unknown",
            message: "\(n) epochs with tripMode \"\(label)\" name no scored class",
            location: palms))
      }
      scores.append(score("palms", { _ in labels }))
      inputs.append(palms)
    }
    var parameters = [
      NamedParameter(
        name: "truth_tz", value: options.timeZone.identifier, meaning: "time zone of the truth's local times"),
      NamedParameter(
        name: "truth_min_seconds", value: "16", meaning: "seconds of one class an epoch's truth needs (of 30)"
      ),
      NamedParameter(
        name: "held_out", value: options.leaveOneDayOut ? "leave-one-day-out" : "none",
        meaning: "energylab-held-out: each day decoded by counts fitted on the other days"),
    ]
    parameters += options.trackParameters.described + options.model.described
    if let p = options.speedBands { parameters += p.described }
    return Evaluation(
      days: truthFiles.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent },
      scores: scores,
      fitted: options.fit ? fitted(excludingDay: nil) : nil, inputs: inputs, parameters: parameters,
      diagnostics: diagnostics, truthName: URL(fileURLWithPath: dir).lastPathComponent)
  }

  /// The scores, one row per predictor, from `ModeConfusion.scoreColumns`.
  package static func scoresTable(_ e: Evaluation) -> ResultTable {
    let rows = e.scores.map { s -> ResultRecord in
      var r = ResultRecord()
      r["predictor"] = .string(s.predictor)
      for (key, value) in ResultColumns.record(ModeConfusion.scoreColumns, of: s.confusion).fields {
        r[key] = value
      }
      return r
    }
    return ResultTable(
      name: "mode-scores", rows: rows,
      keyColumns: ["predictor", "epochs", "moving_epochs", "moving_accuracy", "accuracy", "walk_as_cycle"])
  }

  /// The confusion matrices: a row per predictor and true class, a column
  /// per predicted class.
  package static func confusionTable(_ e: Evaluation) -> ResultTable {
    var rows: [ResultRecord] = []
    for s in e.scores {
      for truth in ScoredMode.allCases {
        var r = ResultRecord()
        r["predictor"] = .string(s.predictor)
        r["truth"] = .string(truth.rawValue)
        for p in ScoredMode.allCases {
          r["as_\(p.rawValue)"] = .integer(s.confusion.count(truth: truth, predicted: p))
        }
        r["unlabelled"] = .integer(s.confusion.count(truth: truth, predicted: nil))
        rows.append(r)
      }
    }
    return ResultTable(name: "mode-confusion", rows: rows)
  }

  /// Moving accuracy per day and predictor.
  package static func byDayTable(_ e: Evaluation) -> ResultTable {
    var rows: [ResultRecord] = []
    for (k, day) in e.days.enumerated() {
      var r = ResultRecord()
      r["day"] = .string(day)
      r["moving_epochs"] = .integer(e.scores.first?.byDay[k].movingEpochs ?? 0)
      for s in e.scores {
        r["\(s.predictor.replacingOccurrences(of: "-", with: "_"))_moving_accuracy"] = .number(
          s.byDay[k].movingAccuracy, 4)
      }
      rows.append(r)
    }
    return ResultTable(name: "mode-scores-by-day", rows: rows)
  }

  /// The fitted counts, one row per mode.
  package static func countsTable(_ counts: ModeModelCounts) -> ResultTable {
    let rows = modeModelStates.enumerated().map { s, mode in
      ResultRecord([
        "mode": .string(mode.rawValue),
        "emission_counts": .string(counts.emission[s].map { Fixed.shortest($0) }.joined(separator: " ")),
        "transition_counts": .string(counts.transition[s].map { Fixed.shortest($0) }.joined(separator: " ")),
      ])
    }
    return ResultTable(name: "mode-model-counts", rows: rows)
  }

  /// A chart per predictor: the share of each true class's epochs given
  /// each predicted class.
  package static func charts(_ e: Evaluation) -> [GnuplotChart] {
    e.scores.map { s in
      var chart = GnuplotChart(
        name: "mode-confusion-\(GnuplotChart.safeFileStem(s.predictor))",
        title: "Predicted mode by true mode: \(s.predictor) (\(e.truthName))", xLabel: "true mode",
        yLabel: "share of the true mode's epochs (%)", series: [])
      chart.stackedBars = GnuplotChart.StackedBars(
        categories: ScoredMode.allCases.map(\.rawValue),
        seriesTitles: ScoredMode.allCases.map(\.rawValue) + ["unlabelled"],
        values: ScoredMode.allCases.map { truth in
          let n = Double(s.confusion.counts[truth.index].reduce(0, +))
          return (ScoredMode.allCases.map { Optional($0) } + [nil]).map {
            n == 0 ? 0 : 100 * Double(s.confusion.count(truth: truth, predicted: $0)) / n
          }
        }, yMaximum: 100)
      return chart
    }
  }

  /// The stored statistics: every score column of every predictor.
  static func summaries(_ e: Evaluation) -> [ErrorSummaryRow] {
    e.scores.flatMap { s in
      ResultColumns.numbers(ModeConfusion.scoreColumns, of: s.confusion).map {
        ErrorSummaryRow(
          model: s.predictor, reference: "truth:\(e.truthName)", statistic: $0.name, value: $0.value,
          unit: $0.unit)
      }
    }
  }

  /// What `evaluate modes` computed, with the options it prints by.
  struct ModesOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var e: Evaluation
    var options: Options

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "evaluate modes", recordedAt: recordedAt, inputs: inputs, parameters: e.parameters,
        errorSummaries: summaries(e))
      run.results = e.scores.flatMap { s in
        zip(e.days, s.byDay).flatMap { day, c in
          ResultColumns.storedRows(ModeConfusion.scoreColumns, of: c, subject: "\(s.predictor) \(day)")
        }
      }
      run.diagnostics = e.diagnostics.map(DiagnosticRow.init)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(scoresTable(e), format: options.format)
      out.emit(confusionTable(e), format: options.format)
      out.emit(byDayTable(e), format: options.format)
      if let fitted = e.fitted { out.emit(countsTable(fitted), format: options.format) }
      for chart in charts(e) {
        out.draw(chart, folder: options.chartsDirectory, format: options.format)
      }
      return out
    }
  }

  package static func run(_ options: Options, driver: Driver) throws {
    let e = try evaluate(options)
    try driver.finish(
      ModesOutcome(
        inputs: e.inputs, parameters: e.parameters, diagnostics: e.diagnostics, e: e, options: options),
      database: options.databasePath)
  }
}
