import EnergyLabCore
import EnergyModels
import TestSupport
import Testing

struct ACSMWalkingTests {
  /// PEM thesis worked example (L852-874): 2.9 mph "x 26.8 = 77.72 m/min",
  /// 2 % grade, 65 kg: 7.77 + 2.80 + 3.5 = 14.07 mL/kg/min; x 65 = 914.55
  /// mL/min; "= 0.91 L/min"; x 5 = 4.55 kcal/min.
  @Test func pemThesisWorkedExample() throws {
    let input = ModelInput(speedMetersPerSecond: 77.72 / 60, gradeFraction: 0.02, bodyMassKilograms: 65)
    let output = try ACSMWalking().evaluate(input)
    let vo2 = try #require(output.vo2MillilitersPerKilogramPerMinute)
    expectClose(vo2, 14.06992, tolerance: 1e-9)
    #expect((vo2 * 100).rounded() / 100 == 14.07)
    // The thesis multiplies the rounded VO2 by body mass: 14.07 x 65 = 914.55.
    expectClose((vo2 * 100).rounded() / 100 * 65, 914.55, tolerance: 1e-9)
    // Unrounded, EnergyLab gives 4.5727 kcal/min; the thesis's 4.55 comes from
    // rounding 0.91455 L/min to 0.91 before multiplying by 5 kcal/L.
    let perMinute = try #require(output.kilocaloriesPerMinute)
    expectClose(perMinute, 4.572724, tolerance: 1e-6)
    let litersPerMinuteAsPrinted = ((vo2 * 100).rounded() / 100 * 65 / 1000 * 100).rounded() / 100
    #expect(litersPerMinuteAsPrinted == 0.91)
    expectClose(litersPerMinuteAsPrinted * Oxygen.kilocaloriesPerLiter, 4.55, tolerance: 1e-12)
    #expect(output.diagnostics.isEmpty)
  }

  /// PEM thesis evaluation (L1288-1297): 63 kg and 13.65 mL/kg/min give
  /// 4.30 kcal/min (13.65 x 63 / 1000 x 5 = 4.29975).
  @Test func pemThesisEvaluation() {
    let perMinute = Oxygen.kilocaloriesPerMinute(
      vo2MillilitersPerKilogramPerMinute: 13.65, bodyMassKilograms: 63)
    expectClose(perMinute, 4.29975, tolerance: 1e-12)
    #expect((perMinute * 100).rounded() / 100 == 4.30)
  }

  /// Hand calculation: level walking at 3 mph = 80.4672 m/min:
  /// 0.1 x 80.4672 + 3.5 = 11.54672 mL/kg/min.
  @Test func levelWalkingAtThreeMph() throws {
    let output = try ACSMWalking().evaluate(
      ModelInput(
        speedMetersPerSecond: Units.metersPerSecond(fromMilesPerHour: 3), bodyMassKilograms: 70,
        durationSeconds: 600))
    expectClose(output.vo2MillilitersPerKilogramPerMinute, 11.54672, tolerance: 1e-9)
    // 11.54672 x 70 / 1000 x 5 = 4.041352 kcal/min; x 10 min.
    expectClose(output.energyKilocalories, 40.41352, tolerance: 1e-9)
  }

  @Test(arguments: [1.5, 4.0])
  func speedsOutsideOneNineToThreeSevenMphAreFlagged(mph: Double) throws {
    let output = try ACSMWalking().evaluate(
      ModelInput(speedMetersPerSecond: Units.metersPerSecond(fromMilesPerHour: mph), bodyMassKilograms: 70))
    #expect(output.diagnostics.map(\.code) == ["speed-outside-valid-range"])
  }

  /// A missing input is a ModelError naming the input, which the command
  /// line words with its option and a notebook in prose.
  @Test func missingInputsAreModelErrorsNamingTheInput() {
    #expect(throws: ModelError(model: "acsm-walking", .missing([.speed]))) {
      try ACSMWalking().evaluate(ModelInput(bodyMassKilograms: 70))
    }
    #expect(throws: ModelError(model: "acsm-walking", .missing([.mass]))) {
      try ACSMWalking().evaluate(ModelInput(speedMetersPerSecond: 1.3))
    }
    let error = ModelError(model: "met", .missing([.met, .activity]))
    #expect(error.description == "model met needs a MET value or an activity code")
    #expect(error.message { "--\($0.rawValue)" } == "model met needs --met or --activity")
    // An input outside what the equation takes: a zero duration.
    let zero = ModelInput(bodyMassKilograms: 70, steps: 100, durationSeconds: 0, strideMeters: 0.7)
    #expect(throws: ModelError(model: "steps-stride", .invalid(.minutes, value: 0, expected: "above 0"))) {
      try StrideWalking().evaluate(zero)
    }
    #expect(
      ModelError(model: "steps-stride", .invalid(.minutes, value: 0, expected: "above 0")).message {
        "--\($0.rawValue)"
      } == "model steps-stride needs --minutes above 0; got 0")
  }
}

struct ACSMRunningTests {
  /// Hand calculation: 6 mph = 160.9344 m/min on a 5 % grade:
  /// 0.2 x 160.9344 + 0.9 x 160.9344 x 0.05 + 3.5 = 32.18688 + 7.242048 + 3.5
  /// = 42.928928 mL/kg/min.
  @Test func sixMphFivePercent() throws {
    let output = try ACSMRunning().evaluate(
      ModelInput(
        speedMetersPerSecond: Units.metersPerSecond(fromMilesPerHour: 6), gradeFraction: 0.05,
        bodyMassKilograms: 60))
    expectClose(output.vo2MillilitersPerKilogramPerMinute, 42.928928, tolerance: 1e-9)
    #expect(output.diagnostics.isEmpty)
  }

  @Test func walkingSpeedIsFlagged() throws {
    let output = try ACSMRunning().evaluate(
      ModelInput(speedMetersPerSecond: Units.metersPerSecond(fromMilesPerHour: 4), bodyMassKilograms: 60))
    #expect(output.diagnostics.map(\.code) == ["speed-outside-valid-range"])
  }
}

struct CameronWalkingTests {
  /// C = W(lb) x 0.53 x D(miles) (PEM thesis L715-723): 150 lb over 1 mile is
  /// 79.5 kcal; over 2 miles 159 kcal.
  @Test func printedEquation() throws {
    let mass = Units.kilograms(fromPounds: 150)
    let one = try CameronWalking().evaluate(
      ModelInput(bodyMassKilograms: mass, distanceMeters: Units.metersPerMile))
    expectClose(one.energyKilocalories, 79.5, tolerance: 1e-9)
    let two = try CameronWalking().evaluate(
      ModelInput(bodyMassKilograms: mass, distanceMeters: 2 * Units.metersPerMile))
    expectClose(two.energyKilocalories, 159, tolerance: 1e-9)
    #expect(one.vo2MillilitersPerKilogramPerMinute == nil)
  }

  /// At 3 mph, 150 lb: 150 x 0.53 x 3 / 60 = 3.975 kcal/min.
  @Test func ratePerMinute() throws {
    let output = try CameronWalking().evaluate(
      ModelInput(
        speedMetersPerSecond: Units.metersPerSecond(fromMilesPerHour: 3),
        bodyMassKilograms: Units.kilograms(fromPounds: 150)))
    expectClose(output.kilocaloriesPerMinute, 3.975, tolerance: 1e-9)
  }
}

struct RegistryTests {
  @Test func identifiersAreUniqueKebabCase() throws {
    let ids = ModelRegistry.all.map(\.info.id)
    #expect(Set(ids).count == ids.count)
    for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(id)") }
    #expect(throws: ValueError.self) { try ModelRegistry.model(id: "no-such-model") }
  }
}
