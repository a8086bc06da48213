import EnergyLabCore
import EnergyModels
import Reporting

/// `models list`, `models explain` and `models eval` as library calls.
package enum ModelsCommands {
  /// One row per model: identifier, equation, inputs, valid range, citation.
  package static func listTable() -> ResultTable {
    ResultTable(
      name: "models",
      rows: ModelRegistry.all.map { model in
        let info = model.info
        return ResultRecord([
          "id": .string(info.id), "name": .string(info.name), "equation": .string(info.equation),
          "inputs": .string(info.inputs.joined(separator: ", ")), "valid_range": .string(info.validRange),
          "citation": .string(info.citation),
        ])
      })
  }

  package static func list(format: OutputFormat?, driver: Driver) throws {
    try driver.print(Rendering(blocks: [.table(listTable(), format: format)]))
  }

  package static func explain(id: String, format: OutputFormat? = nil, driver: Driver) throws {
    var out = driver.rendering()
    render(try ModelRegistry.model(id: id).info, format: format, into: &out)
    try driver.print(out)
  }

  /// Prints a model's description: a table in a named format, else prose.
  package static func render(_ info: ModelInfo, format: OutputFormat?, into out: inout Rendering) {
    if let format {
      out.emit(
        ResultTable(
          name: "model",
          rows: [
            ResultRecord([
              "id": .string(info.id), "name": .string(info.name), "equation": .string(info.equation),
              "inputs": .array(info.inputs.map { .string($0) }), "valid_range": .string(info.validRange),
              "citation": .string(info.citation), "notes": .string(info.notes),
            ])
          ], isSingleObject: true), format: format)
      return
    }
    var text = "\(info.id): \(info.name)\n\n  \(info.equation)\n\n"
    text += "Inputs:      \(info.inputs.joined(separator: "; "))\n"
    text += "Valid range: \(info.validRange)\n"
    text += "Citation:    \(info.citation)\n"
    if !info.notes.isEmpty { text += "Notes:       \(info.notes)\n" }
    out.write(text)
  }

  /// A published value to print next to EnergyLab's, as `kcal_per_min=4.55`.
  package struct PublishedValue: Sendable, Hashable {
    package var key: String
    package var value: Double

    package init(parsing text: String) throws {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let value = Double(parts[1]) else {
        throw ValueError(
          .unreadable, "a published value", value: text, expected: "KEY=NUMBER, as kcal_per_min=4.55")
      }
      guard ["vo2_ml_kg_min", "vo2_ml_min", "kcal_per_min", "energy_kcal"].contains(parts[0]) else {
        throw ValueError.unknown(
          "published key", parts[0], among: ["vo2_ml_kg_min", "vo2_ml_min", "kcal_per_min", "energy_kcal"])
      }
      key = parts[0]
      self.value = value
    }
  }

  /// A model evaluated on one input, with the published values it is set
  /// beside.
  package struct Evaluation: Sendable {
    package var model: ModelInfo
    package var output: ModelOutput
    /// Absolute oxygen uptake, mL/min (VO2 per kg x body mass).
    package var absoluteVO2MillilitersPerMinute: Double?
    /// Whether the input names a duration or distance (so a total is due).
    package var hasExtent: Bool
    package var published: [PublishedComparison]

    /// EnergyLab's value of a published quantity.
    package func value(of key: String) -> Double? {
      switch key {
      case "vo2_ml_kg_min": return output.vo2MillilitersPerKilogramPerMinute
      case "vo2_ml_min": return absoluteVO2MillilitersPerMinute
      case "kcal_per_min": return output.kilocaloriesPerMinute
      case "energy_kcal": return output.energyKilocalories
      default: return nil
      }
    }
  }

  /// A published value beside EnergyLab's.
  package struct PublishedComparison: Sendable, Hashable {
    package var key: String
    package var published: Double
    package var energyLab: Double?
    package var difference: Double? { energyLab.map { $0 - published } }
    package var relativeDifferencePercent: Double? { energyLab.map { 100 * ($0 - published) / published } }
  }

  /// Evaluates model `id` on `input`.
  package static func evaluate(id: String, input: ModelInput, published: [PublishedValue] = []) throws
    -> Evaluation
  {
    let model = try ModelRegistry.model(id: id)
    var output = try model.evaluate(input)
    if let t = output.treatment {
      output.diagnostics.append(
        Diagnostic(
          code: t.code, severity: .note,
          message:
            "\(t.description); the equation as published gives \(Fixed.format(t.equationKilocaloriesPerMinute, digits: 3)) kcal/min"
        ))
    }
    var absoluteVO2: Double?
    if let vo2 = output.vo2MillilitersPerKilogramPerMinute, let mass = input.bodyMassKilograms {
      absoluteVO2 = vo2 * mass
    }
    var evaluation = Evaluation(
      model: model.info, output: output, absoluteVO2MillilitersPerMinute: absoluteVO2,
      hasExtent: input.effectiveDurationSeconds != nil || input.distanceMeters != nil, published: [])
    evaluation.published = published.map {
      PublishedComparison(key: $0.key, published: $0.value, energyLab: evaluation.value(of: $0.key))
    }
    return evaluation
  }

  /// Prints an evaluation: its row, then the published comparison (folded
  /// into the row in JSON).
  package static func render(
    _ evaluation: Evaluation, publishedSource: String? = nil, format: OutputFormat?, into out: inout Rendering
  ) {
    let output = evaluation.output
    var record = ResultRecord([
      "model": .string(evaluation.model.id),
      "vo2_ml_kg_min": .number(output.vo2MillilitersPerKilogramPerMinute, 2),
      "vo2_ml_min": .number(evaluation.absoluteVO2MillilitersPerMinute, 2),
      "kcal_per_min": .number(output.kilocaloriesPerMinute, 3),
    ])
    if output.energyKilocalories != nil || evaluation.hasExtent {
      record["energy_kcal"] = .number(output.energyKilocalories, 2)
    }
    if let t = output.treatment {
      record["treatment"] = .string(t.code)
      record["equation_kcal_per_min"] = .number(t.equationKilocaloriesPerMinute, 3)
    }
    record["diagnostics"] = .array(output.diagnostics.map { .string($0.description) })
    guard !evaluation.published.isEmpty else {
      out.emit(ResultTable(name: "model-eval", rows: [record], isSingleObject: true), format: format)
      return
    }
    let rows = evaluation.published.map { item -> ResultRecord in
      ResultRecord([
        "quantity": .string(item.key), "published": .number(item.published, 2),
        "energylab": .number(item.energyLab, 4), "difference": .number(item.difference, 4),
        "relative_difference_pct": .number(item.relativeDifferencePercent, 2),
        "source": .string(publishedSource ?? ""),
      ])
    }
    if (format ?? out.defaultFormat) == .json {
      record["published"] = .array(rows.map { .record($0) })
      out.emit(ResultTable(name: "model-eval", rows: [record], isSingleObject: true), format: format)
    } else {
      out.emit(ResultTable(name: "model-eval", rows: [record], isSingleObject: true), format: format)
      out.write("\n")
      out.emit(ResultTable(name: "model-eval-published", rows: rows), format: format)
    }
  }

  /// A model evaluated on given inputs, with the files the inputs came
  /// from (a subjects file, the MET table).
  package struct EvalOutcome: CommandOutcome {
    package var evaluation: Evaluation
    package var sources: OptionSources
    package var publishedSource: String?
    package var format: OutputFormat?
    package var inputs: [String] { sources.files }
    package var parameters: [NamedParameter] { sources.parameters }
    package var diagnostics: [Diagnostic] { evaluation.output.diagnostics }
    package var diagnosticsListedInOutput: Bool { true }
    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      ModelsCommands.render(evaluation, publishedSource: publishedSource, format: format, into: &out)
      return out
    }
  }

  /// `models eval`: evaluate, then record and print through the driver.
  package static func eval(
    id: String, input: ModelInput, published: [PublishedValue] = [], publishedSource: String? = nil,
    sources: OptionSources = OptionSources(), format: OutputFormat?, driver: Driver
  ) throws {
    try driver.finish(
      EvalOutcome(
        evaluation: try evaluate(id: id, input: input, published: published), sources: sources,
        publishedSource: publishedSource, format: format), database: nil)
  }
}
