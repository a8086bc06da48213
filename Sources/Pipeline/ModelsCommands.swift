import EnergyLabCore
import EnergyModels
import Reporting

/// `models list`, `models explain` and `models eval` as library calls.
public enum ModelsCommands {
  /// One row per model: identifier, equation, inputs, valid range, citation.
  public static func listTable() -> ResultTable {
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

  public static func list(format: OutputFormat?, context: CommandContext) {
    context.emit(listTable(), format: format)
  }

  public static func explain(id: String, format: OutputFormat? = nil, context: CommandContext) throws {
    let info = try ModelRegistry.model(id: id).info
    if let format {
      context.emit(
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
    context.write(text)
  }

  /// A published value to print next to EnergyLab's, as `kcal_per_min=4.55`.
  public struct PublishedValue: Sendable, Hashable {
    public var key: String
    public var value: Double

    public init(parsing text: String) throws {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let value = Double(parts[1]) else {
        throw UsageError("cannot read published value \"\(text)\"; expected KEY=NUMBER, as kcal_per_min=4.55")
      }
      guard ["vo2_ml_kg_min", "vo2_ml_min", "kcal_per_min", "energy_kcal"].contains(parts[0]) else {
        throw UsageError(
          "unknown published key \"\(parts[0])\"; expected vo2_ml_kg_min, vo2_ml_min, kcal_per_min or energy_kcal"
        )
      }
      key = parts[0]
      self.value = value
    }
  }

  /// Evaluates one model on the given inputs. With published values, a
  /// second table sets each beside EnergyLab's value.
  public static func eval(
    id: String, input: ModelInput, published: [PublishedValue] = [], publishedSource: String? = nil,
    format: OutputFormat?, context: CommandContext
  ) throws {
    let model = try ModelRegistry.model(id: id)
    let output = try model.evaluate(input)
    var absoluteVO2: Double?
    if let vo2 = output.vo2MillilitersPerKilogramPerMinute, let mass = input.bodyMassKilograms {
      absoluteVO2 = vo2 * mass
    }
    var record = ResultRecord([
      "model": .string(model.info.id),
      "vo2_ml_kg_min": .number(output.vo2MillilitersPerKilogramPerMinute, 2),
      "vo2_ml_min": .number(absoluteVO2, 2),
      "kcal_per_min": .number(output.kilocaloriesPerMinute, 3),
    ])
    if output.energyKilocalories != nil || input.effectiveDurationSeconds != nil
      || input.distanceMeters != nil
    {
      record["energy_kcal"] = .number(output.energyKilocalories, 2)
    }
    record["diagnostics"] = .array(output.diagnostics.map { .string($0.description) })
    context.provenance.diagnostics += output.diagnostics
    guard !published.isEmpty else {
      context.emit(ResultTable(name: "model-eval", rows: [record], isSingleObject: true), format: format)
      return
    }
    let computed: [String: Double?] = [
      "vo2_ml_kg_min": output.vo2MillilitersPerKilogramPerMinute, "vo2_ml_min": absoluteVO2,
      "kcal_per_min": output.kilocaloriesPerMinute, "energy_kcal": output.energyKilocalories,
    ]
    let rows = published.map { item -> ResultRecord in
      let ours = computed[item.key] ?? nil
      return ResultRecord([
        "quantity": .string(item.key), "published": .number(item.value, 2), "energylab": .number(ours, 4),
        "difference": .number(ours.map { $0 - item.value }, 4),
        "relative_difference_pct": .number(ours.map { 100 * ($0 - item.value) / item.value }, 2),
        "source": .string(publishedSource ?? ""),
      ])
    }
    if (format ?? context.defaultFormat) == .json {
      record["published"] = .array(rows.map { .record($0) })
      context.emit(ResultTable(name: "model-eval", rows: [record], isSingleObject: true), format: format)
    } else {
      context.emit(ResultTable(name: "model-eval", rows: [record], isSingleObject: true), format: format)
      context.write("\n")
      context.emit(ResultTable(name: "model-eval-published", rows: rows), format: format)
    }
  }
}
