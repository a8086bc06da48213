import EnergyLabCore
import EnergyModels
import Estimation
import TestSupport
import Testing

/// A reference table's key columns in SI units, and a model's output read
/// as the table's value column.
struct ReferenceInputsTests {
  /// Conversions by hand: 1 lb = 0.45359237 kg and 1 mi = 1609.344 m
  /// (international yard and pound, 1959); 1 km/h = 1/3.6 m/s.
  @Test func keyColumnsAreSetInSIUnits() throws {
    var input = ModelInput()
    ReferenceInputs.set(try TableVariable(name: "body_mass_lb"), to: 150, in: &input)
    ReferenceInputs.set(try TableVariable(name: "speed_mph"), to: 3, in: &input)
    ReferenceInputs.set(try TableVariable(name: "grade_pct"), to: 2, in: &input)
    ReferenceInputs.set(try TableVariable(name: "duration_min"), to: 30, in: &input)
    expectClose(input.bodyMassKilograms, 150 * 0.45359237, tolerance: 1e-12)
    expectClose(input.speedMetersPerSecond, 3 * 1609.344 / 3600, tolerance: 1e-12)
    expectClose(input.gradeFraction, 0.02, tolerance: 1e-15)
    #expect(input.durationSeconds == 1800)
    ReferenceInputs.set(try TableVariable(name: "speed_kmh"), to: 5, in: &input)
    expectClose(input.speedMetersPerSecond, 5 / 3.6, tolerance: 1e-12)
    let unknown = #expect(throws: ValueError.self) { try TableVariable(name: "speed_knots") }
    #expect(unknown?.value == "speed_knots")
  }

  /// MET from kcal/min by the Compendium's definition, 1 MET = 1 kcal/kg/h:
  /// 5 kcal/min for 60 kg is 5 x 60 / 60 = 5 MET.
  @Test func outputIsReadAsTheValueColumn() throws {
    let output = ModelOutput(vo2MillilitersPerKilogramPerMinute: 17.5, kilocaloriesPerMinute: 5)
    let input = ModelInput(bodyMassKilograms: 60)
    #expect(try ReferenceInputs.predicted("met", output: output, input: input, modelID: "m") == 5)
    #expect(
      try ReferenceInputs.predicted("vo2_ml_kg_min", output: output, input: input, modelID: "m") == 17.5)
    let noTotal = #expect(throws: UsageError.self) {
      try ReferenceInputs.predicted("energy_kcal", output: output, input: input, modelID: "m")
    }
    #expect(noTotal?.kind == .unsupported)
  }
}
