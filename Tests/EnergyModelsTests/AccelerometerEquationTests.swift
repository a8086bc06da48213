import EnergyLabCore
import TestSupport
import Testing

@testable import EnergyModels

/// The accelerometer equations against their own published cut-points (a
/// check of the coefficients that needs no code of theirs): Hildebrand et
/// al. 2014's adult moderate and vigorous ENMO cut-points give 10.5 and 21
/// mL/kg/min (3 and 6 MET) on every adult line, 18 and 36 on every child
/// line; Freedson et al. 1998's moderate cut-point 1952 cpm gives 2.991
/// MET; Sasaki et al. 2011's 2690 VM3 cpm gives 2.990 MET; and hand
/// calculations of the equations (kcal/min = VO2 x kg / 1000 x 5).
struct AccelerometerEquationTests {
  /// (model, moderate cut-point mg, vigorous cut-point mg, VO2 at each):
  /// cut-points from GGIR's vignette `CutPoints.Rmd` and scikit-digital-
  /// health's activity module, both citing Hildebrand et al. 2014.
  @Test(arguments: [
    ("hildebrand-2014-actigraph-hip-adult", 69.1, 258.7, 10.5, 21.0),
    ("hildebrand-2014-geneactiv-hip-adult", 68.7, 266.8, 10.5, 21.0),
    ("hildebrand-2014-actigraph-wrist-adult", 100.6, 428.8, 10.5, 21.0),
    ("hildebrand-2014-geneactiv-wrist-adult", 93.2, 418.3, 10.5, 21.0),
    ("hildebrand-2014-actigraph-hip-child", 142.6, 464.6, 18.0, 36.0),
    ("hildebrand-2014-geneactiv-hip-child", 152.8, 514.3, 18.0, 36.0),
    ("hildebrand-2014-actigraph-wrist-child", 201.4, 707.0, 18.0, 36.0),
    ("hildebrand-2014-geneactiv-wrist-child", 191.6, 695.8, 18.0, 36.0),
  ])
  func hildebrandLinesMeetTheirCutPoints(
    id: String, moderate: Double, vigorous: Double, vo2Moderate: Double, vo2Vigorous: Double
  ) throws {
    let model = try ModelRegistry.model(id: id)
    for (enmo, expected) in [(moderate, vo2Moderate), (vigorous, vo2Vigorous)] {
      var input = ModelInput(bodyMassKilograms: 70)
      input.enmoMilligravity = enmo
      let vo2 = try #require(try model.evaluate(input).vo2MillilitersPerKilogramPerMinute)
      // The cut-points are printed to 0.1 mg: within 0.01 mL/kg/min.
      expectClose(vo2, expected, tolerance: 0.01, "\(id) at \(enmo) mg")
    }
  }

  /// 100 mg on the adult ActiGraph hip line: 6.67 + 5.54 = 12.21 mL/kg/min;
  /// for 80 kg, 12.21 x 80 / 1000 x 5 = 4.884 kcal/min. Under the sedentary
  /// threshold (47.4 mg) a diagnostic says the intercept overestimates rest.
  @Test func hildebrandHandCalculation() throws {
    let model = try ModelRegistry.model(id: "hildebrand-2014-actigraph-hip-adult")
    var input = ModelInput(bodyMassKilograms: 80)
    input.enmoMilligravity = 100
    let out = try model.evaluate(input)
    expectClose(out.vo2MillilitersPerKilogramPerMinute, 12.21, tolerance: 1e-12)
    expectClose(out.kilocaloriesPerMinute, 4.884, tolerance: 1e-12)
    #expect(out.diagnostics.isEmpty)
    input.enmoMilligravity = 20
    #expect(try model.evaluate(input).diagnostics.map(\.code) == ["enmo-sedentary"])
    input.enmoMilligravity = nil
    #expect(throws: ModelError.self) { try model.evaluate(input) }
  }

  /// Ellingson et al. 2017: 0.901 x 100^0.534 = 10.53719 mL/kg/min; at
  /// 5 mg the power law gives 0.901 x 5^0.534 = 2.12802, under rest: costed
  /// at 3.5 with the treatment named.
  @Test func ellingsonPowerLawNeverBelowRest() throws {
    let model = Ellingson2017()
    var input = ModelInput(bodyMassKilograms: 70)
    input.enmoMilligravity = 100
    expectClose(try model.evaluate(input).vo2MillilitersPerKilogramPerMinute, 10.537_19, tolerance: 1e-5)
    input.enmoMilligravity = 5
    let low = try model.evaluate(input)
    expectClose(low.vo2MillilitersPerKilogramPerMinute, 3.5, tolerance: 1e-12)
    #expect(low.treatment?.code == "floored-at-rest")
    expectClose(
      low.treatment?.equationKilocaloriesPerMinute, 2.128_015 * 70 / 1000 * 5, tolerance: 1e-6)
  }

  /// Freedson 1998 at its moderate cut-point 1952 cpm: 1.439008 + 0.000795 x
  /// 1952 = 2.990848 MET; Sasaki 2011 at 2690 VM3 cpm: 0.668876 + 0.000863
  /// x 2690 = 2.990346 MET; Sasaki at 0 cpm is 0.67 MET, under rest: 1 MET.
  @Test func countEquations() throws {
    var input = ModelInput(bodyMassKilograms: 70)
    input.verticalCountsPerMinute = 1952
    expectClose(
      try CountsMET(.freedson1998).evaluate(input).vo2MillilitersPerKilogramPerMinute, 2.990848 * 3.5,
      tolerance: 1e-9)
    input.vectorMagnitudeCountsPerMinute = 2690
    expectClose(
      try CountsMET(.sasaki2011).evaluate(input).vo2MillilitersPerKilogramPerMinute, 2.990346 * 3.5,
      tolerance: 1e-9)
    input.vectorMagnitudeCountsPerMinute = 0
    let rest = try CountsMET(.sasaki2011).evaluate(input)
    expectClose(rest.vo2MillilitersPerKilogramPerMinute, 3.5, tolerance: 1e-12)
    #expect(rest.treatment?.code == "floored-at-rest")
  }

  /// Santos-Lozano 2013, adults: 2.8323 + 0.00054 x 3000 - 0.05912 x 70 +
  /// 1.4410 x 2 (male) = 3.1959 MET; female: 1.7549 MET. Older adults, male,
  /// 3000: 2.5878 + 1.41 - 1.2906 = 2.7072 MET.
  @Test func santosLozanoUsesMassAndSex() throws {
    var input = ModelInput(bodyMassKilograms: 70, sex: .male)
    input.vectorMagnitudeCountsPerMinute = 3000
    let adult = CountsMET(.santosLozanoAdult)
    expectClose(try adult.evaluate(input).vo2MillilitersPerKilogramPerMinute, 3.1959 * 3.5, tolerance: 1e-9)
    input.sex = .female
    expectClose(try adult.evaluate(input).vo2MillilitersPerKilogramPerMinute, 1.7549 * 3.5, tolerance: 1e-9)
    input.sex = .male
    expectClose(
      try CountsMET(.santosLozanoOlder).evaluate(input).vo2MillilitersPerKilogramPerMinute, 2.7072 * 3.5,
      tolerance: 1e-9)
    input.sex = nil
    #expect(throws: ModelError.self) { try adult.evaluate(input) }
  }
}
