import EnergyLabCore
import Foundation

/// Gross efficiency of cycling: the share of metabolic energy that the
/// rider delivers as power at the cranks.
///
/// Gross efficiency is not a constant: energy expenditure rises linearly
/// with work rate from a baseline at zero load, so efficiency rises with
/// power as that baseline weighs less (Ettema G, Loras HW, Efficiency in
/// cycling: a review, Eur J Appl Physiol 2009;106:1-14: "a linear
/// relationship between work rate and energy expenditure", "gross
/// efficiency is strongly dependent on work rate, mainly because of the
/// diminishing effect of the (zero work-rate) base-line energy
/// expenditure"). EnergyLab takes that line as the ACSM leg-ergometry
/// equation publishes it:
/// ```
/// VO2 (mL/kg/min) = 1.8 x 6.12 x P / M + 3.5 + 3.5
/// kcal/min        = 0.05508 x P + 0.035 x M           (5 kcal per L O2)
/// GE(P, M)        = P x 60 / 4184 / kcal/min
/// ```
/// P power (W), M body mass (kg): 1.8 mL O2 per kg*m is a delta efficiency
/// of 26.0 %; 3.5 + 3.5 mL/kg/min is rest plus unloaded pedalling. For 70
/// kg this gives GE 8.6 % at 40 W, 16.9 % at 100 W, 21.3 % at 200 W and
/// 22.7 % at 300 W, inside the 18-23 % measured above 150 W (Moseley &
/// Jeukendrup 2001: 19.8 % over 95-305 W, lower at 95 and 130 W).
/// A constant efficiency undercosts low-power riding: at 40 W, 0.198 gives
/// 2.90 kcal/min where the line gives 4.65.
public enum GrossEfficiency {
  /// 0.198: the mean gross efficiency of 17 trained men over a graded
  /// ergometer test at 80 rpm (19.8 +/- 0.6 %; Moseley L, Jeukendrup AE,
  /// The reliability of cycling efficiency, Med Sci Sports Exerc
  /// 2001;33(4):621-627); the constant where a caller asks for one.
  public static let cycling = 0.198

  /// kcal/min per watt of the ACSM leg-ergometry line: 1.8 x 6.12 mL O2/min
  /// per W x 5 kcal/L / 1000.
  public static let kilocaloriesPerMinutePerWatt =
    1.8 * ACSMLegCycling.kilogramMetersPerMinutePerWatt
    * Oxygen.kilocaloriesPerLiter / 1000
  /// Baseline of the line, mL/kg/min: rest plus unloaded pedalling (3.5 +
  /// 3.5, ACSM).
  public static let baselineMillilitersPerKilogramPerMinute =
    2 * Oxygen.restingMillilitersPerKilogramPerMinute

  /// A constant efficiency the caller asked for, checked; nil when none
  /// was given (the efficiency then follows the work rate).
  static func constant(_ input: ModelInput, model: String) throws -> Double? {
    guard let e = input.mechanicalEfficiency else { return nil }
    guard e > 0 && e <= 1 else {
      throw ModelError(model: model, .invalid(.efficiency, value: e, expected: "in (0, 1]"))
    }
    return e
  }

  /// kcal/min of metabolism behind `watts` of mechanical power: over a
  /// constant `efficiency` where one is given, else on the ACSM line for
  /// `bodyMassKilograms`. No pedalling (0 W or less) gives 0 here; the
  /// models raise it to rest.
  ///
  /// ```
  /// constant: kcal/min = P x 60 / 4184 / GE
  /// line:     kcal/min = 0.05508 x P + 0.035 x M     (P > 0)
  /// ```
  static func kilocaloriesPerMinute(watts: Double, efficiency: Double?, bodyMassKilograms: Double) -> Double {
    if let efficiency { return watts * 60 / MetabolicPower.joulesPerKilocalorie / efficiency }
    guard watts > 0 else { return 0 }
    return kilocaloriesPerMinutePerWatt * watts
      + Oxygen.kilocaloriesPerMinute(
        vo2MillilitersPerKilogramPerMinute: baselineMillilitersPerKilogramPerMinute,
        bodyMassKilograms: bodyMassKilograms)
  }

  /// The gross efficiency the line gives at `watts` for `bodyMassKilograms`
  /// (nil at 0 W or less).
  public static func onLine(watts: Double, bodyMassKilograms: Double) -> Double? {
    guard watts > 0 else { return nil }
    return watts * 60 / MetabolicPower.joulesPerKilocalorie
      / kilocaloriesPerMinute(watts: watts, efficiency: nil, bodyMassKilograms: bodyMassKilograms)
  }
}

/// Metabolic energy from measured power: a power meter's watts on the
/// energy-work-rate line of leg cycling, or over a constant gross
/// efficiency where one is given.
///
/// ```
/// kcal/min = 0.05508 x P (W) + 0.035 x M (kg)      P > 0 (GrossEfficiency)
/// kcal/min = P x 60 / 4184 / GE                    with a given GE
/// ```
/// A step without power gives no energy (the energy is then unknown);
/// coasting (0 W) costs rest, the floor of every rate.
public struct PowerMeterEnergy: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "power-meter", name: "Metabolic energy from measured power",
    equation:
      "kcal/min = 0.05508*P(W) + 0.035*M(kg) for P > 0 (ACSM leg-ergometry line: GE rises with power, 8.6 % at 40 W, 21.3 % at 200 W for 70 kg); with a given GE: P*60/4184/GE",
    inputs: [
      "measured power P (W)", "body mass M (kg)", "gross efficiency GE (optional; constant when given)",
    ],
    validRange: "cycling; the line is ACSM's for 50-200 W and energy stays linear in work rate above it",
    citation:
      "Ettema & Loras, Eur J Appl Physiol 2009;106:1-14 (energy linear in work rate, GE rises with it); ACSM leg-ergometry equation (the line's constants)",
    notes: "0 W (coasting) costs rest")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let watts = try input.required(input.powerWatts, .power, for: info.id)
    let efficiency = try GrossEfficiency.constant(input, model: info.id)
    let mass: Double
    if efficiency == nil {
      mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    } else {
      mass = input.bodyMassKilograms ?? .nan
    }
    let perMinute = GrossEfficiency.kilocaloriesPerMinute(
      watts: max(0, watts), efficiency: efficiency, bodyMassKilograms: mass)
    var output = ModelOutput(
      kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 })
    output.powerWatts = watts
    if mass > 0 {
      output.floorAtRest(
        bodyMassKilograms: mass, durationSeconds: input.effectiveDurationSeconds, model: info.id)
    }
    return output
  }
}

/// A cycling activity's energy from its measured power where the step
/// carries power, by `fallback` (the mode's model) where it does not: what
/// `energy --by-mode`, `profile` and `batch` run a ride with a power meter
/// through. Its identifier is `power-meter`'s; a step without power is a
/// named treatment (`no-power-<fallback>`).
public struct MeasuredPowerFirst: EnergyModel {
  public let power = PowerMeterEnergy()
  public let fallback: any EnergyModel

  public init(fallback: any EnergyModel) { self.fallback = fallback }

  public var info: ModelInfo {
    var info = power.info
    info.notes += "; steps without power by \(fallback.info.id)"
    return info
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    if input.powerWatts != nil { return try power.evaluate(input) }
    var output = try fallback.evaluate(input)
    if output.treatment == nil, let rate = output.kilocaloriesPerMinute {
      output.treatment = DomainTreatment(
        code: "no-power-\(fallback.info.id)",
        description: "no power recorded on this step: costed by \(fallback.info.id)",
        equationKilocaloriesPerMinute: rate)
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
/// energy is P on the energy-work-rate line of `GrossEfficiency` (or over a
/// constant gross efficiency where one is given).
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
      "P = [1/2*rho*(CdA+0.0044)*v^3 + v*cos(atan G)*Crr*m*g + v*(91+8.7v)/1000 + v*m*g*sin(atan G) + 1/2*(m+I/r^2)*(v^2-v0^2)/dt] / 0.977; kcal/min = 0.05508*P + 0.035*M (P > 0; power-meter's line), or P*60/4184/GE with a given GE",
    inputs: [
      "speed v (m/s)", "grade G (fraction)", "body mass + bike mass (kg, bike default 8)",
      "CdA (m^2, default 0.32)",
      "Crr (default 0.0032)", "air density (default 1.225 kg/m^3)",
      "gross efficiency GE (optional; default: rises with P)",
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
    let efficiency = try GrossEfficiency.constant(input, model: info.id)
    let watts = Self.powerWatts(
      speed: speed, previousSpeed: input.previousSpeedMetersPerSecond ?? speed,
      seconds: input.durationSeconds,
      grade: input.gradeFraction ?? 0,
      totalMass: mass + (input.equipmentMassKilograms ?? Self.defaultEquipmentMass),
      dragArea: input.dragAreaSquareMeters ?? Self.defaultDragArea,
      rollingResistance: input.rollingResistanceCoefficient ?? Self.defaultRollingResistance,
      airDensity: input.airDensityKilogramsPerCubicMeter ?? Self.defaultAirDensity)
    let pedalled = max(0, watts)
    let perMinute = GrossEfficiency.kilocaloriesPerMinute(
      watts: pedalled, efficiency: efficiency, bodyMassKilograms: mass)
    var output = ModelOutput(
      kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 })
    output.powerWatts = pedalled
    if watts < 0 {
      output.treatment = DomainTreatment(
        code: "coasting",
        description:
          "the model needs \(Fixed.format(watts, digits: 0)) W here (a descent or slowing): the rider coasts or brakes, 0 W",
        equationKilocaloriesPerMinute: watts * 60 / MetabolicPower.joulesPerKilocalorie
          / (efficiency ?? GrossEfficiency.cycling))
    }
    output.floorAtRest(
      bodyMassKilograms: mass, durationSeconds: input.effectiveDurationSeconds, model: info.id)
    return output
  }
}
