import EnergyLabCore
import Foundation

/// Metabolic power of intermittent running from speed and acceleration: an
/// acceleration on level ground costs as running uphill at constant speed
/// on the "equivalent slope" it implies.
///
/// ```
/// a  = (v - v0) / dt                  forward acceleration, m/s^2
/// ES = a / g                          equivalent slope (tan(90 - atan(g/a)))
/// EM = sqrt(ES^2 + 1)                 equivalent body mass (g' / g)
/// C  = (155.4 ES^5 - 30.4 ES^4 - 43.3 ES^3 + 46.3 ES^2 + 19.5 ES + 3.6) x EM x KT   (J/kg/m)
/// P  = C x v + rest                   W/kg; rest 3.5 mL/kg/min = 1.2203 W/kg
/// ```
/// v the step's speed (m/s), v0 the previous step's (0 at the first step:
/// a start from standing), dt the step's duration (s), g = 9.80665 m/s^2.
/// The polynomial is Minetti et al. 2002's cost of running on a gradient
/// (net of rest, fitted over -0.45 to +0.45); di Prampero et al. 2005
/// derived ES and EM; Osgnach et al. 2010 added KT = 1.29 for running on
/// grass (the ratio of the cost on turf to that on a treadmill). KT is 1.29
/// unless a terrain factor is given. As for `minetti-2002-running`, the
/// cost is taken as net and rest is added to give gross energy.
///
/// Domain: running on level ground, with accelerations whose ES lies
/// within Minetti's -0.45 to +0.45 (|a| <= 4.41 m/s^2); beyond that the
/// cost keeps the vertical efficiency of the nearest end of the fit, as
/// `minetti-2002-running` does (`vertical-efficiency-extension`). The
/// step's grade is not used. Walking-speed steps are costed as running, as
/// the method does. Accelerations from 1 Hz GPS are smoothed by the fix
/// rate (Osgnach et al. used 25 Hz video); noisy speeds add spurious
/// accelerations (smooth speeds first).
/// di Prampero PE, Fusi S, Sepulcri L, Morin JB, Belli A, Antonutto G.
/// Sprint running: a new energetic approach. J Exp Biol 2005;208:2809-2816.
/// Osgnach C, Poser S, Bernardini R, Rinaldo R, di Prampero PE. Energy cost
/// and metabolic power in elite soccer: a new match analysis approach. Med
/// Sci Sports Exerc 2010;42(1):170-178.
public struct MetabolicPowerRunning: EnergyModel {
  public init() {}

  public static let gravity = 9.80665
  /// KT of Osgnach et al. 2010: running on grass costs 1.29 times the
  /// treadmill.
  public static let grassTerrainConstant = 1.29

  public let info = ModelInfo(
    id: "osgnach-2010-metabolic-power", name: "Metabolic power of accelerated running (equivalent slope)",
    equation:
      "ES = a/g, a = (v - v0)/dt; EM = sqrt(ES^2 + 1); C = (155.4ES^5 - 30.4ES^4 - 43.3ES^3 + 46.3ES^2 + 19.5ES + 3.6)*EM*KT (J/kg/m); P = C*v + rest (W/kg)",
    inputs: [
      "speed v (m/s)", "previous speed v0 (m/s)", "step duration dt (s)", "body mass (kg)",
      "terrain constant KT (default 1.29, grass)",
    ],
    validRange:
      "intermittent running on level ground; ES within -0.45 to +0.45 (|a| <= 4.41 m/s^2), beyond it the vertical efficiency of the fit's end",
    citation:
      "di Prampero et al., J Exp Biol 2005;208:2809-2816; Osgnach et al., Med Sci Sports Exerc 2010;42:170-178",
    notes:
      "KT 1.29 (grass) unless a terrain factor is given; net cost, 3.5 mL/kg/min rest added; grade not used")

  /// Equivalent slope of a forward acceleration, a / g.
  public static func equivalentSlope(accelerationMetersPerSecondSquared a: Double) -> Double { a / gravity }

  /// Energy cost of accelerated running, J/kg/m: Minetti's running cost at
  /// ES (extended beyond +-0.45 as `Minetti2002.extendedCost`) times EM and
  /// KT.
  public static func cost(equivalentSlope es: Double, terrainConstant kt: Double = grassTerrainConstant)
    -> Double
  {
    Minetti2002.extendedCost(gradientFraction: es, gait: .running) * (es * es + 1).squareRoot() * kt
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    _ = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let kt = input.terrainFactor ?? Self.grassTerrainConstant
    var acceleration = 0.0
    if let v0 = input.previousSpeedMetersPerSecond, let dt = input.durationSeconds, dt > 0 {
      acceleration = (speed - v0) / dt
    }
    let es = Self.equivalentSlope(accelerationMetersPerSecondSquared: acceleration)
    let rest =
      Oxygen.restingMillilitersPerKilogramPerMinute / 1000 * Oxygen.kilocaloriesPerLiter
      * MetabolicPower.joulesPerKilocalorie / 60
    let watts = Self.cost(equivalentSlope: es, terrainConstant: kt) * speed + rest
    var treatment: DomainTreatment?
    if !Minetti2002.validGradient.contains(es) {
      let polynomial =
        Minetti2002.cost(gradientFraction: es, gait: .running) * (es * es + 1).squareRoot() * kt * speed
        + rest
      treatment = DomainTreatment(
        code: "vertical-efficiency-extension",
        description:
          "an acceleration of \(Fixed.format(acceleration, digits: 2)) m/s^2 is an equivalent slope of \(Fixed.format(es, digits: 3)), outside Minetti's fitted -0.45 to +0.45; costed at the vertical efficiency of the fit's end",
        equationKilocaloriesPerMinute: polynomial * (input.bodyMassKilograms ?? .nan) * 60
          / MetabolicPower.joulesPerKilocalorie)
    }
    return MetabolicPower.output(
      wattsPerKilogram: watts, input: input, diagnostics: [], treatment: treatment, model: info.id)
  }
}
