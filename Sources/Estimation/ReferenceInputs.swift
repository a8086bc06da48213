import EnergyLabCore
import EnergyModels

/// What a model needs and gives when it is compared with a reference table:
/// a table's key columns set into the model's input, and the model's output
/// read as the table's value column.
package enum ReferenceInputs {
  /// Sets a key column's value (in the column's unit) into the input.
  package static func set(_ variable: TableVariable, to value: Double, in input: inout ModelInput) {
    let si = variable.si(value)
    switch variable.quantity {
    case .bodyMass: input.bodyMassKilograms = si
    case .duration: input.durationSeconds = si
    case .speed: input.speedMetersPerSecond = si
    case .grade: input.gradeFraction = si
    }
  }

  /// The value columns a model can be compared with.
  package static let valueNames = ["energy_kcal", "energy_kcal_per_min", "met", "vo2_ml_kg_min"]

  /// The model's output as the table's value column `name`.
  package static func predicted(_ name: String, output: ModelOutput, input: ModelInput, modelID: String)
    throws
    -> Double
  {
    switch name {
    case "energy_kcal":
      guard let value = output.energyKilocalories else {
        throw UsageError(
          .unsupported, "model \(modelID) gives no total energy here; the table needs a duration or distance")
      }
      return value
    case "energy_kcal_per_min":
      guard let value = output.kilocaloriesPerMinute else {
        throw UsageError(.unsupported, "model \(modelID) gives no kcal/min here")
      }
      return value
    case "met":
      // The Compendium's own definition: 1 MET = 1 kcal/kg/h.
      guard let value = output.kilocaloriesPerMinute, let mass = input.bodyMassKilograms, mass > 0 else {
        throw UsageError(.unsupported, "model \(modelID) gives no kcal/min here")
      }
      return value * 60 / mass
    case "vo2_ml_kg_min":
      guard let value = output.vo2MillilitersPerKilogramPerMinute else {
        throw UsageError(.unsupported, "model \(modelID) defines no VO2")
      }
      return value
    default:
      throw ValueError.unknown("table value variable", name, among: valueNames)
    }
  }
}
