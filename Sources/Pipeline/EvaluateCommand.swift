import EnergyLabCore
import EnergyModels
import Estimation
import Evaluation
import Foundation
import Ingest
import Reporting
import Store

/// An input a reference table does not state, given explicitly as
/// `speed=3mph` or `grade=0`.
package struct Assumption: Sendable, Hashable {
  package var name: String
  /// The value as given (`3mph`), as reports and the store show it.
  package var text: String
  /// The value in the model input's unit (m/s, fraction, kg, bpm, years,
  /// mL/kg/min, MET), read once; nil for `sex`.
  package var value: Double?
  package var sex: Sex?

  package static let names = [
    "speed", "grade", "mass", "heart-rate", "age", "sex", "vo2max", "load", "terrain", "met",
  ]

  package init(parsing text: String) throws {
    let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
    guard parts.count == 2, !parts[1].isEmpty else {
      throw ValueError(.unreadable, "an assumption", value: text, expected: "NAME=VALUE, as speed=3mph")
    }
    guard Self.names.contains(parts[0]) else {
      throw ValueError.unknown("assumption", parts[0], among: Self.names)
    }
    name = parts[0]
    self.text = parts[1]
    let text = parts[1]
    func number() throws -> Double {
      guard let value = Double(text), value.isFinite else {
        throw ValueError(.unreadable, "the \(name)", value: text, expected: "a number")
      }
      return value
    }
    switch name {
    case "speed": value = try QuantityParser.speedMetersPerSecond(text)
    case "grade": value = try QuantityParser.gradeFraction(text)
    case "mass": value = try QuantityParser.massKilograms(text)
    case "heart-rate": value = try QuantityParser.heartRateBeatsPerMinute(text)
    case "load": value = try QuantityParser.massKilograms(text, positive: false)
    case "sex":
      guard let sex = Sex(rawValue: text) else {
        throw ValueError(.unreadable, "a sex", value: text, expected: "male or female")
      }
      self.sex = sex
    default: value = try number()
    }
  }

  /// An assumption of a value already in the model input's unit; `text`
  /// is how it is shown.
  package init(name: String, value: Double, text: String) {
    self.name = name
    self.value = value
    self.text = text
  }

  func apply(to input: inout ModelInput) {
    switch name {
    case "speed": input.speedMetersPerSecond = value
    case "grade": input.gradeFraction = value
    case "mass": input.bodyMassKilograms = value
    case "met": input.metabolicEquivalent = value
    case "heart-rate": input.heartRateBeatsPerMinute = value
    case "age": input.ageYears = value
    case "vo2max": input.vo2MaxMillilitersPerKilogramPerMinute = value
    case "load": input.loadKilograms = value
    case "terrain": input.terrainFactor = value
    case "sex": input.sex = sex
    default: break
    }
  }
}

/// Finds reference tables by name in the shipped `Datasets/reference/` or
/// by path.
package enum ReferenceLocator {
  package static func path(for nameOrPath: String) throws -> String {
    try ShippedData.named(nameOrPath, in: "Datasets/reference", what: "reference table")
  }
}

/// `evaluate --models A,B --reference NAME --assume ...`: every cell of a
/// reference table predicted by each model, with error statistics, charts
/// and a stored run.
package enum EvaluateCommand {
  package struct Options: Sendable {
    package var modelIDs: [String]
    package var reference: String
    package var assumptions: [Assumption]
    package var printCells: Bool
    package var chartsDirectory: String?
    package var databasePath: String?
    package var format: OutputFormat?

    package init(
      modelIDs: [String], reference: String, assumptions: [Assumption], printCells: Bool = false,
      chartsDirectory: String? = nil, databasePath: String? = nil, format: OutputFormat? = nil
    ) {
      self.modelIDs = modelIDs
      self.reference = reference
      self.assumptions = assumptions
      self.printCells = printCells
      self.chartsDirectory = chartsDirectory
      self.databasePath = databasePath
      self.format = format
    }
  }

  /// Sets a table's row or column key into the model input; a column the
  /// comparison cannot use names the table.
  static func apply(variable: String, key: Double, to input: inout ModelInput, source: String) throws {
    do {
      ReferenceInputs.set(try TableVariable(name: variable), to: key, in: &input)
    } catch is ValueError {
      throw InputError(
        .malformed, SourceLocation(file: source), "unknown table variable \"\(variable)\"",
        expected: TableVariable.names.joined(separator: ", "))
    }
  }

  package static func comparisons(table: ReferenceTable, modelIDs: [String], assumptions: [Assumption]) throws
    -> [ReferenceComparison]
  {
    var base = ModelInput()
    for a in assumptions { a.apply(to: &base) }
    return try modelIDs.map { id in
      let model = try ModelRegistry.model(id: id)
      return try ReferenceComparison(modelID: id, table: table) { rowKey, columnKey in
        var input = base
        for item in table.fixed {
          try apply(variable: item.variable, key: item.value, to: &input, source: table.source)
        }
        try apply(variable: table.rowVariable, key: rowKey, to: &input, source: table.source)
        try apply(variable: table.columnVariable, key: columnKey, to: &input, source: table.source)
        // A missing input is one the table does not state: say which it does.
        func unstated(_ message: String) -> UsageError {
          let stated = ([table.rowVariable, table.columnVariable] + table.fixed.map(\.variable)).joined(
            separator: ", ")
          return UsageError(
            .unsupported,
            "\(message); the table \(table.name) states only \(stated): give the rest as assumed values",
            remedy: Remedy(.assumption, value: "NAME=VALUE"))
        }
        do {
          return try ReferenceInputs.predicted(
            table.valueVariable, output: model.evaluate(input), input: input, modelID: id)
        } catch let error as ModelError {
          throw unstated(error.message())
        } catch let error as UsageError {
          throw unstated(error.description)
        }
      }
    }
  }

  /// A model's error statistics against the table (`AgreementColumn`).
  package static func statisticsRecord(_ comparison: ReferenceComparison, unit: String) -> ResultRecord {
    var row = ResultRecord(["model": .string(comparison.modelID), "reference": .string(comparison.tableName)])
    for field in AgreementColumn.record(
      comparison.agreement, unitSuffix: unit, only: AgreementColumn.errorNames
    )
    .fields {
      row[field.key] = field.value
    }
    return row
  }

  /// A model's limits of agreement with the table in the form the cells
  /// support, with their intervals and tests (`AgreementColumn`).
  package static func limitsRecord(_ comparison: ReferenceComparison, unit: String) -> ResultRecord {
    var row = ResultRecord(["model": .string(comparison.modelID)])
    for field in AgreementColumn.record(
      comparison.agreement, unitSuffix: unit, only: AgreementColumn.limitsNames
    )
    .fields {
      row[field.key] = field.value
    }
    return row
  }

  /// Every cell of a reference table predicted by each model, with the
  /// statistics of each model and the parameters of the evaluation.
  package struct Evaluation: Sendable {
    package var table: ReferenceTable
    /// The table's file.
    package var path: String
    package var comparisons: [ReferenceComparison]
    /// The unit of the table's values (`kcal`, `kcal_per_min`, ...).
    package var unit: String
    /// The assumptions as `name=text`.
    package var assumed: [String]
    package var parameters: [NamedParameter]
  }

  package static func evaluation(_ options: Options) throws -> Evaluation {
    guard !options.modelIDs.isEmpty else {
      throw UsageError(.missing, "evaluate needs models (as acsm-walking,cameron-walking)")
    }
    let path = try ReferenceLocator.path(for: options.reference)
    let table = try ReferenceTableReader.read(path: path)
    let comparisons = try comparisons(
      table: table, modelIDs: options.modelIDs, assumptions: options.assumptions)
    let parameters =
      [
        NamedParameter(name: "reference", value: table.name, meaning: table.provenanceValue("source") ?? ""),
        NamedParameter(
          name: "models", value: options.modelIDs.joined(separator: ","), meaning: "models evaluated"),
        NamedParameter(
          name: "relative_tolerance", value: "0.2", meaning: "share within +-20 % (PEM thesis L515)"),
        NamedParameter(
          name: "loa_multiplier", value: "1.96", meaning: "Bland-Altman limits = bias +- 1.96 SD"),
      ]
      + options.assumptions.map {
        NamedParameter(
          name: "assume_\($0.name)", value: $0.text,
          meaning: "stated by the user; the table does not state it")
      }
    return Evaluation(
      table: table, path: path, comparisons: comparisons,
      unit: table.valueVariable.replacingOccurrences(of: "energy_", with: ""),
      assumed: options.assumptions.map { "\($0.name)=\($0.text)" }, parameters: parameters)
  }

  /// The run an evaluation stores: every prediction, each model's
  /// statistics and the table's cells.
  package static func runRecord(_ evaluation: Evaluation, inputs: [InputFingerprint], recordedAt: String?)
    -> RunRecord
  {
    let table = evaluation.table
    let unit = evaluation.unit
    func caseKey(_ row: Double, _ column: Double) -> String {
      "\(table.rowVariable)=\(Fixed.shortest(row)) \(table.columnVariable)=\(Fixed.shortest(column))"
    }
    var predictions: [PredictionRow] = []
    var summaries: [ErrorSummaryRow] = []
    for c in evaluation.comparisons {
      for cell in c.cells {
        predictions.append(
          PredictionRow(
            model: c.modelID, reference: table.name, caseKey: caseKey(cell.rowKey, cell.columnKey),
            predicted: cell.predicted, referenceValue: cell.reference, unit: unit))
      }
      summaries += AgreementCommands.errorSummaries(
        c.agreement, model: c.modelID, reference: table.name,
        unit: unit.replacingOccurrences(of: "_per_", with: "/"))
    }
    var run = RunRecord(
      command:
        "evaluate --models \(evaluation.comparisons.map(\.modelID).joined(separator: ",")) --reference \(table.name) "
        + evaluation.assumed.map { "--assume \($0)" }.joined(separator: " "),
      recordedAt: recordedAt, inputs: inputs, parameters: evaluation.parameters,
      predictions: predictions,
      errorSummaries: summaries)
    run.referenceValues = table.cells.map {
      ReferenceValueRow(
        reference: table.name, caseKey: caseKey($0.rowKey, $0.columnKey), value: $0.value, unit: unit)
    }
    return run
  }

  /// An evaluation with the options it was made with.
  package struct Outcome: CommandOutcome {
    package var evaluation: Evaluation
    package var options: Options
    package var inputs: [String] { [evaluation.path] }
    package var parameters: [NamedParameter] { evaluation.parameters }
    package var diagnostics: [Diagnostic] { [] }
    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      EvaluateCommand.runRecord(evaluation, inputs: inputs, recordedAt: recordedAt)
    }
    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      try EvaluateCommand.render(evaluation, options: options, into: &out)
      return out
    }
  }

  /// `evaluate`: compute, then store and print through the driver.
  package static func run(_ options: Options, driver: Driver) throws {
    try driver.finish(
      Outcome(evaluation: try evaluation(options), options: options),
      database: options.databasePath)
  }

  /// The assumptions, statistics, proportional bias and (when asked) the
  /// cells, then the charts.
  package static func render(_ evaluation: Evaluation, options: Options, into out: inout Rendering) throws {
    let table = evaluation.table
    let comparisons = evaluation.comparisons
    let unit = evaluation.unit
    let assumed = evaluation.assumed
    let format = options.format
    if (format ?? out.defaultFormat) == .markdown {
      out.write(
        "Assumed (the table does not state them): \(assumed.isEmpty ? "nothing" : assumed.joined(separator: ", ")).\n\n"
      )
    } else if (format ?? out.defaultFormat) == .table {
      out.write("assumed: \(assumed.isEmpty ? "nothing" : assumed.joined(separator: ", "))\n")
    }
    let statistics = ResultTable(
      name: "evaluation-statistics", rows: comparisons.map { statisticsRecord($0, unit: unit) })
    let limits = ResultTable(
      name: "evaluation-limits", rows: comparisons.map { limitsRecord($0, unit: unit) })
    let cells = ResultTable(
      name: "evaluation-cells",
      rows: comparisons.flatMap { comparison in
        comparison.cells.map { cell in
          ResultRecord([
            "model": .string(comparison.modelID),
            table.rowVariable: .number(cell.rowKey, decimals(cell.rowKey)),
            table.columnVariable: .number(cell.columnKey, decimals(cell.columnKey)),
            "predicted_\(unit)": .number(cell.predicted, 2),
            "reference_\(unit)": .number(cell.reference, 2),
            "difference_\(unit)": .number(cell.difference, 2),
            "relative_difference_pct": .number(cell.relativeDifference.map { $0 * 100 }, 1),
          ])
        }
      })
    if (format ?? out.defaultFormat) == .json {
      // One object: the assumptions, the statistics and, when asked, the cells.
      var record = ResultRecord([
        "reference": .string(table.name),
        "assumptions": .record(
          options.assumptions.reduce(into: ResultRecord()) { $0[$1.name] = .string($1.text) }),
        "statistics": .array(statistics.rows.map { .record($0) }),
        "limits": .array(limits.rows.map { .record($0) }),
      ])
      if options.printCells { record["cells"] = .array(cells.rows.map { .record($0) }) }
      out.emit(ResultTable(name: "evaluation", rows: [record], isSingleObject: true), format: format)
    } else {
      out.emit(statistics, format: format)
      out.write(
        "\nLimits of agreement (Bland and Altman 1999): the form follows two tests on the differences against the means, their trend and their spread; absolute limits where neither, ratio limits where neither holds on the logarithms, regression-based limits otherwise (or none); coverage is the share of cells inside the limits in each third of the means.\n\n"
      )
      out.emit(limits, format: format)
      if options.printCells {
        out.write("\n")
        out.emit(cells, format: format)
      }
    }
    try drawCharts(comparisons: comparisons, table: table, unit: unit, options: options, into: &out)
  }

  /// Decimal places a table key needs to print as written (2.5 -> 1).
  static func decimals(_ key: Double) -> Int {
    let text = Fixed.shortest(key)
    guard let dot = text.firstIndex(of: ".") else { return 0 }
    return text.distance(from: dot, to: text.endIndex) - 1
  }

  /// `body_mass_lb` as `body mass (lb)`.
  static func axisLabel(_ variable: String) -> String {
    var words = variable.split(separator: "_").map(String.init)
    guard words.count > 1, let unit = words.popLast() else { return variable }
    return "\(words.joined(separator: " ")) (\(unit))"
  }

  static func drawCharts(
    comparisons: [ReferenceComparison], table: ReferenceTable, unit: String, options: Options,
    into out: inout Rendering
  ) throws {
    guard options.chartsDirectory != nil || out.figuresDirectory != nil else { return }
    let styles: [GnuplotChart.Style] = [.points, .points, .points, .points]
    // A model whose every cell is within 2 % of the scale (about a marker's size) of a model drawn
    // after it lies hidden under that model's markers: its key entry says
    // so, else it would be a key entry a reader cannot find.
    let scale = comparisons.flatMap { $0.cells.map { abs($0.predicted) } }.filter(\.isFinite).max() ?? 0
    func hiddenUnder(_ i: Int) -> String? {
      let cells = comparisons[i].cells
      return comparisons.indices.reversed().first { j in
        j > i && comparisons[j].cells.count == cells.count
          && zip(cells, comparisons[j].cells).allSatisfy {
            $0.reference == $1.reference && abs($0.predicted - $1.predicted) <= 0.02 * scale
          }
      }.map { comparisons[$0].modelID }
    }
    var scatter = GnuplotChart(
      name: "\(table.name)-predicted-vs-reference",
      title: "Models against \(table.name) (every cell)",
      xLabel: "reference energy (\(unit))", yLabel: "predicted energy (\(unit))",
      series: comparisons.enumerated().map { i, c in
        GnuplotChart.Series(
          title: c.modelID
            + (scale > 0
              ? hiddenUnder(i).map { " (under \($0): every cell within 2 % of the scale, about a marker)" }
                ?? "" : ""),
          style: styles[i % styles.count],
          points: c.cells.map { .init($0.reference, $0.predicted) })
      })
    scatter.identityLine = true
    out.draw(scatter, folder: options.chartsDirectory, format: options.format)

    // kcal/min against body mass: the table's rate (from its longest
    // duration, the least rounded) beside each model's.
    if table.rowVariable.hasPrefix("body_mass"), let longest = table.columnKeys.last, longest > 0,
      table.columnVariable == "duration_min"
    {
      var series = [
        GnuplotChart.Series(
          title: "\(table.name) (\(Fixed.shortest(longest)) min column / \(Fixed.shortest(longest)))",
          style: .linesPoints,
          points: table.rowKeys.enumerated().compactMap { row in
            table.values[row.offset].last.map { .init(row.element, $0 / longest) }
          })
      ]
      for c in comparisons {
        series.append(
          GnuplotChart.Series(
            title: c.modelID, style: .linesPoints,
            points: c.cells.filter { $0.columnKey == longest }.map {
              .init($0.rowKey, $0.predicted / longest)
            }))
      }
      var rate = GnuplotChart(
        name: "\(table.name)-rate-by-mass", title: "Energy rate by body mass",
        xLabel: axisLabel(table.rowVariable), yLabel: "energy rate (kcal/min)",
        series: series)
      // From zero: cut at the lowest rate, a 1.6-fold range looks tenfold.
      rate.yFromZero = true
      out.draw(rate, folder: options.chartsDirectory, format: options.format)
    }

    for c in comparisons {
      var heat = GnuplotChart(
        name: "\(table.name)-\(c.modelID)-relative-error",
        title: "Relative error of \(c.modelID) over \(table.name)",
        xLabel: axisLabel(table.columnVariable), yLabel: axisLabel(table.rowVariable), series: [])
      heat.heatMap = GnuplotChart.HeatMap(
        xKeys: table.columnKeys, yKeys: table.rowKeys,
        values: table.rowKeys.indices.map { r in
          table.columnKeys.indices.map { k in
            (c.cells[r * table.columnKeys.count + k].relativeDifference ?? .nan) * 100
          }
        }, valueLabel: "(predicted - reference) / reference (%)")
      if table.rowKeys.count > 1 && table.columnKeys.count > 1 {
        out.draw(heat, folder: options.chartsDirectory, format: options.format)
      }
      // The absolute form, and the percentage form where the difference
      // grows with the mean.
      try AgreementCommands.drawBlandAltman(
        name: "\(table.name)-\(c.modelID)", subject: "\(c.modelID) against \(table.name)", a: "predicted",
        b: "reference", unit: unit, pairs: c.cells.map { ($0.predicted, $0.reference) },
        labels: c.cells.map { cell in
          // The cell's keys with their units (`2.5 mph`): the row's, and
          // the column's where there are several.
          func key(_ value: Double, _ variable: String) -> String {
            let words = variable.split(separator: "_")
            return Fixed.shortest(value) + (words.count > 1 ? " \(words.last!)" : "")
          }
          return key(cell.rowKey, table.rowVariable)
            + (table.columnKeys.count > 1 ? ", \(key(cell.columnKey, table.columnVariable))" : "")
        },
        agreement: c.agreement, folder: options.chartsDirectory,
        format: options.format, into: &out)
    }
  }
}
