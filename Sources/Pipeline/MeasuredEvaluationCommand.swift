import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Reporting
import Store

/// `evaluate measured`: energy models against a measured reference in any
/// table with one row per participant and condition (a treadmill stage, an
/// activity), the rows of one participant as repeated measures.
package enum MeasuredEvaluationCommand {
  /// The unit of the measured column, and the one the comparison is in.
  package enum MeasuredUnit: String, Sendable, Hashable, CaseIterable {
    case millilitersPerKilogramPerMinute = "mL/kg/min"
    case millilitersPerMinute = "mL/min"
    case kilocaloriesPerMinute = "kcal/min"
    case watts = "W"

    /// A model's rate in this unit: its VO2, or its kcal/min at
    /// `Oxygen.kilocaloriesPerLiter` (5 kcal per litre of oxygen) and the
    /// body mass.
    func value(of output: ModelOutput, massKilograms: Double?) -> Double? {
      let kcal =
        output.kilocaloriesPerMinute
        ?? output.vo2MillilitersPerKilogramPerMinute.flatMap { vo2 in
          massKilograms.map {
            Oxygen.kilocaloriesPerMinute(vo2MillilitersPerKilogramPerMinute: vo2, bodyMassKilograms: $0)
          }
        }
      let perKilogram =
        output.vo2MillilitersPerKilogramPerMinute
        ?? kcal.flatMap { k in
          massKilograms.flatMap { $0 > 0 ? k / Oxygen.kilocaloriesPerLiter * 1000 / $0 : nil }
        }
      switch self {
      case .millilitersPerKilogramPerMinute: return perKilogram
      case .millilitersPerMinute: return perKilogram.flatMap { p in massKilograms.map { p * $0 } }
      case .kilocaloriesPerMinute: return kcal
      case .watts: return kcal.map { $0 * Units.kilojoulesPerKilocalorie * 1000 / 60 }
      }
    }
  }

  /// A table column that gives a model input, read in a stated unit.
  package struct InputColumn: Sendable, Hashable {
    package var input: ModelInputName
    package var column: String
    /// The unit the cells are in (`kmh`, `mg`, `kg`, `bpm`, `1=male`).
    package var unit: String

    /// The names `--input NAME=COLUMN:UNIT` takes, with their units.
    package static let units: [ModelInputName: [String: Double]] = [
      .speed: ["kmh": 1 / 3.6, "mps": 1, "mph": 0.44704, "m/min": 1.0 / 60],
      .mass: ["kg": 1, "lb": 0.45359237],
      .enmo: ["mg": 1, "g": 1000],
      .mad: ["mg": 1, "g": 1000],
      .verticalCounts: ["cpm": 1],
      .vectorMagnitudeCounts: ["cpm": 1],
      .heartRate: ["bpm": 1],
      .restingHeartRate: ["bpm": 1],
      .maximumHeartRate: ["bpm": 1],
      .vo2Max: ["mL/kg/min": 1, "ml/kg/min": 1],
      .countsVariation: ["%": 1],
      .age: ["years": 1],
      .height: ["m": 1, "cm": 0.01],
    ]

    /// `NAME=COLUMN:UNIT`, as `enmo=ENMO:mg` or `sex=Sex:1=male`.
    package init(parsing text: String) throws {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let colon = parts[1].lastIndex(of: ":") else {
        throw ValueError(
          .unreadable, "an input column", value: text, expected: "NAME=COLUMN:UNIT, as enmo=ENMO:mg")
      }
      guard let name = ModelInputName(rawValue: parts[0]), Self.units[name] != nil || name == .sex else {
        throw ValueError.unknown(
          "input", parts[0], among: (Self.units.keys.map(\.rawValue) + ["sex"]).sorted())
      }
      input = name
      column = String(parts[1][..<colon])
      unit = String(parts[1][parts[1].index(after: colon)...])
      if name == .sex {
        guard ["1=male", "1=female", "m/f"].contains(unit.lowercased()) else {
          throw ValueError(
            .unreadable, "the unit of sex", value: unit,
            expected: "1=male (0 female), 1=female (0 male) or m/f")
        }
      } else if Self.units[name]?[unit.lowercased()] == nil, Self.units[name]?[unit] == nil {
        throw ValueError(
          .unreadable, "the unit of \(name.rawValue)", value: unit,
          expected: (Self.units[name]?.keys.sorted() ?? []).joined(separator: ", "))
      }
    }

    /// Whether the cell is a heart rate of 0: a strap without contact, a
    /// dropout, never 0 bpm.
    func isZeroHeartRate(_ cell: String) -> Bool {
      guard [.heartRate, .restingHeartRate, .maximumHeartRate].contains(input) else { return false }
      return Double(cell.trimmingCharacters(in: .whitespaces)) == 0
    }

    /// The cell as the model input's value, or nil when missing.
    func read(_ cell: String, into input: inout ModelInput) -> Bool {
      let text = cell.trimmingCharacters(in: .whitespaces)
      if PairedColumns.isMissing(text) { return false }
      if self.input == .sex {
        let lower = text.lowercased()
        switch unit.lowercased() {
        case "1=male": input.sex = lower == "1" ? .male : lower == "0" ? .female : nil
        case "1=female": input.sex = lower == "1" ? .female : lower == "0" ? .male : nil
        default: input.sex = lower.hasPrefix("m") ? .male : lower.hasPrefix("f") ? .female : nil
        }
        return input.sex != nil
      }
      guard let number = Double(text), number.isFinite,
        let scale = Self.units[self.input]?[unit.lowercased()] ?? Self.units[self.input]?[unit]
      else { return false }
      let value = number * scale
      switch self.input {
      case .speed: input.speedMetersPerSecond = value
      case .mass: input.bodyMassKilograms = value
      case .enmo: input.enmoMilligravity = value
      case .mad: input.madMilligravity = value
      case .verticalCounts: input.verticalCountsPerMinute = value
      case .vectorMagnitudeCounts: input.vectorMagnitudeCountsPerMinute = value
      case .heartRate: input.heartRateBeatsPerMinute = value
      case .restingHeartRate: input.restingHeartRateBeatsPerMinute = value
      case .maximumHeartRate: input.maximumHeartRateBeatsPerMinute = value
      case .vo2Max: input.vo2MaxMillilitersPerKilogramPerMinute = value
      case .countsVariation: input.countsCoefficientOfVariationPercent = value
      case .age: input.ageYears = value
      case .height: input.heightMeters = value
      default: return false
      }
      return true
    }
  }

  package struct Options: Sendable {
    package var path: String
    package var idColumn: String
    package var measuredColumn: String
    package var measuredUnit: MeasuredUnit
    package var inputs: [InputColumn]
    package var modelIDs: [String]
    package var byColumn: String?
    package var format: OutputFormat?

    package init(
      path: String, idColumn: String, measuredColumn: String, measuredUnit: MeasuredUnit,
      inputs: [InputColumn],
      modelIDs: [String], byColumn: String? = nil, format: OutputFormat? = nil
    ) {
      self.path = path
      self.idColumn = idColumn
      self.measuredColumn = measuredColumn
      self.measuredUnit = measuredUnit
      self.inputs = inputs
      self.modelIDs = modelIDs
      self.byColumn = byColumn
      self.format = format
    }
  }

  /// One model's agreement with the measurement over a group of rows (all
  /// of them, or those with one value of the `--by` column).
  package struct Group: Sendable {
    package var model: String
    /// `all`, or the `--by` value.
    package var by: String
    package var agreement: PairedAgreement
  }

  package struct Evaluation: Sendable {
    package var groups: [Group]
    package var rows: Int
    /// Rows without a measured value, per model rows without a prediction
    /// (a missing input), and the models' diagnostics.
    package var diagnostics: [Diagnostic]
  }

  package static func evaluate(_ options: Options) throws -> Evaluation {
    let models = try options.modelIDs.map(ModelRegistry.model(id:))
    let data = try FileInput.read(options.path, expected: "a CSV table with a header")
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(
        .encoding, SourceLocation(file: options.path), "not UTF-8 text", expected: "a UTF-8 CSV file")
    }
    let rows = try CSVTokenizer.rows(text, source: options.path).filter {
      !($0.fields.count == 1 && $0.fields[0].isEmpty)
    }
    guard let header = rows.first else {
      throw InputError(
        .empty, SourceLocation(file: options.path, line: 1), "empty file", expected: "a header")
    }
    let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
    func index(_ name: String) throws -> Int {
      guard let i = names.firstIndex(of: name) else {
        throw InputError(
          .malformed, SourceLocation(file: options.path, line: header.line), "no column \(name)",
          expected: "one of the header's columns: \(names.joined(separator: ", "))")
      }
      return i
    }
    let idIndex = try index(options.idColumn)
    let measuredIndex = try index(options.measuredColumn)
    let byIndex = try options.byColumn.map(index)
    let inputIndices = try options.inputs.map { try index($0.column) }
    var predicted = [[Double]](repeating: [], count: models.count)
    var reference = [[Double]](repeating: [], count: models.count)
    var ids = [[String]](repeating: [], count: models.count)
    var byValues = [[String]](repeating: [], count: models.count)
    var withoutMeasured = 0
    var zeroHeartRates = [Int](repeating: 0, count: options.inputs.count)
    var withoutPrediction = [Int](repeating: 0, count: models.count)
    var firstMissing = [String?](repeating: nil, count: models.count)
    var notes: [String: (count: Int, example: Diagnostic)] = [:]
    var noteOrder: [String] = []
    for row in rows.dropFirst() {
      guard row.fields.count == names.count else {
        throw InputError(
          .malformed, SourceLocation(file: options.path, line: row.line),
          "row has \(row.fields.count) fields",
          expected: "\(names.count) fields like the header")
      }
      let measuredText = row.fields[measuredIndex].trimmingCharacters(in: .whitespaces)
      if PairedColumns.isMissing(measuredText) {
        withoutMeasured += 1
        continue
      }
      guard let measured = Double(measuredText), measured.isFinite else {
        throw InputError(
          .value, SourceLocation(file: options.path, line: row.line, column: measuredIndex + 1),
          "cannot read \(options.measuredColumn) \"\(measuredText)\" as a number",
          expected: "a number in \(options.measuredUnit.rawValue)")
      }
      var input = ModelInput()
      for (k, (column, i)) in zip(options.inputs, inputIndices).enumerated() {
        if column.isZeroHeartRate(row.fields[i]) {
          zeroHeartRates[k] += 1
          continue
        }
        _ = column.read(row.fields[i], into: &input)
      }
      input.gradeFraction = input.gradeFraction ?? 0
      let id = row.fields[idIndex].trimmingCharacters(in: .whitespaces)
      let by = byIndex.map { row.fields[$0].trimmingCharacters(in: .whitespaces) } ?? "all"
      for (m, model) in models.enumerated() {
        do {
          let output = try model.evaluate(input)
          var seen = output.diagnostics.map { ($0.code, $0) }
          if let t = output.treatment {
            // What was costed in place of the equation, per model.
            seen.append(
              (
                "\(options.modelIDs[m]) \(t.code)",
                Diagnostic(
                  code: t.code, severity: .note,
                  message: "\(options.modelIDs[m]) not applied as printed (\(t.code)): \(t.description)")
              ))
          }
          for (key, d) in seen {
            if let known = notes[key] {
              notes[key] = (known.count + 1, known.example)
            } else {
              notes[key] = (1, d)
              noteOrder.append(key)
            }
          }
          guard let value = options.measuredUnit.value(of: output, massKilograms: input.bodyMassKilograms)
          else {
            withoutPrediction[m] += 1
            continue
          }
          predicted[m].append(value)
          reference[m].append(measured)
          ids[m].append(id)
          byValues[m].append(by)
        } catch let error as ModelError {
          withoutPrediction[m] += 1
          firstMissing[m] = firstMissing[m] ?? "line \(row.line): \(error.message())"
        }
      }
    }
    var groups: [Group] = []
    for (m, model) in options.modelIDs.enumerated() {
      groups.append(
        Group(
          model: model, by: "all",
          agreement: PairedAgreement(predicted: predicted[m], reference: reference[m], participants: ids[m])))
      guard options.byColumn != nil else { continue }
      var seen: [String] = []
      for value in byValues[m] where !seen.contains(value) { seen.append(value) }
      seen.sort { (Double($0) ?? .infinity, $0) < (Double($1) ?? .infinity, $1) }
      for value in seen {
        let keep = byValues[m].indices.filter { byValues[m][$0] == value }
        groups.append(
          Group(
            model: model, by: value,
            agreement: PairedAgreement(
              predicted: keep.map { predicted[m][$0] }, reference: keep.map { reference[m][$0] },
              participants: keep.map { ids[m][$0] })))
      }
    }
    var diagnostics: [Diagnostic] = []
    if withoutMeasured > 0 {
      diagnostics.append(
        Diagnostic(
          code: "rows-without-measured", severity: .note,
          message:
            "\(withoutMeasured) row(s) without a measured \(options.measuredColumn) (empty or NA) left out",
          location: options.path))
    }
    for (k, column) in options.inputs.enumerated() where zeroHeartRates[k] > 0 {
      diagnostics.append(
        Diagnostic(
          code: "heart-rate-zero",
          message:
            "\(zeroHeartRates[k]) row(s) with \(column.column) 0 (the strap lost contact): read as missing, not as 0 bpm",
          location: options.path))
    }
    for (m, model) in options.modelIDs.enumerated() where withoutPrediction[m] > 0 {
      diagnostics.append(
        Diagnostic(
          code: "rows-without-prediction",
          message:
            "\(model): \(withoutPrediction[m]) row(s) without a prediction (an input missing or NA)\(firstMissing[m].map { ", as \($0)" } ?? "")",
          location: options.path))
    }
    for code in noteOrder {
      guard let (count, example) = notes[code] else { continue }
      var d = example
      d.message = "\(count) row(s), such as: \(example.message)"
      diagnostics.append(d)
    }
    return Evaluation(groups: groups, rows: rows.count - 1, diagnostics: diagnostics)
  }

  /// The statistics a row shows: the nesting, the form and the limits
  /// with their intervals, the errors and ICC.
  static let shown: Set<String> = AgreementColumn.errorNames.union(AgreementColumn.limitsNames).union([
    "bias_ci_method", "loa_ci_method", "sd_within", "sd_between", "icc_a1", "icc_a1_ci95_lower",
    "icc_a1_ci95_upper", "percent_errors_unknown",
  ])

  package struct Outcome: CommandOutcome {
    package var result: Evaluation
    package var options: Options
    package var inputs: [String] { [options.path] }
    package var parameters: [NamedParameter] {
      [
        NamedParameter(name: "id_column", value: options.idColumn, meaning: "participant of each row"),
        NamedParameter(
          name: "measured", value: "\(options.measuredColumn) in \(options.measuredUnit.rawValue)",
          meaning: "measured reference; comparisons in its unit"),
        NamedParameter(
          name: "inputs",
          value: options.inputs.map { "\($0.input.rawValue)=\($0.column):\($0.unit)" }.joined(separator: " "),
          meaning: "model inputs read from the table"),
        NamedParameter(name: "by", value: options.byColumn ?? "", meaning: "groups reported apart"),
        NamedParameter(
          name: "kcal_per_liter_o2", value: Fixed.shortest(Oxygen.kilocaloriesPerLiter),
          meaning: "between a model's VO2 and its kcal/min"),
      ] + AgreementCommands.agreementParameters(zone: nil)
    }
    package var diagnostics: [Diagnostic] {
      result.diagnostics
        + result.groups.filter { $0.by == "all" }.flatMap {
          AgreementCommands.agreementDiagnostics(
            $0.agreement, location: options.path, named: "\($0.model) against measured")
        }
    }
    var unitSuffix: String {
      switch options.measuredUnit {
      case .millilitersPerKilogramPerMinute: return "ml_kg_min"
      case .millilitersPerMinute: return "ml_min"
      case .kilocaloriesPerMinute: return "kcal_per_min"
      case .watts: return "w"
      }
    }
    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "evaluate measured --models \(options.modelIDs.joined(separator: ","))",
        recordedAt: recordedAt,
        inputs: inputs, parameters: parameters,
        errorSummaries: result.groups.flatMap { g in
          AgreementCommands.errorSummaries(
            g.agreement, model: g.model,
            reference: g.by == "all" ? "measured" : "measured at \(options.byColumn ?? "")=\(g.by)",
            unit: options.measuredUnit.rawValue)
        })
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }
    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      let rows = result.groups.map { g in
        var row = ResultRecord(["model": .string(g.model), (options.byColumn ?? "group"): .string(g.by)])
        for field in AgreementColumn.record(g.agreement, unitSuffix: unitSuffix, only: shown).fields {
          row[field.key] = field.value
        }
        return row
      }
      out.emit(ResultTable(name: "measured-evaluation", rows: rows), format: options.format)
      if let chart = MeasuredEvaluationCommand.biasChart(result, options: options, unitSuffix: unitSuffix) {
        out.draw(chart, folder: nil, format: options.format)
      }
      return out
    }
  }

  /// Each model's bias (model minus measured) at each numeric value of
  /// the `--by` column, with its 95 % interval as an error bar and a line
  /// at zero; the models sit side by side around each value (a twentieth
  /// of the closest spacing apart) so their bars do not cover each other.
  /// Values without an interval (too few pairs) and the pooled rows are in
  /// the table only. Nil without `--by` or with fewer than two values.
  static func biasChart(_ result: Evaluation, options: Options, unitSuffix: String) -> GnuplotChart? {
    guard let by = options.byColumn else { return nil }
    let keys = Set(result.groups.compactMap { Double($0.by) }).sorted()
    guard keys.count >= 2 else { return nil }
    let spacing = zip(keys, keys.dropFirst()).map { $1 - $0 }.min() ?? 1
    let models = options.modelIDs
    var series: [GnuplotChart.Series] = []
    for (k, model) in models.enumerated() {
      let shift = (Double(k) - Double(models.count - 1) / 2) * spacing / 20
      let drawn = result.groups.compactMap { g -> (GnuplotChart.Point, ClosedRange<Double>)? in
        guard g.model == model, let key = Double(g.by), let c = g.agreement.limits?.constant,
          c.biasInterval.lower.isFinite, c.biasInterval.upper.isFinite
        else { return nil }
        return (
          GnuplotChart.Point(key + shift, g.agreement.statistics.bias),
          min(c.biasInterval.lower, c.biasInterval.upper)...max(c.biasInterval.lower, c.biasInterval.upper)
        )
      }
      series.append(
        GnuplotChart.Series(
          title: model, style: .linesPoints, points: drawn.map(\.0), intervals: drawn.map(\.1)))
    }
    let unit = options.measuredUnit.rawValue
    var chart = GnuplotChart(
      name: "bias-by-\(by)-\(unitSuffix)",
      title:
        "Bias against measured \(options.measuredColumn) by \(by), with 95 % intervals (models side by side at each value)",
      xLabel: EvaluateCommand.axisLabel(by), yLabel: "model minus measured (\(unit))", series: series)
    chart.horizontalLines = [.init(y: 0, title: "zero bias")]
    return chart
  }

  package static func run(_ options: Options, databasePath: String?, driver: Driver) throws {
    try driver.finish(
      Outcome(result: try evaluate(options), options: options), database: databasePath)
  }
}
