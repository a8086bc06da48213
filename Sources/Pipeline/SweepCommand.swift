import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Reporting
import Store

/// `sweep`: how a model's error against a reference table changes with an
/// input the table does not state (speed, grade, body mass), and the value
/// at which the model matches the table on average (bias = 0), with whether
/// that value lies inside the model's valid range.
package enum SweepCommand {
  /// The input a sweep varies.
  package enum Input: String, Sendable, Hashable, CaseIterable {
    case speed, grade, mass

    /// The unit the sweep is shown in: mph, % or kg.
    package var unit: String {
      switch self {
      case .speed: "mph"
      case .grade: "%"
      case .mass: "kg"
      }
    }

    /// A value in the model input's unit (m/s, fraction, kg) in the
    /// sweep's unit.
    package func display(_ value: Double) -> Double {
      switch self {
      case .speed: Units.milesPerHour(fromMetersPerSecond: value)
      case .grade: value * 100
      case .mass: value
      }
    }

    /// The assumption of a value in the sweep's unit.
    func assumption(displayed value: Double) -> Assumption {
      let text = "\(Fixed.shortest(value))\(unit)"
      switch self {
      case .speed:
        return Assumption(name: rawValue, value: Units.metersPerSecond(fromMilesPerHour: value), text: text)
      case .grade: return Assumption(name: rawValue, value: value / 100, text: text)
      case .mass: return Assumption(name: rawValue, value: value, text: text)
      }
    }

    /// A value in the model input's unit as text in the sweep's unit, to
    /// nine decimals (`0.1mph`, not the binary neighbour of 0.1).
    package func text(_ value: Double) -> String { text(displayed: display(value)) }

    /// A value in the sweep's unit as text, to nine decimals.
    package func text(displayed value: Double) -> String {
      "\(Fixed.shortest((value * 1e9).rounded() / 1e9))\(unit)"
    }
  }

  package struct Options: Sendable {
    package var modelIDs: [String]
    package var reference: String
    package var parameter: Input
    /// First and last value and step, in the model input's unit (m/s,
    /// fraction, kg).
    package var from: Double
    package var to: Double
    package var step: Double
    package var assumptions: [Assumption]
    package var chartsDirectory: String?
    package var format: OutputFormat?

    package init(
      modelIDs: [String], reference: String, parameter: Input, from: Double, to: Double, step: Double,
      assumptions: [Assumption] = [], chartsDirectory: String? = nil, format: OutputFormat? = nil
    ) {
      self.modelIDs = modelIDs
      self.reference = reference
      self.parameter = parameter
      self.from = from
      self.to = to
      self.step = step
      self.assumptions = assumptions
      self.chartsDirectory = chartsDirectory
      self.format = format
    }
  }

  /// A swept value and the statistics of one model there.
  package struct Point: Sendable, Hashable {
    package var modelID: String
    /// The swept value in its display unit (mph, %, kg).
    package var value: Double
    package var statistics: ErrorStatistics
    /// Mean of (predicted - reference) / reference, %.
    package var meanRelativeDifferencePercent: Double
  }

  /// Where a model's bias crosses zero.
  package struct BreakEven: Sendable, Hashable {
    package var modelID: String
    /// nil when the bias keeps one sign over the whole sweep.
    package var value: Double?
    package var insideValidRange: Bool?
    package var diagnostics: [Diagnostic]
  }

  package static func points(table: ReferenceTable, options: Options) throws -> (
    points: [Point], breakEvens: [BreakEven]
  ) {
    let parameter = options.parameter
    let from = parameter.display(options.from)
    let to = parameter.display(options.to)
    let step = parameter.display(options.step)
    guard step > 0, to >= from else {
      throw UsageError(.outOfRange, "a sweep needs its start at most its end and a positive step")
    }
    let count = Int(((to - from) / step + 1e-9).rounded(.down)) + 1
    guard count <= 10_000 else {
      throw UsageError(.outOfRange, "a sweep of \(count) values is too long; use a larger step (limit 10000)")
    }
    let fixedNames = options.assumptions.map(\.name)
    guard !fixedNames.contains(parameter.rawValue) else {
      throw UsageError(.conflict, "\(parameter.rawValue) is swept; it cannot also be assumed")
    }
    var points: [Point] = []
    for k in 0..<count {
      let value = from + Double(k) * step
      let comparisons = try EvaluateCommand.comparisons(
        table: table, modelIDs: options.modelIDs,
        assumptions: options.assumptions + [parameter.assumption(displayed: value)])
      for c in comparisons {
        let relatives = c.cells.compactMap(\.relativeDifference)
        points.append(
          Point(
            modelID: c.modelID, value: value, statistics: c.accumulator.statistics(),
            meanRelativeDifferencePercent: relatives.isEmpty
              ? .nan : 100 * relatives.reduce(0, +) / Double(relatives.count)))
      }
    }
    var breakEvens: [BreakEven] = []
    for id in options.modelIDs {
      let series = points.filter { $0.modelID == id }
      var crossing: Double?
      for (a, b) in zip(series, series.dropFirst()) {
        let ba = a.statistics.bias
        let bb = b.statistics.bias
        if ba == 0 {
          crossing = a.value
          break
        }
        if (ba < 0) != (bb < 0) || bb == 0 {
          crossing = a.value + (b.value - a.value) * (0 - ba) / (bb - ba)
          break
        }
      }
      var inside: Bool?
      var diagnostics: [Diagnostic] = []
      if let crossing {
        diagnostics = try rangeDiagnostics(model: id, value: crossing, options: options)
        inside = try ModelRegistry.model(id: id).info.statesValidRange ? diagnostics.isEmpty : nil
      }
      breakEvens.append(
        BreakEven(modelID: id, value: crossing, insideValidRange: inside, diagnostics: diagnostics))
    }
    return (points, breakEvens)
  }

  /// The model's own range diagnostics at one swept value (the fixed
  /// assumptions held, 70 kg when no mass is given).
  static func rangeDiagnostics(model id: String, value: Double, options: Options) throws -> [Diagnostic] {
    var input = ModelInput()
    for a in options.assumptions + [options.parameter.assumption(displayed: value)] { a.apply(to: &input) }
    if input.bodyMassKilograms == nil { input.bodyMassKilograms = 70 }
    return try ModelRegistry.model(id: id).evaluate(input).diagnostics.filter {
      $0.code.contains("valid-range") || $0.code.contains("between")
    }
  }

  /// Runs of swept values where the model reports no range diagnostic, as
  /// shaded ranges of the chart (none for a model that states no range).
  static func validRanges(model id: String, values: [Double], options: Options) throws
    -> [GnuplotChart.ShadedRange]
  {
    guard try ModelRegistry.model(id: id).info.statesValidRange else { return [] }
    var ranges: [GnuplotChart.ShadedRange] = []
    var start: Double?
    var last: Double?
    for value in values {
      if try rangeDiagnostics(model: id, value: value, options: options).isEmpty {
        if start == nil { start = value }
        last = value
      } else if let s = start, let l = last {
        ranges.append(.init(from: s, to: l, title: "\(id) valid range"))
        start = nil
      }
    }
    if let s = start, let l = last { ranges.append(.init(from: s, to: l, title: "\(id) valid range")) }
    return ranges
  }

  /// A sweep: every model's statistics at each swept value, where each
  /// breaks even, and the swept values inside each model's valid range.
  package struct Sweep: Sendable {
    package var table: ReferenceTable
    package var points: [Point]
    package var breakEvens: [BreakEven]
    package var validRanges: [GnuplotChart.ShadedRange]
    package var inputs: [String]
    package var parameters: [NamedParameter]
  }

  package static func sweep(_ options: Options) throws -> Sweep {
    let path = try ReferenceLocator.path(for: options.reference)
    let table = try ReferenceTableReader.read(path: path)
    let (points, breakEvens) = try points(table: table, options: options)
    let values = Array(Set(points.map(\.value))).sorted()
    var ranges: [GnuplotChart.ShadedRange] = []
    for id in options.modelIDs { ranges += try validRanges(model: id, values: values, options: options) }
    return Sweep(
      table: table, points: points, breakEvens: breakEvens, validRanges: ranges, inputs: [path],
      parameters: [
        NamedParameter(name: "sweep_parameter", value: options.parameter.rawValue, meaning: "input varied"),
        NamedParameter(
          name: "sweep_range",
          value:
            "\(options.parameter.text(options.from))..\(options.parameter.text(options.to)) by \(options.parameter.text(options.step))",
          meaning: "values swept"),
      ]
        + options.assumptions.map {
          NamedParameter(name: "assume_\($0.name)", value: $0.text, meaning: "held fixed")
        })
  }

  /// What `sweep` computed, with the options it was run with.
  struct SweepOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic] { [] }
    var result: Sweep
    var options: Options

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      RunRecord(
        command:
          "sweep --models \(options.modelIDs.joined(separator: ",")) --reference \(result.table.name) --vary \(options.parameter.rawValue)",
        recordedAt: recordedAt, inputs: inputs, parameters: result.parameters,
        errorSummaries: storedStatistics(result, options: options))
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      try SweepCommand.render(result, options: options, into: &out)
      return out
    }
  }

  /// `sweep`: compute, then record and print through the driver.
  package static func run(_ options: Options, driver: Driver, databasePath: String? = nil) throws {
    let result = try sweep(options)
    try driver.finish(
      SweepOutcome(inputs: result.inputs, parameters: result.parameters, result: result, options: options),
      database: databasePath)
  }

  /// Each model's statistics at each swept value as stored error
  /// summaries, the value in the reference's name (`stanford-walking at
  /// speed=2.1mph`); the break-even values as `break_even` in the swept
  /// unit.
  static func storedStatistics(_ result: Sweep, options: Options) -> [ErrorSummaryRow] {
    let unit = result.table.valueVariable.replacingOccurrences(of: "energy_", with: "")
      .replacingOccurrences(of: "_per_", with: "/")
    let parameter = options.parameter
    return result.points.flatMap { p in
      AgreementColumn.summaries(
        columns(p), model: p.modelID,
        reference: "\(result.table.name) at \(parameter.rawValue)=\(parameter.text(displayed: p.value))",
        unit: unit)
    }
      + result.breakEvens.map {
        ErrorSummaryRow(
          model: $0.modelID, reference: result.table.name, statistic: "break_even_\(parameter.rawValue)",
          value: $0.value, unit: parameter.unit)
      }
  }

  /// The statistics of a model at a swept value, declared once for the
  /// printed table and the stored error summaries: the error statistics'
  /// declaration (`AgreementColumn.columns(of:)`) with the sweep's mean
  /// relative difference (the chart's curve) after the bias.
  static func columns(_ p: Point) -> [AgreementColumn] {
    var columns = AgreementColumn.columns(
      of: PairedAgreement(predicted: [], reference: [], statistics: p.statistics))
    let relative = AgreementColumn(
      "mean_relative_difference", .percent, p.meanRelativeDifferencePercent, digits: 2)
    columns.insert(relative, at: (columns.firstIndex { $0.name == "bias" } ?? columns.count - 1) + 1)
    return columns
  }

  /// Whether the sweep's table shows a statistic: the bias, the mean
  /// relative difference, the MAPE and the share within the tolerance.
  static func isShown(_ column: AgreementColumn) -> Bool {
    ["bias", "mean_relative_difference", "mape"].contains(column.name)
      || (column.name.hasPrefix("within_") && column.name.hasSuffix("pct_share"))
  }

  /// The break-even and sweep tables (one document in JSON), then the chart.
  package static func render(_ result: Sweep, options: Options, into out: inout Rendering) throws {
    let table = result.table
    let points = result.points
    let breakEvens = result.breakEvens
    let unit = options.parameter.unit
    let valueUnit = table.valueVariable.replacingOccurrences(of: "energy_", with: "")
    let key = "\(options.parameter.rawValue)_\(unit == "%" ? "pct" : unit)"
    let order = Dictionary(uniqueKeysWithValues: options.modelIDs.enumerated().map { ($1, $0) })
    let sorted = points.sorted { (order[$0.modelID] ?? 0, $0.value) < (order[$1.modelID] ?? 0, $1.value) }
    let rows = sorted.map { p in
      var record = ResultRecord(["model": .string(p.modelID), key: .number(p.value, 2)])
      for column in columns(p) where isShown(column) {
        record[column.key(unitSuffix: valueUnit)] = column.value
      }
      return record
    }
    let breakEvenRows = breakEvens.map { b in
      ResultRecord([
        "model": .string(b.modelID), "break_even_\(key)": .number(b.value, 2),
        "inside_valid_range": b.insideValidRange.map { .bool($0) } ?? .null,
        "note": .string(
          b.value == nil
            ? "bias keeps one sign from \(options.parameter.text(options.from)) to \(options.parameter.text(options.to))"
            : (b.diagnostics.first?.text
              ?? (b.insideValidRange == nil
                ? "the model states no valid range" : "inside the model's stated range"))
        ),
      ])
    }
    let format = options.format ?? out.defaultFormat
    if format == .json {
      out.emit(
        ResultTable(
          name: "sweep",
          rows: [
            ResultRecord([
              "reference": .string(table.name), "parameter": .string(options.parameter.rawValue),
              "points": .array(rows.map { .record($0) }),
              "break_even": .array(breakEvenRows.map { .record($0) }),
            ])
          ], isSingleObject: true), format: format)
    } else {
      out.emit(ResultTable(name: "sweep-break-even", rows: breakEvenRows), format: format)
      out.write("\n")
      out.emit(ResultTable(name: "sweep", rows: rows), format: format)
    }
    let chart = GnuplotChart(
      name: "\(table.name)-sweep-\(options.parameter.rawValue)",
      title: "Mean relative error against \(table.name) by assumed \(options.parameter.rawValue)",
      xLabel: "assumed \(options.parameter.rawValue) (\(unit))",
      yLabel: "mean (predicted - reference) / reference (%)",
      series: options.modelIDs.map { id in
        GnuplotChart.Series(
          title: id, style: .lines,
          points: points.filter { $0.modelID == id }.map { .init($0.value, $0.meanRelativeDifferencePercent) }
        )
      })
    var withBand = chart
    withBand.shadedRanges = result.validRanges
    withBand.horizontalLines = [
      .init(y: 0, title: "no error"), .init(y: 20, title: "+20 %"), .init(y: -20, title: "-20 %"),
    ]
    out.draw(withBand, folder: options.chartsDirectory, format: options.format)
  }
}
