import EnergyLabCore
import EnergyModels
import Estimation
import Evaluation
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// Agreement between two measurements or methods on the same cases:
/// `stats agreement` over two columns of a CSV, and `agreement` between
/// energy models over the same tracks.
package enum AgreementCommands {
  /// The printed statistics of an agreement (`AgreementColumn`); keys of
  /// values in the data's unit end in it (`bias_kcal_per_min`).
  package static func record(_ agreement: PairedAgreement, unit: String?) -> ResultRecord {
    AgreementColumn.record(agreement, unitSuffix: unit)
  }

  /// The stored statistics of an agreement in the one vocabulary
  /// `evaluate`, `agreement` and `batch` share (`AgreementColumn`): the
  /// statistic's name without a unit, the unit in its own column. `unit`
  /// is the unit of the compared values (`kcal`, `kcal/min`, `W`);
  /// differences are model minus reference.
  package static func errorSummaries(
    _ agreement: PairedAgreement, model: String, reference: String, unit: String
  ) -> [ErrorSummaryRow] {
    AgreementColumn.summaries(agreement, model: model, reference: reference, unit: unit)
  }

  /// The Bland-Altman chart of pairs (a, b) with the limits in the form
  /// the data support: constant lines for absolute limits; for ratio
  /// limits, the lines of a - b where a / b is at the bias and the limits
  /// (straight lines through zero); for regression-based limits, the
  /// fitted bias and limit lines; where no limits apply, the fitted trend
  /// and a title that says so. No constant line is drawn over a trend.
  /// A zero line marks perfect agreement. With at most
  /// `labelledPairsLimit` pairs each point carries its label (a
  /// participant, a table cell; its place among the pairs when none is
  /// given), so a reader finds it in the table.
  static func drawBlandAltman(
    name: String, subject: String? = nil, a: String, b: String, unit: String?, pairs: [(Double, Double)],
    labels: [String]? = nil,
    agreement: PairedAgreement, folder: String?, format: OutputFormat?, into out: inout Rendering
  ) throws {
    guard folder != nil || out.figuresDirectory != nil, !pairs.isEmpty else { return }
    let u = unit.map { " (\($0.replacingOccurrences(of: "_per_", with: "/")))" } ?? ""
    let subject = subject ?? "\(a) against \(b)"
    let s = agreement.statistics
    let limits = agreement.limits
    let nesting =
      limits?.nesting == .repeatedMeasures
      ? ", \(limits?.participants ?? 0) participants (repeated measures)" : ""
    var chart = GnuplotChart(
      name: "\(name)-bland-altman", title: "Bland-Altman: \(subject) (n = \(s.count)\(nesting))",
      xLabel: "mean of \(a) and \(b)\(u)", yLabel: "\(a) minus \(b)\(u)",
      series: [
        .init(
          title: "pairs", style: .points, points: pairs.map { .init(($0.0 + $0.1) / 2, $0.0 - $0.1) },
          pointLabels: pairs.count <= labelledPairsLimit
            ? (labels.flatMap { $0.count == pairs.count ? $0 : nil } ?? pairs.indices.map { "#\($0 + 1)" })
            : nil)
      ])
    chart.horizontalLines = [.init(y: 0, title: "zero difference")]
    chart.notDrawnReason = constantRatioReason(pairs, a: a, b: b)
    guard let limits else {
      out.draw(chart, folder: folder, format: format)
      return
    }
    let ends = [limits.meanRange.lowerBound, limits.meanRange.upperBound]
    switch limits.form {
    case .absolute:
      let c = limits.constant
      chart.horizontalLines += [
        .init(y: c.bias, title: "bias \(Fixed.format(c.bias, digits: 2))"),
        .init(y: c.lower, title: "lower limit \(Fixed.format(c.lower, digits: 2))"),
        .init(y: c.upper, title: "upper limit \(Fixed.format(c.upper, digits: 2))"),
      ]
    case .ratio:
      if let r = limits.ratio {
        func line(_ ratio: Double) -> [GnuplotChart.Point] {
          ends.map { .init($0, 2 * $0 * (ratio - 1) / (ratio + 1)) }
        }
        chart.series += [
          .init(title: "bias: ratio \(Fixed.format(r.bias, digits: 3))", style: .lines, points: line(r.bias)),
          .init(
            title: "lower limit: ratio \(Fixed.format(r.limits.lower, digits: 3))", style: .lines,
            points: line(r.limits.lower)),
          .init(
            title: "upper limit: ratio \(Fixed.format(r.limits.upper, digits: 3))", style: .lines,
            points: line(r.limits.upper)),
        ]
      }
    case .regression:
      if let r = limits.regression {
        chart.series += [
          .init(
            title: "bias (regression on the mean)", style: .lines,
            points: ends.map { .init($0, r.bias(atMean: $0)) }),
          .init(
            title: "lower limit (regression, Bland & Altman 1999)", style: .lines,
            points: ends.map { .init($0, r.limits(atMean: $0).lower) }),
          .init(
            title: "upper limit (regression, Bland & Altman 1999)", style: .lines,
            points: ends.map { .init($0, r.limits(atMean: $0).upper) }),
        ]
      }
    case .none:
      let t = limits.differenceTrend
      chart.series.append(
        .init(
          title:
            "trend of the differences: \(Fixed.format(t.intercept, digits: 2)) \(t.slope < 0 ? "-" : "+") \(Fixed.format(abs(t.slope), digits: 3)) x mean (p \(Fixed.pValue(t.pValue)))",
          style: .lines, points: ends.map { .init($0, t.intercept + t.slope * $0) }))
      chart.title += "; no limits of agreement apply"
    }
    out.draw(chart, folder: folder, format: format)
  }

  /// Why a Bland-Altman chart of `pairs` would show nothing: when every
  /// pair's relative difference (a - b) / b lies within a tenth of the
  /// largest one (the rule for one colour in a grid), the points fall on
  /// one line through zero, on which the bias and both limits lie too.
  /// Nil when the relative differences vary, or for fewer than three
  /// pairs or a b of zero, where no ratio is known.
  static func constantRatioReason(_ pairs: [(Double, Double)], a: String, b: String) -> String? {
    guard pairs.count >= 3, pairs.allSatisfy({ $0.1 != 0 && $0.0.isFinite && $0.1.isFinite }) else {
      return nil
    }
    let relative = pairs.map { 100 * ($0.0 - $0.1) / $0.1 }
    guard let low = relative.min(), let high = relative.max(), high - low <= 0.1 * max(abs(low), abs(high))
    else { return nil }
    let mean = relative.reduce(0, +) / Double(relative.count)
    return
      "\(a) differs from \(b) by about \(Fixed.format(mean, digits: 1)) % of \(b) in all \(pairs.count) pairs (from \(Fixed.format(low, digits: 1)) to \(Fixed.format(high, digits: 1)) %), nearly a constant share, so the points lie on one line through zero that hides the bias and the limits; the table gives them"
  }

  /// The most pairs a Bland-Altman chart labels one by one.
  package static let labelledPairsLimit = 30

  /// The agreement of two columns: the pairs, the rows left out for a
  /// missing value, and the statistics of a against b.
  package struct ColumnAgreement: Sendable {
    package var path: String
    package var a: String
    package var b: String
    /// The participant column, when named.
    package var id: String?
    package var pairs: [(Double, Double)]
    /// The participant of each pair, when `id` is named.
    package var ids: [String]? = nil
    package var droppedPairs: Int
    package var agreement: PairedAgreement
  }

  /// The agreement of columns `a` and `b` of a CSV; with `id`, the
  /// participant column, pairs of a participant are repeated measures.
  package static func columnAgreement(
    path: String, a: String, b: String, id: String? = nil, zone: AgreementIndices.Zone? = nil
  ) throws -> ColumnAgreement {
    let rows = try PairedColumns.pairs(path: path, a: a, b: b, id: id)
    guard rows.pairs.count >= 2 else {
      throw InputError(
        .empty,
        SourceLocation(file: path), "\(rows.pairs.count) complete pairs",
        expected: "at least 2 rows with both \(a) and \(b)")
    }
    return ColumnAgreement(
      path: path, a: a, b: b, id: id, pairs: rows.pairs, ids: rows.ids, droppedPairs: rows.skipped,
      agreement: PairedAgreement(
        predicted: rows.pairs.map(\.0), reference: rows.pairs.map(\.1), participants: rows.ids, zone: zone))
  }

  /// The parameters of an agreement that change its numbers.
  static func agreementParameters(zone: AgreementIndices.Zone?) -> [NamedParameter] {
    let p = LimitsOfAgreement.Parameters()
    var out = [
      NamedParameter(
        name: "limits_significance", value: Fixed.shortest(p.significanceLevel),
        meaning: "level of the trend and spread tests that choose the form of the limits"),
      NamedParameter(
        name: "confidence_level", value: Fixed.shortest(p.confidenceLevel), meaning: "level of every interval"
      ),
      NamedParameter(
        name: "bootstrap", value: "\(p.bootstrapResamples) resamples, seed \(p.bootstrapSeed)",
        meaning: "intervals of regression-based limits"),
      NamedParameter(
        name: "percent_error_floor", value: Fixed.shortest(ErrorAccumulator().percentErrorFloor),
        meaning:
          "percentage errors only where every reference is at least this fraction of the mean reference"),
    ]
    if let zone {
      let text: String
      switch zone {
      case .units(let u): text = "-/+\(Fixed.shortest(u))"
      case .percentOfReference(let p): text = "-/+\(Fixed.shortest(p))% of the mean reference"
      }
      out.append(
        NamedParameter(name: "equivalence_zone", value: text, meaning: "two one-sided tests of the bias"))
    }
    return out
  }

  /// The agreement of two columns with how it is printed and stored.
  package struct ColumnOutcome: CommandOutcome {
    package var result: ColumnAgreement
    /// The unit of both columns (`kcal`, `kcal_per_min`), when given.
    package var unit: String?
    package var zone: AgreementIndices.Zone?
    package var chartsDirectory: String?
    package var format: OutputFormat?
    package var inputs: [String] { [result.path] }
    package var parameters: [NamedParameter] {
      [
        NamedParameter(name: "a", value: result.a, meaning: "column compared (differences are a minus b)"),
        NamedParameter(name: "b", value: result.b, meaning: "column compared with"),
        NamedParameter(name: "unit", value: unit ?? "", meaning: "unit of both columns (empty: not given)"),
        NamedParameter(
          name: "id", value: result.id ?? "", meaning: "column of participants (empty: pairs independent)"),
      ] + agreementParameters(zone: zone)
    }
    package var diagnostics: [Diagnostic] {
      // Rows with NA or an empty cell in a or b are left out and counted.
      var out: [Diagnostic] =
        result.droppedPairs > 0
        ? [
          Diagnostic(
            code: "missing-pairs", severity: .note,
            message:
              "\(result.droppedPairs) rows with a missing \(result.a) or \(result.b)\(result.id.map { " or \($0)" } ?? "") (empty, NA, N/A, NaN) left out",
            location: result.path)
        ] : []
      out += agreementDiagnostics(
        result.agreement, location: result.path, named: "\(result.a) against \(result.b)")
      return out
    }
    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "stats agreement --a \(result.a) --b \(result.b)", recordedAt: recordedAt, inputs: inputs,
        parameters: parameters,
        errorSummaries: errorSummaries(
          result.agreement, model: result.a, reference: result.b,
          unit: (unit ?? "").replacingOccurrences(of: "_per_", with: "/")))
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }
    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      let (a, b, path) = (result.a, result.b, result.path)
      var row = ResultRecord(["a": .string(a), "b": .string(b)])
      for field in record(result.agreement, unit: unit).fields { row[field.key] = field.value }
      row["dropped_pairs"] = .integer(result.droppedPairs)
      out.emit(ResultTable(name: "agreement", rows: [row], isSingleObject: true), format: format)
      try drawBlandAltman(
        name: GnuplotChart.safeFileStem(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
          + "-\(a)-\(b)", a: a, b: b, unit: unit, pairs: result.pairs, labels: result.ids,
        agreement: result.agreement,
        folder: chartsDirectory, format: format, into: &out)
      return out
    }
  }

  /// What a reader of an agreement must be told beside its numbers: the
  /// form and nesting of the limits, and percentage errors left unknown.
  static func agreementDiagnostics(_ agreement: PairedAgreement, location: String?, named: String)
    -> [Diagnostic]
  {
    var out: [Diagnostic] = []
    if let l = agreement.limits {
      out.append(
        Diagnostic(
          code: "limits-form", severity: .note,
          message:
            "\(named): \(l.form == .none ? "no" : l.form.rawValue) limits of agreement over \(l.nesting == .repeatedMeasures ? "\(l.count) pairs from \(l.participants) participants (repeated measures, Bland & Altman 2007)" : "\(l.count) independent pairs"); \(l.reason)",
          location: location))
    }
    if let why = agreement.statistics.percentErrorUnknownReason, agreement.statistics.count > 0 {
      out.append(
        Diagnostic(
          code: "percent-errors-unknown", severity: .note,
          message: "\(named): MAPE and the share within tolerance are unknown: \(why)", location: location))
    }
    return out
  }

  package static func statsAgreement(
    path: String, a: String, b: String, id: String? = nil, unit: String? = nil,
    zone: AgreementIndices.Zone? = nil, chartsDirectory: String? = nil,
    databasePath: String? = nil, format: OutputFormat?, driver: Driver
  ) throws {
    try driver.finish(
      ColumnOutcome(
        result: try columnAgreement(path: path, a: a, b: b, id: id, zone: zone), unit: unit, zone: zone,
        chartsDirectory: chartsDirectory, format: format), database: databasePath)
  }

  /// The agreement of one pair of models over the epochs both cover.
  package struct PairAgreement: Sendable {
    package var a: String
    package var b: String
    /// Energy rates (a, b) of each epoch, kcal/min, in epoch order.
    package var pairs: [(Double, Double)]
    package var agreement: PairedAgreement
  }

  /// Energy rates of several models over the same tracks, per full epoch,
  /// and the agreement of every pair.
  package struct ModelAgreement: Sendable {
    package var epochs: [EpochRow]
    package var pairs: [PairAgreement]
    /// Epochs wholly covered by timed steps, compared; and those left out
    /// because the track covers only part of them (its first and last
    /// epochs, pauses and gaps).
    package var epochsCompared: Int
    package var epochsPartial: Int
    /// The models' diagnostics (a model outside its valid range, ...).
    package var diagnostics: [Diagnostic]
    package var files: [String]
    package var parameters: [NamedParameter]
  }

  /// With `againstMeasured`, each model is compared with the measured
  /// expenditure (`measured`, or each file itself when it is a measured
  /// export) over the same whole epochs, instead of with the other models.
  /// With `againstPower`, each model's predicted mechanical power (a
  /// cycling power model) is compared with the power meter's, as mean watts
  /// per whole epoch of steps that carry both.
  package static func modelAgreement(
    files: [String], modelIDs: [String], subject: ModelInput, epochSeconds: Double, speedSmoothingFixes: Int,
    track: TrackAnalysisParameters, measured: MeasuredOptions? = nil, againstMeasured: Bool = false,
    againstPower: Bool = false, zone: AgreementIndices.Zone? = nil,
    breathFilter: BreathFilter? = BreathFilter()
  ) throws -> ModelAgreement {
    let againstReference = againstMeasured || againstPower
    var epochRows: [EpochRow] = []
    var diagnostics: [Diagnostic] = []
    guard modelIDs.count >= (againstReference ? 1 : 2) else {
      throw UsageError(
        .missing, againstReference ? "agreement needs a model" : "agreement needs at least two models")
    }
    guard epochSeconds > 0 else { throw UsageError(.outOfRange, "the epoch must be positive") }
    let models = try modelIDs.map(ModelRegistry.model(id:))
    let analysis = TrackAnalysis(parameters: track)
    // rates[model][epoch key] = kcal/min
    var rates = [[String: Double]](repeating: [:], count: models.count)
    var measuredRates: [String: Double] = [:]
    var measuredFiles: [String] = []
    var compared = 0
    var partial = 0
    for file in files {
      let trackData = try TrackCommands.readTrack(file, parameters: track)
      var (steps, stepDiagnostics) = analysis.steps(of: trackData)
      diagnostics += stepDiagnostics.filter { $0.code == "time-gap" }
      if speedSmoothingFixes > 1 { steps = SpeedSmoothing.movingAverage(steps, fixes: speedSmoothingFixes) }
      guard let start = steps.first(where: { $0.startSecondsSince1970 != nil })?.startSecondsSince1970 else {
        throw InputError(
          .malformed, SourceLocation(file: file), "no times", expected: "fixes with <time> to form epochs")
      }
      var measurement: AlignedMeasurement?
      if againstMeasured {
        guard
          let options =
            measured
            ?? (TrackCommands.isMeasuredExport(file)
              ? MeasuredOptions(path: file, breathFilter: breathFilter) : nil)
        else {
          throw UsageError(
            .missing, "\(file) is not a measured export: name the measured-expenditure file of the tracks"
          )
        }
        let m = AlignedMeasurement(
          try options.read(), trackStart: start,
          trackEnd: steps.last.flatMap { s in s.startSecondsSince1970.map { $0 + (s.durationSeconds ?? 0) } },
          track: file)
        diagnostics +=
          m.diagnostics
          + (options.path == file
            ? m.measured.diagnostics.filter { BreathFilter.diagnosticCodes.contains($0.code) }
            : m.measured.diagnostics)
        if !measuredFiles.contains(options.path) { measuredFiles.append(options.path) }
        measurement = m
      }
      for (m, model) in models.enumerated() {
        var energy: [Int: Double] = [:]
        var covered: [Int: Double] = [:]
        var meterJoules: [Int: Double] = [:]
        let result = try TrackEnergy(
          source: file, steps: steps[...], model: model, subject: subject,
          perStep: { step, output, kcal in
            guard let t = step.startSecondsSince1970, let dt = step.durationSeconds else { return }
            var amount = kcal
            if againstPower {
              // Predicted and measured work over the step, J.
              guard let predicted = output.powerWatts, let metered = step.powerWatts else { return }
              amount = predicted * dt
              for share in EpochSplit.shares(
                startSeconds: t - start, durationSeconds: dt, epochSeconds: epochSeconds)
              {
                meterJoules[share.epoch, default: 0] += metered * dt * share.fraction
              }
            }
            for share in EpochSplit.shares(
              startSeconds: t - start, durationSeconds: dt, epochSeconds: epochSeconds)
            {
              energy[share.epoch, default: 0] += amount * share.fraction
              covered[share.epoch, default: 0] += dt * share.fraction
            }
          })
        if againstPower && energy.isEmpty {
          throw UsageError(
            .missing,
            "\(file): \(model.info.id) against power needs records with power and a model that predicts power (martin-1998-cycling)"
          )
        }
        diagnostics += result.diagnostics
        if m == 0 {
          let full = covered.values.filter { $0 >= epochSeconds * 0.999 }.count
          compared += full
          partial += covered.count - full
          if covered.count > full {
            diagnostics.append(
              Diagnostic(
                code: "epochs-partial", severity: .note,
                message:
                  "\(full) of \(covered.count) \(Fixed.shortest(epochSeconds)) s epochs are wholly covered and compared; \(covered.count - full) only partly covered (the first and last, pauses, gaps) are left out",
                location: file))
          }
        }
        for (epoch, kcal) in energy where (covered[epoch] ?? 0) >= epochSeconds * 0.999 {
          let epochStart = start + Double(epoch) * epochSeconds
          if againstPower {
            let key = "\(file)#\(epoch)"
            if m == 0, let joules = meterJoules[epoch] {
              measuredRates[key] = joules / epochSeconds
              epochRows.append(
                EpochRow(
                  source: file, epochStart: ISO8601.formatUTC(epochStart), epochSeconds: epochSeconds,
                  metric: "power measured", value: joules / epochSeconds, unit: "W"))
            }
            rates[m][key] = kcal / epochSeconds
            epochRows.append(
              EpochRow(
                source: file, epochStart: ISO8601.formatUTC(epochStart), epochSeconds: epochSeconds,
                metric: "power \(modelIDs[m])", value: kcal / epochSeconds, unit: "W"))
            continue
          }
          if m == 0, let measurement {
            if let measuredKcal = measurement.energyKilocalories(
              from: epochStart, to: epochStart + epochSeconds)
            {
              measuredRates["\(file)#\(epoch)"] = measuredKcal / (epochSeconds / 60)
              epochRows.append(
                EpochRow(
                  source: file, epochStart: ISO8601.formatUTC(epochStart), epochSeconds: epochSeconds,
                  metric: "energy_rate measured", value: measuredKcal / (epochSeconds / 60), unit: "kcal/min")
              )
            }
          }
          rates[m]["\(file)#\(epoch)"] = kcal / (epochSeconds / 60)
          epochRows.append(
            EpochRow(
              source: file, epochStart: ISO8601.formatUTC(start + Double(epoch) * epochSeconds),
              epochSeconds: epochSeconds,
              metric: "energy_rate \(modelIDs[m])", value: kcal / (epochSeconds / 60), unit: "kcal/min"))
        }
      }
    }
    var agreements: [PairAgreement] = []
    if againstReference {
      for i in models.indices {
        let keys = rates[i].keys.filter { measuredRates[$0] != nil }.sorted()
        let notMeasured = rates[i].count - keys.count
        if notMeasured > 0 && i == 0 {
          diagnostics.append(
            Diagnostic(
              code: "epochs-not-measured", severity: .warning,
              message:
                "\(notMeasured) whole epochs have no measured energy (outside the measurement, or breaths without energy) and are left out"
            ))
        }
        let pairs = keys.compactMap { key in
          rates[i][key].flatMap { x in measuredRates[key].map { (x, $0) } }
        }
        agreements.append(
          PairAgreement(
            a: modelIDs[i], b: againstPower ? "power-meter" : "measured", pairs: pairs,
            agreement: PairedAgreement(
              predicted: pairs.map(\.0), reference: pairs.map(\.1), participants: keys.map(Self.session),
              zone: zone)))
      }
    }
    for i in models.indices where !againstReference {
      for j in models.indices where j > i {
        var pairs: [(Double, Double)] = []
        var sessions: [String] = []
        for key in rates[i].keys.sorted() {
          if let x = rates[i][key], let y = rates[j][key] {
            pairs.append((x, y))
            sessions.append(Self.session(key))
          }
        }
        agreements.append(
          PairAgreement(
            a: modelIDs[i], b: modelIDs[j], pairs: pairs,
            agreement: PairedAgreement(
              predicted: pairs.map(\.0), reference: pairs.map(\.1), participants: sessions, zone: zone)))
      }
    }
    return ModelAgreement(
      epochs: epochRows.sorted {
        ($0.source, $0.epochStart, $0.metric) < ($1.source, $1.epochStart, $1.metric)
      },
      pairs: agreements, epochsCompared: compared, epochsPartial: partial, diagnostics: diagnostics,
      files: files + measuredFiles.filter { !files.contains($0) },
      parameters: (againstMeasured
        ? [
          NamedParameter(
            name: "against", value: "measured", meaning: "each model against measured expenditure")
        ]
          + (measured ?? MeasuredOptions(path: "", breathFilter: breathFilter)).described : [])
        + (againstPower
          ? [NamedParameter(name: "against", value: "power", meaning: "predicted against measured power, W")]
          : [])
        + track.described + agreementParameters(zone: zone) + [
          NamedParameter(
            name: "epoch_s", value: Fixed.shortest(epochSeconds),
            meaning: "energy rates compared per full epoch"),
          NamedParameter(
            name: "repeated_measures_unit", value: "file",
            meaning: "epochs of one file (one session) are repeated measures of it"),
          NamedParameter(
            name: "speed_smoothing_fixes", value: String(speedSmoothingFixes),
            meaning: "centred moving average of step speeds"),
        ] + subject.subjectParameters)
  }

  /// The session (file) of an epoch key `file#epoch`: the epochs of one
  /// recording are repeated measures of it.
  static func session(_ key: String) -> String {
    key.lastIndex(of: "#").map { String(key[..<$0]) } ?? key
  }

  /// The agreement of models over tracks with how it is printed and stored.
  package struct ModelsOutcome: CommandOutcome {
    package var result: ModelAgreement
    package var modelIDs: [String]
    package var epochSeconds: Double
    package var againstPower: Bool
    package var sources = OptionSources()
    package var chartsDirectory: String?
    package var format: OutputFormat?
    package var inputs: [String] { result.files + sources.files }
    package var parameters: [NamedParameter] { result.parameters + sources.parameters }
    // A model outside its valid range (ACSM walking at running speed) is
    // said, as `energy` says it.
    package var diagnostics: [Diagnostic] {
      result.diagnostics
        + result.pairs.flatMap {
          agreementDiagnostics($0.agreement, location: nil, named: "\($0.a) against \($0.b)")
        }
    }
    /// The printed unit of energy rates, or with a power meter as the
    /// reference, of mean power.
    var unit: String { againstPower ? "w" : "kcal_per_min" }

    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "agreement --models \(modelIDs.joined(separator: ","))", recordedAt: recordedAt,
        inputs: inputs, parameters: parameters)
      run.epochs = result.epochs
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      run.errorSummaries = result.pairs.flatMap {
        errorSummaries($0.agreement, model: $0.a, reference: $0.b, unit: againstPower ? "W" : "kcal/min")
      }
      return run
    }

    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      let rows = result.pairs.map { pair in
        var row = ResultRecord(["a": .string(pair.a), "b": .string(pair.b)])
        for field in record(pair.agreement, unit: unit).fields { row[field.key] = field.value }
        // Energy (or work) over the compared epochs: rate x epoch, summed.
        if againstPower {
          row["total_a_kj"] = .number(pair.pairs.reduce(0) { $0 + $1.0 } * epochSeconds / 1000, 1)
          row["total_b_kj"] = .number(pair.pairs.reduce(0) { $0 + $1.1 } * epochSeconds / 1000, 1)
        } else {
          row["total_a_kcal"] = .number(pair.pairs.reduce(0) { $0 + $1.0 } * epochSeconds / 60, 2)
          row["total_b_kcal"] = .number(pair.pairs.reduce(0) { $0 + $1.1 } * epochSeconds / 60, 2)
        }
        return row
      }
      out.write(
        (format ?? out.defaultFormat) == .json
          ? ""
          : "\(againstPower ? "mean power in W" : "energy rates in kcal/min") per \(Fixed.shortest(epochSeconds)) s epoch; \(result.epochsCompared) epochs compared, \(result.epochsPartial) partly covered left out; differences are a minus b\n"
      )
      out.emit(ResultTable(name: "model-agreement", rows: rows), format: format)
      for pair in result.pairs {
        try drawBlandAltman(
          name: "agreement-\(pair.a)-\(pair.b)", a: pair.a, b: pair.b,
          unit: againstPower ? "W" : "kcal_per_min", pairs: pair.pairs, agreement: pair.agreement,
          folder: chartsDirectory, format: format, into: &out)
      }
      return out
    }
  }

  /// `agreement`: compute, then store and print through the driver.
  package static func models(
    files: [String], modelIDs: [String], subject: ModelInput, epochSeconds: Double, speedSmoothingFixes: Int,
    track: TrackAnalysisParameters, format: OutputFormat?, databasePath: String? = nil,
    chartsDirectory: String? = nil, measured: MeasuredOptions? = nil, againstMeasured: Bool = false,
    againstPower: Bool = false, zone: AgreementIndices.Zone? = nil,
    breathFilter: BreathFilter? = BreathFilter(),
    sources: OptionSources = OptionSources(), driver: Driver
  ) throws {
    let result = try modelAgreement(
      files: files, modelIDs: modelIDs, subject: subject, epochSeconds: epochSeconds,
      speedSmoothingFixes: speedSmoothingFixes, track: track, measured: measured,
      againstMeasured: againstMeasured, againstPower: againstPower, zone: zone, breathFilter: breathFilter)
    try driver.finish(
      ModelsOutcome(
        result: result, modelIDs: modelIDs, epochSeconds: epochSeconds, againstPower: againstPower,
        sources: sources, chartsDirectory: chartsDirectory, format: format),
      database: databasePath)
  }
}

/// How a step's time falls into fixed epochs: each epoch it overlaps and
/// the fraction of the step inside it, so a quantity over the step (energy)
/// is split between epochs in proportion to time.
package enum EpochSplit {
  package struct Share: Sendable, Hashable {
    /// 0-based epoch from the start of the recording.
    package var epoch: Int
    /// Fraction of the step's duration inside the epoch, 0-1.
    package var fraction: Double
  }

  /// The shares of a step that starts `startSeconds` after the recording
  /// and lasts `durationSeconds`; a step of no duration falls wholly into
  /// the epoch holding its start.
  package static func shares(startSeconds: Double, durationSeconds: Double, epochSeconds: Double) -> [Share] {
    let first = Int((startSeconds / epochSeconds).rounded(.down))
    guard durationSeconds > 0 else { return [Share(epoch: first, fraction: 1)] }
    let end = startSeconds + durationSeconds
    var out: [Share] = []
    var epoch = first
    while Double(epoch) * epochSeconds < end {
      let lower = max(startSeconds, Double(epoch) * epochSeconds)
      let upper = min(end, Double(epoch + 1) * epochSeconds)
      if upper > lower { out.append(Share(epoch: epoch, fraction: (upper - lower) / durationSeconds)) }
      epoch += 1
    }
    return out
  }
}
