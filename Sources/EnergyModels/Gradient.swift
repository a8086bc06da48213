import EnergyLabCore
import Foundation

/// Minetti et al. 2002 energy cost of walking or running over a gradient.
///
/// ```
/// Cw(i) = 280.5 i^5 - 58.7 i^4 - 76.8 i^3 + 51.9 i^2 + 19.6 i + 2.5   (J/kg/m)
/// Cr(i) = 155.4 i^5 - 30.4 i^4 - 43.3 i^3 + 46.3 i^2 + 19.5 i + 3.6   (J/kg/m)
/// power (W/kg) = C(i) x speed (m/s)
/// ```
/// i is the gradient as a fraction (rise over horizontal run); fitted from
/// -0.45 to +0.45 on a treadmill. Beyond it the quintic turns (below zero
/// under about -0.55), and holding the cost at the end of the range would
/// cost +0.60 as +0.45. Minetti et al. found instead that above +0.15 and
/// below -0.15 the efficiency of vertical work, g i / C(i), attains that of
/// concentric and eccentric muscle contraction and stays there (abstract;
/// at the fitted ends the polynomials give 0.251 walking and 0.227 running
/// uphill, -1.22 and -1.09 downhill, near Margaria's 0.25 and -1.20). So a
/// steeper gradient keeps the efficiency of the nearest end
/// (`vertical-efficiency-extension`):
/// ```
/// C(i) = C(i_end) x i / i_end        |i| > 0.45, i_end = +-0.45
/// ```
/// (+0.60 walking: 23.47 J/kg/m where a held cost gave 17.60). Descents
/// are inside the model's domain. EnergyLab treats the costs as net of
/// standing and adds a resting 3.5 mL/kg/min (1 MET) to report gross VO2 and
/// kcal on the scale of the ACSM equations; `notes` says so in every report.
/// Minetti AE, Moia C, Roi GS, Susta D, Ferretti G. Energy cost of walking and
/// running at extreme uphill and downhill slopes. J Appl Physiol
/// 2002;93:1039-1046.
public struct Minetti2002: EnergyModel {
  public enum Gait: String, Sendable, Hashable {
    case walking
    case running
  }

  public let gait: Gait

  public init(gait: Gait) { self.gait = gait }

  public static let validGradient = -0.45...0.45

  /// Net cost of transport, J/kg/m.
  public static func cost(gradientFraction i: Double, gait: Gait) -> Double {
    switch gait {
    case .walking:
      return (((((280.5 * i) - 58.7) * i - 76.8) * i + 51.9) * i + 19.6) * i + 2.5
    case .running:
      return (((((155.4 * i) - 30.4) * i - 43.3) * i + 46.3) * i + 19.5) * i + 3.6
    }
  }

  /// Efficiency of vertical work at gradient `i`: g i / C(i) (negative
  /// downhill, where the work is done on the body).
  public static func verticalEfficiency(gradientFraction i: Double, gait: Gait) -> Double {
    9.80665 * i / cost(gradientFraction: i, gait: gait)
  }

  /// Net cost of transport, J/kg/m, over any gradient: the polynomial over
  /// the fitted range, beyond it the cost that keeps the vertical
  /// efficiency of the range's nearest end, C(i_end) x i / i_end.
  public static func extendedCost(gradientFraction i: Double, gait: Gait) -> Double {
    if validGradient.contains(i) { return cost(gradientFraction: i, gait: gait) }
    let end = i > 0 ? validGradient.upperBound : validGradient.lowerBound
    return cost(gradientFraction: end, gait: gait) * i / end
  }

  public var info: ModelInfo {
    switch gait {
    case .walking:
      return ModelInfo(
        id: "minetti-2002-walking", name: "Minetti walking cost over gradient",
        equation: "Cw = 280.5i^5 - 58.7i^4 - 76.8i^3 + 51.9i^2 + 19.6i + 2.5 (J/kg/m); P = Cw*v + rest",
        inputs: ["speed v (m/s)", "gradient i (fraction)", "body mass (kg)"],
        validRange:
          "gradient -0.45 to +0.45; beyond, C(i) = C(+-0.45)*i/(+-0.45) (vertical efficiency held, as Minetti found above +-0.15)",
        citation: "Minetti et al., J Appl Physiol 2002;93:1039-1046",
        notes: "net cost; 3.5 mL/kg/min rest added")
    case .running:
      return ModelInfo(
        id: "minetti-2002-running", name: "Minetti running cost over gradient",
        equation: "Cr = 155.4i^5 - 30.4i^4 - 43.3i^3 + 46.3i^2 + 19.5i + 3.6 (J/kg/m); P = Cr*v + rest",
        inputs: ["speed v (m/s)", "gradient i (fraction)", "body mass (kg)"],
        validRange:
          "gradient -0.45 to +0.45; beyond, C(i) = C(+-0.45)*i/(+-0.45) (vertical efficiency held, as Minetti found above +-0.15)",
        citation: "Minetti et al., J Appl Physiol 2002;93:1039-1046",
        notes: "net cost; 3.5 mL/kg/min rest added")
    }
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    _ = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let gradient = input.gradeFraction ?? 0
    let restWattsPerKilogram =
      Oxygen.restingMillilitersPerKilogramPerMinute / 1000 * Oxygen.kilocaloriesPerLiter
      * MetabolicPower.joulesPerKilocalorie
      / 60
    let watts = Self.extendedCost(gradientFraction: gradient, gait: gait) * speed + restWattsPerKilogram
    var treatment: DomainTreatment?
    if !Self.validGradient.contains(gradient) {
      let end = gradient > 0 ? Self.validGradient.upperBound : Self.validGradient.lowerBound
      let equation = Self.cost(gradientFraction: gradient, gait: gait) * speed + restWattsPerKilogram
      treatment = DomainTreatment(
        code: "vertical-efficiency-extension",
        description:
          "gradient \(Fixed.format(gradient, digits: 3)) is outside the fitted -0.45 to +0.45, where the polynomial turns; costed at the vertical efficiency of \(Fixed.format(end, digits: 2)), \(Fixed.format(Self.verticalEfficiency(gradientFraction: end, gait: gait), digits: 3)) (Minetti et al. 2002: beyond +-0.15 it is that of muscle)",
        equationKilocaloriesPerMinute: equation * (input.bodyMassKilograms ?? .nan) * 60
          / MetabolicPower.joulesPerKilocalorie)
    }
    return MetabolicPower.output(
      wattsPerKilogram: watts, input: input, diagnostics: [], treatment: treatment, model: info.id)
  }
}

/// Load Carriage Decision Aid walking equation (Looney et al. 2019).
///
/// ```
/// M (W/kg) = 1.44 + 1.94 S^0.43 + 0.24 S^4 + 0.34 S G (1 - 1.05^(1 - 1.1^(G + 32)))
/// ```
/// S speed (m/s), G grade (%); gross metabolic rate for level, uphill and
/// downhill walking, from 95 participants of 11 studies at speeds up to
/// 1.96 m/s and grades of -40 to +45 % (SEE 0.20 W/kg level, 0.42 graded).
/// Looney DP, Santee WR, Hansen EO, Bonventre PJ, Chalmers CR, Potter AW.
/// Estimating energy expenditure during level, uphill, and downhill walking.
/// Med Sci Sports Exerc 2019;51(9):1954-1960.
public struct Looney2019: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "looney-2019", name: "LCDA walking equation",
    equation: "M (W/kg) = 1.44 + 1.94*S^0.43 + 0.24*S^4 + 0.34*S*G*(1 - 1.05^(1 - 1.1^(G+32)))",
    inputs: ["speed S (m/s)", "grade G (%)", "body mass (kg)"],
    validRange: "up to 1.96 m/s, -40 to +45 % grade",
    citation: "Looney et al., Med Sci Sports Exerc 2019;51(9):1954-1960")

  public static func wattsPerKilogram(speedMetersPerSecond s: Double, gradePercent g: Double) -> Double {
    1.44 + 1.94 * pow(s, 0.43) + 0.24 * pow(s, 4) + 0.34 * s * g * (1 - pow(1.05, 1 - pow(1.1, g + 32)))
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    _ = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let grade = (input.gradeFraction ?? 0) * 100
    var diagnostics: [Diagnostic] = []
    if speed > 1.96 {
      diagnostics.append(
        Diagnostic(
          code: "speed-outside-valid-range",
          message: "\(Fixed.format(speed, digits: 2)) m/s is above 1.96 m/s"))
    }
    if !(-40...45).contains(grade) {
      diagnostics.append(
        Diagnostic(
          code: "grade-outside-valid-range",
          message: "grade \(Fixed.format(grade, digits: 1)) % is outside -40 to +45 %"))
    }
    return MetabolicPower.output(
      wattsPerKilogram: Self.wattsPerKilogram(speedMetersPerSecond: speed, gradePercent: grade), input: input,
      diagnostics: diagnostics, model: info.id)
  }
}
