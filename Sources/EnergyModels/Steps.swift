import EnergyLabCore

/// Energy from a step count at a fixed energy per step.
///
/// ```
/// kcal = steps x kcal per step
/// ```
/// The StepMyHealth thesis uses 0.4 kcal per step (L553-554), about eight
/// times the 0.0507 kcal per step measured by indirect calorimetry in 38
/// adults walking at their own pace (507 kcal per 10,000 steps; Birdsley,
/// M.S. thesis, Oregon State University, 2005, an outside source the thesis
/// does not cite); `steps-fixed` takes any value with `--kcal-per-step`.
/// The thesis credits its calculation to Yusof et al. 2018 (L549,
/// a conference paper in its reference list) without quoting a value from
/// it; 0.4 is the number in the thesis's code, and EnergyLab has not
/// checked the paper.
public struct PerStep: EnergyModel {
  public let id: String
  public let defaultKilocaloriesPerStep: Double?

  /// The StepMyHealth thesis rule: 0.4 kcal per step.
  public static let stepMyHealthKilocaloriesPerStep = 0.4
  public static let stepMyHealth = PerStep(
    id: "steps-stepmyhealth", defaultKilocaloriesPerStep: stepMyHealthKilocaloriesPerStep)
  /// Birdsley 2005: 507 kcal per 10,000 steps.
  public static let birdsley2005 = PerStep(id: "steps-birdsley-2005", defaultKilocaloriesPerStep: 0.0507)
  /// A configurable energy per step.
  public static let configurable = PerStep(id: "steps-fixed", defaultKilocaloriesPerStep: nil)

  public init(id: String, defaultKilocaloriesPerStep: Double?) {
    self.id = id
    self.defaultKilocaloriesPerStep = defaultKilocaloriesPerStep
  }

  public var info: ModelInfo {
    if let value = defaultKilocaloriesPerStep, id == Self.stepMyHealth.id {
      return ModelInfo(
        id: id, name: "StepMyHealth per-step rule",
        equation: "kcal = steps * \(Fixed.shortest(value))", inputs: ["steps"],
        validRange: "walking; the value is about eight times the measured 0.05 kcal/step",
        citation:
          "StepMyHealth thesis (QMUL 2020) L553-554, the value in its code; the thesis credits the calculation to Yusof et al. 2018 (L549), a paper not checked here"
      )
    }
    if let value = defaultKilocaloriesPerStep {
      return ModelInfo(
        id: id, name: "Measured energy per step (Birdsley 2005)",
        equation: "kcal = steps * \(Fixed.shortest(value))", inputs: ["steps"],
        validRange: "adults walking at a self-selected pace (76.8 m/min)",
        citation:
          "Birdsley KL, Estimation of the energy cost of walking 10,000 steps, M.S. thesis, Oregon State University, 2005"
      )
    }
    return ModelInfo(
      id: id, name: "Fixed energy per step", equation: "kcal = steps * kcal_per_step",
      inputs: ["steps", "kcal per step"], validRange: "walking",
      citation: "any published per-step value, given as kcal per step")
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let steps = try input.required(input.steps, .steps, for: id)
    let perStep = try input.required(
      input.kilocaloriesPerStep ?? defaultKilocaloriesPerStep, .kilocaloriesPerStep, for: id)
    let energy = steps * perStep
    let perMinute = input.durationSeconds.flatMap { $0 > 0 ? energy / ($0 / 60) : nil }
    return ModelOutput(kilocaloriesPerMinute: perMinute, energyKilocalories: energy)
  }
}

/// Steps to distance by stride length, then the ACSM walking equation.
///
/// ```
/// distance = steps x stride;  speed = distance / duration
/// energy = acsm-walking(speed, grade, mass) x duration
/// ```
/// Stride from `--stride`, else 0.415 x height (a common pedometer rule for
/// step length); needs a duration to give a speed.
public struct StrideWalking: EnergyModel {
  public init() {}

  /// Step length as a fraction of body height when no stride is given.
  public static let strideFractionOfHeight = 0.415

  public let info = ModelInfo(
    id: "steps-stride", name: "Steps by stride length to ACSM walking",
    equation: "d = steps*stride; v = d/t; ACSM walking at v",
    inputs: ["steps", "stride (m) or height (m)", "duration (min)", "body mass (kg)"],
    validRange: "as acsm-walking", citation: "ACSM walking equation; stride = 0.415 x height (pedometer rule)"
  )

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let steps = try input.required(input.steps, .steps, for: info.id)
    let stride: Double
    if let given = input.strideMeters {
      stride = given
    } else {
      stride =
        try input.required(input.heightMeters, .stride, .height, for: info.id)
        * Self.strideFractionOfHeight
    }
    let duration = try input.required(input.durationSeconds, .minutes, for: info.id)
    guard duration > 0 else {
      throw ModelError(model: info.id, .invalid(.minutes, value: duration / 60, expected: "above 0"))
    }
    var walking = input
    walking.distanceMeters = nil
    walking.speedMetersPerSecond = steps * stride / duration
    return try ACSMWalking().evaluate(walking)
  }
}

/// Energy of speeding up, after Rassia et al. 2009 (whom the PEM thesis
/// cites as "Hay et al."): a body of mass m that gains
/// speed gains kinetic energy, or, equivalently, work is force times
/// distance.
///
/// ```
/// kinetic-hay:          E (J) = max(0, 1/2 m (v^2 - v0^2)) / efficiency
/// work-force-distance:  E (J) = max(0, m (v - v0) / dt) x d / efficiency
/// ```
/// m body mass (kg), v0 and v the speeds (m/s) at the start and end of an
/// interval of dt seconds over d metres (d defaults to the mean speed times
/// dt, where the two forms agree). Slowing down costs nothing. `efficiency`
/// (`--efficiency`, default 1: mechanical energy only, as the PEM thesis
/// states the models) turns mechanical work into metabolic energy; about
/// 0.25 is the usual muscle efficiency. GPS speed noise inflates both: on
/// tracks, smooth speeds first (`energy --speed-smoothing N`).
/// The PEM thesis prints the kinetic form as E_k = 1/2 m (delta v)^2
/// (L745-751). EnergyLab computes the change of kinetic energy, 1/2 m (v^2 -
/// v0^2), which equals the printed form only from rest (v0 = 0): at speed
/// the printed form gives less, (v - v0)^2 against (v - v0)(v + v0), e.g.
/// 65 kg from 1.0 to 1.3 m/s: printed 2.9 J, the change of kinetic energy
/// 22.4 J. The printed form is not the energy of speeding up, so it is not
/// computed. The thesis's text names Simon Hay first (L745), but its
/// reference [16] is Rassia, Hay, Beresford and Baker, "Movement dynamics
/// in office environments", 3rd CIB International Conference on Smart and
/// Sustainable Built Environments, the 2009 SASBE conference (L1374; not
/// located; see also S. Hay, A model personal energy meter, Cambridge
/// UCAM-CL-TR-805, 2011).
public struct KineticEnergy: EnergyModel {
  public enum Method: String, Sendable, Hashable {
    case kineticEnergy = "kinetic-hay"
    case forceTimesDistance = "work-force-distance"
  }

  public var method: Method

  public init(method: Method = .kineticEnergy) { self.method = method }

  public var info: ModelInfo {
    switch method {
    case .kineticEnergy:
      return ModelInfo(
        id: method.rawValue, name: "Kinetic energy of speed changes (Rassia et al. 2009)",
        equation: "E (J) = max(0, 1/2*m*(v^2 - v0^2)) / efficiency",
        inputs: [
          "body mass m (kg)", "speed v (m/s)", "previous speed v0 (m/s, default 0)", "efficiency (default 1)",
        ],
        validRange: "any; counts only the energy of acceleration",
        citation:
          "Rassia, Hay, Beresford & Baker, Movement dynamics in office environments, the 2009 CIB SASBE conference (the PEM thesis's reference [16], L1374; its text cites it as \"Hay et al.\", L745-751); primary text not located",
        notes: "the thesis prints 1/2*m*(dv)^2; this is 1/2*m*(v^2 - v0^2), the same only from rest")
    case .forceTimesDistance:
      return ModelInfo(
        id: method.rawValue, name: "Work as force times distance",
        equation: "E (J) = max(0, m*(v - v0)/dt) * d / efficiency",
        inputs: [
          "body mass m (kg)", "speed v and previous speed v0 (m/s)", "duration dt (s)", "distance d (m)",
          "efficiency (default 1)",
        ],
        validRange: "any; counts only accelerating intervals",
        citation: "PEM thesis L755-762 (W = F x D)")
    }
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let v = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let v0 = input.previousSpeedMetersPerSecond ?? 0
    let efficiency = input.mechanicalEfficiency ?? 1
    guard efficiency > 0 && efficiency <= 1 else {
      throw ModelError(model: info.id, .invalid(.efficiency, value: efficiency, expected: "in (0, 1]"))
    }
    let joules: Double
    switch method {
    case .kineticEnergy:
      joules = max(0, 0.5 * mass * (v * v - v0 * v0)) / efficiency
    case .forceTimesDistance:
      let dt = try input.required(input.durationSeconds, .minutes, for: info.id)
      guard dt > 0 else {
        throw ModelError(model: info.id, .invalid(.minutes, value: dt / 60, expected: "above 0"))
      }
      let distance = input.distanceMeters ?? (v + v0) / 2 * dt
      joules = max(0, mass * (v - v0) / dt) * distance / efficiency
    }
    let energy = Units.kilocalories(fromJoules: joules)
    let perMinute = input.durationSeconds.flatMap { $0 > 0 ? energy / ($0 / 60) : nil }
    var output = ModelOutput(kilocaloriesPerMinute: perMinute, energyKilocalories: energy)
    // The mechanical power the model credits the interval with, W (before
    // the efficiency): what a power meter would compare with.
    output.powerWatts = input.durationSeconds.flatMap { $0 > 0 ? joules * efficiency / $0 : nil }
    return output
  }
}
