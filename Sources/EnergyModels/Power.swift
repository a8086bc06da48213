import EnergyLabCore
import Foundation

/// Gross efficiency of cycling: the share of metabolic energy that the
/// rider delivers as power at the cranks.
public enum GrossEfficiency {
  /// 0.198: the mean gross efficiency of 17 trained men over a graded
  /// ergometer test at 80 rpm (19.8 +/- 0.6 %; Moseley L, Jeukendrup AE,
  /// The reliability of cycling efficiency, Med Sci Sports Exerc
  /// 2001;33(4):621-627). It rises with work rate (Ettema G, Loras HW,
  /// Efficiency in cycling: a review, Eur J Appl Physiol 2009;106:1-14),
  /// so a ride mostly below 150 W is overestimated by it.
  public static let cycling = 0.198

  static func checked(_ input: ModelInput, model: String) throws -> Double {
    let e = input.mechanicalEfficiency ?? cycling
    guard e > 0 && e <= 1 else {
      throw ModelError(model: model, .invalid(.efficiency, value: e, expected: "in (0, 1]"))
    }
    return e
  }

  /// kcal/min of metabolism behind `watts` of mechanical power.
  ///
  /// ```
  /// kcal/min = P (W) x 60 / 4184 / GE
  /// ```
  static func kilocaloriesPerMinute(watts: Double, efficiency: Double) -> Double {
    watts * 60 / MetabolicPower.joulesPerKilocalorie / efficiency
  }
}

/// Metabolic energy from measured power: a power meter's watts over a
/// stated gross efficiency.
///
/// ```
/// kcal/min = P (W) x 60 / 4184 / GE        GE default 0.198
/// ```
/// A step without power gives no energy (the energy is then unknown);
/// coasting (0 W) costs rest, the floor of every rate.
public struct PowerMeterEnergy: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "power-meter", name: "Metabolic energy from measured power",
    equation: "kcal/min = P(W)*60/4184/GE; GE default 0.198",
    inputs: [
      "measured power P (W)", "gross efficiency GE (default 0.198)", "body mass (kg, for the rest floor)",
    ],
    validRange: "cycling; GE rises with work rate (18-23 %)",
    citation: "Moseley & Jeukendrup, Med Sci Sports Exerc 2001;33:621-627 (GE 19.8 %)")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let watts = try input.required(input.powerWatts, .power, for: info.id)
    let efficiency = try GrossEfficiency.checked(input, model: info.id)
    let perMinute = GrossEfficiency.kilocaloriesPerMinute(watts: max(0, watts), efficiency: efficiency)
    var output = ModelOutput(
      kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 })
    output.powerWatts = watts
    if let mass = input.bodyMassKilograms {
      output.floorAtRest(
        bodyMassKilograms: mass, durationSeconds: input.effectiveDurationSeconds, model: info.id)
    }
    return output
  }
}

/// Martin et al. 1998 model of road-cycling power: the power the rider
/// must deliver to ride at the step's speed on its grade.
///
/// ```
/// P_AT = 1/2 rho (CdA + F_W) v^3                 air (no wind: v_air = v)
/// P_RR = v cos(atan G) Crr m g                   rolling resistance
/// P_WB = v (91 + 8.7 v) 10^-3                    wheel bearings
/// P_PE = v m g sin(atan G)                       potential energy
/// P_KE = 1/2 (m + I / r^2)(v^2 - v0^2) / dt      kinetic energy
/// P    = (P_AT + P_RR + P_WB + P_PE + P_KE) / E_C
/// ```
/// m is rider plus bicycle (body mass + `equipmentMassKilograms`, default
/// 8 kg), g = 9.80665 m/s^2, F_W = 0.0044 m^2 (wheel rotation), I = 0.14
/// kg m^2 and r = 0.311 m (two wheels), E_C = 0.977 (chain), Crr default
/// 0.0032 and rho default 1.225 kg/m^3 (sea level, 15 C). CdA defaults to
/// 0.32 m^2, an assumption for a rider on the hoods (Martin's riders were
/// in an aerodynamic position); give the rider's own with `--cda`.
/// Where P < 0 the rider coasts or brakes: 0 W (`coasting`). Metabolic
/// energy is P over the gross efficiency (default 0.198).
/// Martin JC, Milliken DL, Cobb JE, McFadden KL, Coggan AR. Validation of a
/// mathematical model for road cycling power. J Appl Biomech
/// 1998;14(3):276-291 (modelled against measured power: R^2 = 0.97,
/// standard error 2.7 W).
public struct Martin1998Cycling: EnergyModel {
  public init() {}

  public static let gravity = 9.80665
  public static let wheelRotationArea = 0.0044
  public static let wheelInertia = 0.14
  public static let wheelRadius = 0.311
  public static let chainEfficiency = 0.977
  public static let defaultRollingResistance = 0.0032
  public static let defaultAirDensity = 1.225
  public static let defaultDragArea = 0.32
  public static let defaultEquipmentMass = 8.0

  public let info = ModelInfo(
    id: "martin-1998-cycling", name: "Martin road-cycling power model",
    equation:
      "P = [1/2*rho*(CdA+0.0044)*v^3 + v*cos(atan G)*Crr*m*g + v*(91+8.7v)/1000 + v*m*g*sin(atan G) + 1/2*(m+I/r^2)*(v^2-v0^2)/dt] / 0.977; kcal/min = P*60/4184/GE",
    inputs: [
      "speed v (m/s)", "grade G (fraction)", "body mass + bike mass (kg, bike default 8)",
      "CdA (m^2, default 0.32)",
      "Crr (default 0.0032)", "air density (default 1.225 kg/m^3)", "gross efficiency GE (default 0.198)",
    ],
    validRange: "road cycling without wind; negative power is coasting (0 W)",
    citation: "Martin et al., J Appl Biomech 1998;14:276-291",
    notes: "CdA 0.32 m^2 is an assumed default (hoods); no wind")

  /// The predicted power at the cranks, W (negative where the rider would
  /// have to brake).
  public static func powerWatts(
    speed v: Double, previousSpeed v0: Double, seconds dt: Double?, grade: Double, totalMass m: Double,
    dragArea: Double, rollingResistance: Double, airDensity rho: Double
  ) -> Double {
    let angle = atan(grade)
    let air = 0.5 * rho * (dragArea + wheelRotationArea) * v * v * v
    let rolling = v * cos(angle) * rollingResistance * m * gravity
    let bearings = v * (91 + 8.7 * v) * 1e-3
    let potential = v * m * gravity * sin(angle)
    var kinetic = 0.0
    if let dt, dt > 0 {
      kinetic = 0.5 * (m + wheelInertia / (wheelRadius * wheelRadius)) * (v * v - v0 * v0) / dt
    }
    return (air + rolling + bearings + potential + kinetic) / chainEfficiency
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let efficiency = try GrossEfficiency.checked(input, model: info.id)
    let watts = Self.powerWatts(
      speed: speed, previousSpeed: input.previousSpeedMetersPerSecond ?? speed,
      seconds: input.durationSeconds,
      grade: input.gradeFraction ?? 0,
      totalMass: mass + (input.equipmentMassKilograms ?? Self.defaultEquipmentMass),
      dragArea: input.dragAreaSquareMeters ?? Self.defaultDragArea,
      rollingResistance: input.rollingResistanceCoefficient ?? Self.defaultRollingResistance,
      airDensity: input.airDensityKilogramsPerCubicMeter ?? Self.defaultAirDensity)
    let pedalled = max(0, watts)
    let perMinute = GrossEfficiency.kilocaloriesPerMinute(watts: pedalled, efficiency: efficiency)
    var output = ModelOutput(
      kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 })
    output.powerWatts = pedalled
    if watts < 0 {
      output.treatment = DomainTreatment(
        code: "coasting",
        description:
          "the model needs \(Fixed.format(watts, digits: 0)) W here (a descent or slowing): the rider coasts or brakes, 0 W",
        equationKilocaloriesPerMinute: GrossEfficiency.kilocaloriesPerMinute(
          watts: watts, efficiency: efficiency))
    }
    output.floorAtRest(
      bodyMassKilograms: mass, durationSeconds: input.effectiveDurationSeconds, model: info.id)
    return output
  }
}
