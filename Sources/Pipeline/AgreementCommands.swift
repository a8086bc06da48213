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
public enum AgreementCommands {
  /// The keys every agreement prints; differences are a minus b, and keys
  /// of values in the data's unit end in it (`bias_kcal_per_min`).
  public static func record(_ s: ErrorStatistics, unit: String?, proportional: ProportionalBias?)
    -> ResultRecord
  {
    let u = unit.map { "_\($0)" } ?? ""
    var row = ResultRecord([
      "n": .integer(s.count), "bias\(u)": .number(s.bias, 4), "sd_diff\(u)": .number(s.sdDifference, 4),
      "loa_lower\(u)": .number(s.limitsOfAgreementLower, 4),
      "loa_upper\(u)": .number(s.limitsOfAgreementUpper, 4),
      // Intervals are always two numeric fields, `*_lower` and `*_upper`.
      "loa_lower_ci95_lower\(u)": .number(s.lowerLimitConfidenceInterval.lower, 4),
      "loa_lower_ci95_upper\(u)": .number(s.lowerLimitConfidenceInterval.upper, 4),
      "loa_upper_ci95_lower\(u)": .number(s.upperLimitConfidenceInterval.lower, 4),
      "loa_upper_ci95_upper\(u)": .number(s.upperLimitConfidenceInterval.upper, 4),
      "mae\(u)": .number(s.meanAbsoluteError, 4), "rmse\(u)": .number(s.rootMeanSquareError, 4),
      "mape_pct": .number(s.meanAbsolutePercentageError, 2), "pearson_r": .number(s.pearsonR, 4),
      "ccc": .number(s.concordanceCorrelation, 4), "within_20pct_share": .number(s.withinToleranceShare, 4),
    ])
    // Bland and Altman (1999): does the difference grow with the mean, and
    // which form of limits holds once that is tested?
    let limits = proportional?.limitsOfAgreement
    row["slope"] = .number(proportional?.slope, 4)
    row["slope_p"] = .number(proportional?.pValue, 4)
    row["limits_form"] = limits.map { .string($0.form.rawValue) } ?? .string("absolute (untested)")
    row["limits_form_reason"] = .string(limits?.reason ?? "too few pairs to test a trend")
    let percentage = limits?.percentage
    row["pct_bias_pct"] = .number(percentage?.bias, 2)
    row["pct_loa_lower_pct"] = .number(percentage?.limits.lower, 2)
    row["pct_loa_upper_pct"] = .number(percentage?.limits.upper, 2)
    let regression = limits?.regression
    row["reg_bias_intercept\(u)"] = .number(regression?.b0, 4)
    row["reg_bias_slope"] = .number(regression?.b1, 4)
    row["reg_abs_residual_intercept\(u)"] = .number(regression?.c0, 4)
    row["reg_abs_residual_slope"] = .number(regression?.c1, 4)
    return row
  }

  /// Error statistics of `model` against `reference` as stored rows, in
  /// the one vocabulary `evaluate`, `agreement` and `batch` share: the
  /// statistic's name without a unit, the unit in its own column. `unit`
  /// is the unit of the compared values (`kcal`, `kcal/min`, `W`);
  /// differences are model minus reference.
  public static func errorSummaries(
    _ s: ErrorStatistics, proportional: ProportionalBias?, model: String, reference: String, unit: String
  ) -> [ErrorSummaryRow] {
    let limits = proportional?.limitsOfAgreement
    let regression = limits?.regression
    let rows: [(String, Double?, String)] = [
      ("n", Double(s.count), "count"),
      ("mean_predicted", s.meanPredicted, unit), ("mean_reference", s.meanReference, unit),
      ("bias", s.bias, unit), ("sd_diff", s.sdDifference, unit),
      ("mae", s.meanAbsoluteError, unit), ("rmse", s.rootMeanSquareError, unit),
      ("max_abs_error", s.maximumAbsoluteError, unit),
      ("mape", s.meanAbsolutePercentageError, "%"),
      ("pearson_r", s.pearsonR, ""), ("ccc", s.concordanceCorrelation, ""),
      ("loa_lower", s.limitsOfAgreementLower, unit), ("loa_upper", s.limitsOfAgreementUpper, unit),
      ("loa_lower_ci95_lower", s.lowerLimitConfidenceInterval.lower, unit),
      ("loa_lower_ci95_upper", s.lowerLimitConfidenceInterval.upper, unit),
      ("loa_upper_ci95_lower", s.upperLimitConfidenceInterval.lower, unit),
      ("loa_upper_ci95_upper", s.upperLimitConfidenceInterval.upper, unit),
      ("within_\(Fixed.shortest(100 * s.relativeTolerance))pct_share", s.withinToleranceShare, "fraction"),
      ("slope", proportional?.slope, ""), ("slope_p", proportional?.pValue, ""),
      ("pct_bias", limits?.percentage?.bias, "%"),
      ("pct_loa_lower", limits?.percentage?.limits.lower, "%"),
      ("pct_loa_upper", limits?.percentage?.limits.upper, "%"),
      ("reg_bias_intercept", regression?.b0, unit), ("reg_bias_slope", regression?.b1, ""),
      ("reg_abs_residual_intercept", regression?.c0, unit), ("reg_abs_residual_slope", regression?.c1, ""),
    ]
    return rows.map {
      ErrorSummaryRow(model: model, reference: reference, statistic: $0.0, value: $0.1, unit: $0.2)
    }
  }

  /// The Bland-Altman chart of pairs (a, b) with the limits in the form
  /// the data support: constant lines only where no trend remains
  /// (absolute), regression-based limit lines where the differences trend;
  /// where they trend and percentage limits hold, the fitted trend of the
  /// differences and those limits over the observed means (and the
  /// percentage chart); where no limits apply, the fitted trend and a
  /// title that says so. No constant line is drawn over a trend.
  static func drawBlandAltman(
    name: String, subject: String? = nil, a: String, b: String, unit: String?, pairs: [(Double, Double)],
    statistics s: ErrorStatistics,
    proportional: ProportionalBias?, folder: String?, format: OutputFormat?, context: CommandContext
  ) throws {
    guard folder != nil || context.figuresDirectory != nil, !pairs.isEmpty else { return }
    let u = unit.map { " (\($0.replacingOccurrences(of: "_per_", with: "/")))" } ?? ""
    let subject = subject ?? "\(a) against \(b)"
    var chart = GnuplotChart(
      name: "\(name)-bland-altman", title: "Bland-Altman: \(subject) (n = \(s.count))",
      xLabel: "mean of \(a) and \(b)\(u)", yLabel: "\(a) minus \(b)\(u)",
      series: [
        .init(title: "pairs", style: .points, points: pairs.map { .init(($0.0 + $0.1) / 2, $0.0 - $0.1) })
      ])
    let form = proportional?.limitsOfAgreement.form ?? .absolute
    switch form {
    case .absolute:
      chart.horizontalLines = [
        .init(y: s.bias, title: "bias \(Fixed.format(s.bias, digits: 2))"),
        .init(
          y: s.limitsOfAgreementLower,
          title: "lower limit \(Fixed.format(s.limitsOfAgreementLower, digits: 2))"),
        .init(
          y: s.limitsOfAgreementUpper,
          title: "upper limit \(Fixed.format(s.limitsOfAgreementUpper, digits: 2))"),
      ]
    case .regression:
      if let r = proportional?.limitsOfAgreement.regression {
        let ends = [r.meanRange.lowerBound, r.meanRange.upperBound]
        chart.series += [
          .init(
            title: "bias (regression on the mean)", style: .lines,
            points: ends.map { .init($0, r.bias(atMean: $0)) }),
          .init(
            title: "regression-based limits (Bland & Altman 1999)", style: .lines,
            points: ends.map { .init($0, r.limits(atMean: $0).lower) }),
          .init(title: "", style: .lines, points: ends.map { .init($0, r.limits(atMean: $0).upper) }),
        ]
      }
    case .percentage, .none:
      // The differences trend with the mean, so no constant line is drawn:
      // the fitted trend of difference on mean (Bland and Altman 1999) is,
      // with the percentage limits over the observed means where they hold.
      guard let loa = proportional?.limitsOfAgreement else { break }
      let t = loa.differenceTrend
      let ends = [loa.meanRange.lowerBound, loa.meanRange.upperBound]
      chart.series.append(
        .init(
          title:
            "trend of the differences: \(Fixed.format(t.intercept, digits: 2)) \(t.slope < 0 ? "-" : "+") \(Fixed.format(abs(t.slope), digits: 3)) x mean (p \(Fixed.pValue(t.pValue)))",
          style: .lines, points: ends.map { .init($0, t.intercept + t.slope * $0) }))
      if form == .none {
        chart.title += "; no constant limits: the differences trend with the mean"
      } else if let pct = loa.percentage {
        let name =
          "limits \(Fixed.format(pct.limits.lower, digits: 1)) % to \(Fixed.format(pct.limits.upper, digits: 1)) % of the mean"
        chart.series += [
          .init(title: name, style: .lines, points: ends.map { .init($0, $0 * pct.limits.lower / 100) }),
          .init(title: "", style: .lines, points: ends.map { .init($0, $0 * pct.limits.upper / 100) }),
        ]
      }
    }
    try context.draw(chart, folder: folder, format: format)
    guard let p = proportional, let pct = p.limitsOfAgreement.percentage else { return }
    var percent = GnuplotChart(
      name: "\(name)-bland-altman-percent",
      title:
        "Bland-Altman, percentage form: \(subject) (slope \(Fixed.format(p.slope, digits: 3)), p \(Fixed.pValue(p.pValue)))",
      xLabel: "mean of \(a) and \(b)\(u)", yLabel: "(\(a) - \(b)) / mean (%)",
      series: [
        .init(title: "pairs", style: .points, points: p.percentPoints.map { .init($0.mean, $0.percent) })
      ])
    percent.horizontalLines = [
      .init(y: pct.bias, title: "bias \(Fixed.format(pct.bias, digits: 1)) %"),
      .init(y: pct.limits.lower, title: "lower limit \(Fixed.format(pct.limits.lower, digits: 1)) %"),
      .init(y: pct.limits.upper, title: "upper limit \(Fixed.format(pct.limits.upper, digits: 1)) %"),
    ]
    try context.draw(percent, folder: folder, format: format)
  }

  /// The agreement of two columns: the pairs, the rows left out for a
  /// missing value, and the statistics of a against b.
  public struct ColumnAgreement: Sendable {
    public var path: String
    public var a: String
    public var b: String
    public var pairs: [(Double, Double)]
    public var droppedPairs: Int
    public var statistics: ErrorStatistics
    public var proportional: ProportionalBias?
  }

  public static func columnAgreement(path: String, a: String, b: String) throws -> ColumnAgreement {
    let (pairs, skipped) = try PairedColumns.pairs(path: path, a: a, b: b)
    guard pairs.count >= 2 else {
      throw InputError(
        .empty,
        SourceLocation(file: path), "\(pairs.count) complete pairs",
        expected: "at least 2 rows with both \(a) and \(b)")
    }
    var accumulator = ErrorAccumulator()
    for (x, y) in pairs { accumulator.add(predicted: x, reference: y) }
    return ColumnAgreement(
      path: path, a: a, b: b, pairs: pairs, droppedPairs: skipped, statistics: accumulator.statistics(),
      proportional: ProportionalBias(predicted: pairs.map(\.0), reference: pairs.map(\.1)))
  }

  /// The agreement of two columns with how it is printed and stored.
  public struct ColumnOutcome: CommandOutcome {
    public var result: ColumnAgreement
    /// The unit of both columns (`kcal`, `kcal_per_min`), when given.
    public var unit: String?
    public var chartsDirectory: String?
    public var format: OutputFormat?
    public var inputs: [String] { [result.path] }
    public var parameters: [NamedParameter] {
      [
        NamedParameter(name: "a", value: result.a, meaning: "column compared (differences are a minus b)"),
        NamedParameter(name: "b", value: result.b, meaning: "column compared with"),
        NamedParameter(name: "unit", value: unit ?? "", meaning: "unit of both columns (empty: not given)"),
      ]
    }
    public var diagnostics: [Diagnostic] {
      // Rows with NA or an empty cell in a or b are left out and counted.
      result.droppedPairs > 0
        ? [
          Diagnostic(
            code: "missing-pairs", severity: .note,
            message:
              "\(result.droppedPairs) rows with a missing \(result.a) or \(result.b) (empty, NA, N/A, NaN) left out",
            location: result.path)
        ] : []
    }
    public func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "stats agreement --a \(result.a) --b \(result.b)", recordedAt: recordedAt, inputs: inputs,
        parameters: parameters,
        errorSummaries: errorSummaries(
          result.statistics, proportional: result.proportional, model: result.a, reference: result.b,
          unit: (unit ?? "").replacingOccurrences(of: "_per_", with: "/")))
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }
    public func render(into context: CommandContext) throws {
      let (a, b, path) = (result.a, result.b, result.path)
      var row = ResultRecord(["a": .string(a), "b": .string(b)])
      for field in record(result.statistics, unit: unit, proportional: result.proportional).fields {
        row[field.key] = field.value
      }
      row["dropped_pairs"] = .integer(result.droppedPairs)
      context.emit(ResultTable(name: "agreement", rows: [row], isSingleObject: true), format: format)
      try drawBlandAltman(
        name: GnuplotChart.safeFileStem(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
          + "-\(a)-\(b)", a: a, b: b, unit: unit, pairs: result.pairs, statistics: result.statistics,
        proportional: result.proportional, folder: chartsDirectory, format: format, context: context)
    }
  }

  public static func statsAgreement(
    path: String, a: String, b: String, unit: String? = nil, chartsDirectory: String? = nil,
    databasePath: String? = nil, format: OutputFormat?, context: CommandContext
  ) throws {
    try Driver.finish(
      ColumnOutcome(
        result: try columnAgreement(path: path, a: a, b: b), unit: unit, chartsDirectory: chartsDirectory,
        format: format), context: context, database: databasePath)
  }

  /// The agreement of one pair of models over the epochs both cover.
  public struct PairAgreement: Sendable {
    public var a: String
    public var b: String
    /// Energy rates (a, b) of each epoch, kcal/min, in epoch order.
    public var pairs: [(Double, Double)]
    public var statistics: ErrorStatistics
    public var proportional: ProportionalBias?
  }

  /// Energy rates of several models over the same tracks, per full epoch,
  /// and the agreement of every pair.
  public struct ModelAgreement: Sendable {
    public var epochs: [EpochRow]
    public var pairs: [PairAgreement]
    /// Epochs wholly covered by timed steps, compared; and those left out
    /// because the track covers only part of them (its first and last
    /// epochs, pauses and gaps).
    public var epochsCompared: Int
    public var epochsPartial: Int
    /// The models' diagnostics (a model outside its valid range, ...).
    public var diagnostics: [Diagnostic]
    public var files: [String]
    public var parameters: [NamedParameter]
  }

  /// With `againstMeasured`, each model is compared with the measured
  /// expenditure (`measured`, or each file itself when it is a measured
  /// export) over the same whole epochs, instead of with the other models.
  /// With `againstPower`, each model's predicted mechanical power (a
  /// cycling power model) is compared with the power meter's, as mean watts
  /// per whole epoch of steps that carry both.
  public static func modelAgreement(
    files: [String], modelIDs: [String], subject: ModelInput, epochSeconds: Double, speedSmoothingFixes: Int,
    track: TrackAnalysisParameters, measured: MeasuredOptions? = nil, againstMeasured: Bool = false,
    againstPower: Bool = false
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
      var (steps, _) = analysis.steps(of: trackData)
      if speedSmoothingFixes > 1 { steps = SpeedSmoothing.movingAverage(steps, fixes: speedSmoothingFixes) }
      guard let start = steps.first(where: { $0.startSecondsSince1970 != nil })?.startSecondsSince1970 else {
        throw InputError(
          .malformed, SourceLocation(file: file), "no times", expected: "fixes with <time> to form epochs")
      }
      var measurement: AlignedMeasurement?
      if againstMeasured {
        guard
          let options = measured ?? (TrackCommands.isMeasuredExport(file) ? MeasuredOptions(path: file) : nil)
        else {
          throw UsageError(
            .missing, "\(file) is not a measured export: name the measured-expenditure file of the tracks"
          )
        }
        let m = AlignedMeasurement(
          try options.read(), trackStart: start,
          trackEnd: steps.last.flatMap { s in s.startSecondsSince1970.map { $0 + (s.durationSeconds ?? 0) } },
          track: file)
        diagnostics += m.diagnostics + (options.path == file ? [] : m.measured.diagnostics)
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
        var accumulator = ErrorAccumulator()
        let pairs = keys.map { (rates[i][$0]!, measuredRates[$0]!) }
        for (x, y) in pairs { accumulator.add(predicted: x, reference: y) }
        agreements.append(
          PairAgreement(
            a: modelIDs[i], b: againstPower ? "power-meter" : "measured", pairs: pairs,
            statistics: accumulator.statistics(),
            proportional: ProportionalBias(predicted: pairs.map(\.0), reference: pairs.map(\.1))))
      }
    }
    for i in models.indices where !againstReference {
      for j in models.indices where j > i {
        var accumulator = ErrorAccumulator()
        var pairs: [(Double, Double)] = []
        for key in rates[i].keys.sorted() {
          if let x = rates[i][key], let y = rates[j][key] {
            accumulator.add(predicted: x, reference: y)
            pairs.append((x, y))
          }
        }
        agreements.append(
          PairAgreement(
            a: modelIDs[i], b: modelIDs[j], pairs: pairs, statistics: accumulator.statistics(),
            proportional: ProportionalBias(predicted: pairs.map(\.0), reference: pairs.map(\.1))))
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
          + (measured ?? MeasuredOptions(path: "")).described : [])
        + (againstPower
          ? [NamedParameter(name: "against", value: "power", meaning: "predicted against measured power, W")]
          : [])
        + track.described + [
          NamedParameter(
            name: "epoch_s", value: Fixed.shortest(epochSeconds),
            meaning: "energy rates compared per full epoch"),
          NamedParameter(
            name: "speed_smoothing_fixes", value: String(speedSmoothingFixes),
            meaning: "centred moving average of step speeds"),
        ] + subject.subjectParameters)
  }

  /// The agreement of models over tracks with how it is printed and stored.
  public struct ModelsOutcome: CommandOutcome {
    public var result: ModelAgreement
    public var modelIDs: [String]
    public var epochSeconds: Double
    public var againstPower: Bool
    public var sources = OptionSources()
    public var chartsDirectory: String?
    public var format: OutputFormat?
    public var inputs: [String] { result.files + sources.files }
    public var parameters: [NamedParameter] { result.parameters + sources.parameters }
    // A model outside its valid range (ACSM walking at running speed) is
    // said, as `energy` says it.
    public var diagnostics: [Diagnostic] { result.diagnostics }
    /// The printed unit of energy rates, or with a power meter as the
    /// reference, of mean power.
    var unit: String { againstPower ? "w" : "kcal_per_min" }

    public func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "agreement --models \(modelIDs.joined(separator: ","))", recordedAt: recordedAt,
        inputs: inputs, parameters: parameters)
      run.epochs = result.epochs
      run.diagnostics = result.diagnostics.map(DiagnosticRow.init)
      run.errorSummaries = result.pairs.flatMap {
        errorSummaries(
          $0.statistics, proportional: $0.proportional, model: $0.a, reference: $0.b,
          unit: againstPower ? "W" : "kcal/min")
      }
      return run
    }

    public func render(into context: CommandContext) throws {
      let rows = result.pairs.map { pair in
        var row = ResultRecord(["a": .string(pair.a), "b": .string(pair.b)])
        for field in record(pair.statistics, unit: unit, proportional: pair.proportional).fields {
          row[field.key] = field.value
        }
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
      context.write(
        (format ?? context.defaultFormat) == .json
          ? ""
          : "\(againstPower ? "mean power in W" : "energy rates in kcal/min") per \(Fixed.shortest(epochSeconds)) s epoch; \(result.epochsCompared) epochs compared, \(result.epochsPartial) partly covered left out; differences are a minus b\n"
      )
      context.emit(ResultTable(name: "model-agreement", rows: rows), format: format)
      for pair in result.pairs {
        try drawBlandAltman(
          name: "agreement-\(pair.a)-\(pair.b)", a: pair.a, b: pair.b,
          unit: againstPower ? "W" : "kcal_per_min", pairs: pair.pairs,
          statistics: pair.statistics, proportional: pair.proportional,
          folder: chartsDirectory, format: format, context: context)
      }
    }
  }

  /// `agreement`: compute, then store and print through the driver.
  public static func models(
    files: [String], modelIDs: [String], subject: ModelInput, epochSeconds: Double, speedSmoothingFixes: Int,
    track: TrackAnalysisParameters, format: OutputFormat?, databasePath: String? = nil,
    chartsDirectory: String? = nil, measured: MeasuredOptions? = nil, againstMeasured: Bool = false,
    againstPower: Bool = false, sources: OptionSources = OptionSources(),
    context: CommandContext
  ) throws {
    let result = try modelAgreement(
      files: files, modelIDs: modelIDs, subject: subject, epochSeconds: epochSeconds,
      speedSmoothingFixes: speedSmoothingFixes, track: track, measured: measured,
      againstMeasured: againstMeasured, againstPower: againstPower)
    try Driver.finish(
      ModelsOutcome(
        result: result, modelIDs: modelIDs, epochSeconds: epochSeconds, againstPower: againstPower,
        sources: sources, chartsDirectory: chartsDirectory, format: format),
      context: context, database: databasePath)
  }
}

/// How a step's time falls into fixed epochs: each epoch it overlaps and
/// the fraction of the step inside it, so a quantity over the step (energy)
/// is split between epochs in proportion to time.
public enum EpochSplit {
  public struct Share: Sendable, Hashable {
    /// 0-based epoch from the start of the recording.
    public var epoch: Int
    /// Fraction of the step's duration inside the epoch, 0-1.
    public var fraction: Double
  }

  /// The shares of a step that starts `startSeconds` after the recording
  /// and lasts `durationSeconds`; a step of no duration falls wholly into
  /// the epoch holding its start.
  public static func shares(startSeconds: Double, durationSeconds: Double, epochSeconds: Double) -> [Share] {
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
