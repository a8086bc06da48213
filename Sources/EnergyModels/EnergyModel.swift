import EnergyLabCore

/// The inputs an energy model may use, each in the unit its name states.
/// A model reads the ones it needs and reports the ones it lacks.
public struct ModelInput: Sendable, Hashable {
  public var speedMetersPerSecond: Double?
  public var gradeFraction: Double?
  public var bodyMassKilograms: Double?
  public var heartRateBeatsPerMinute: Double?
  /// Resting heart rate of the subject, bpm (the heart-rate-reserve
  /// models).
  public var restingHeartRateBeatsPerMinute: Double?
  /// Maximal heart rate of the subject, bpm, where measured (the
  /// heart-rate-reserve models; otherwise 208 - 0.7 x age).
  public var maximumHeartRateBeatsPerMinute: Double?
  public var ageYears: Double?
  public var sex: Sex?
  public var vo2MaxMillilitersPerKilogramPerMinute: Double?
  public var steps: Double?
  public var durationSeconds: Double?
  public var distanceMeters: Double?
  public var loadKilograms: Double?
  public var terrainFactor: Double?
  /// Mechanical power on an ergometer, W.
  public var powerWatts: Double?
  /// Stepping rate on a bench, steps/min.
  public var stepRatePerMinute: Double?
  /// Bench step height, m.
  public var stepHeightMeters: Double?
  /// Speed at the start of the interval, m/s (kinetic model); 0 when absent.
  public var previousSpeedMetersPerSecond: Double?
  /// Energy per step for per-step models, kcal.
  public var kilocaloriesPerStep: Double?
  /// Stride (step) length, m.
  public var strideMeters: Double?
  /// Body height, m.
  public var heightMeters: Double?
  /// Metabolic equivalent of the activity, MET.
  public var metabolicEquivalent: Double?
  /// Share of metabolic energy that becomes mechanical work (kinetic
  /// models; gross efficiency of the power models).
  public var mechanicalEfficiency: Double?
  /// Cycling: drag area CdA (m^2), rolling-resistance coefficient, air
  /// density (kg/m^3) and the mass of bicycle and gear (kg).
  public var dragAreaSquareMeters: Double?
  public var rollingResistanceCoefficient: Double?
  public var airDensityKilogramsPerCubicMeter: Double?
  public var equipmentMassKilograms: Double?
  /// Accelerometer summaries of an epoch: ENMO (Euclidean norm minus one,
  /// negatives set to zero) and MAD (mean amplitude deviation), both in
  /// milli-g; ActiGraph counts per minute on the vertical axis and as the
  /// vector magnitude of the three axes.
  public var enmoMilligravity: Double?
  public var madMilligravity: Double?
  public var verticalCountsPerMinute: Double?
  public var vectorMagnitudeCountsPerMinute: Double?
  /// The lowest coefficient of variation (SD / mean x 100, %) of the
  /// counts of the 10 s epochs in each minute that holds an epoch (Crouter
  /// et al. 2010's refined two-regression model).
  public var countsCoefficientOfVariationPercent: Double?
  /// The participant's id in a subjects file (`--subjects` with
  /// `--subject`), when the values came from one: recorded and keyed on,
  /// so two participants with equal values stay two runs.
  public var subjectID: String?

  public init(
    speedMetersPerSecond: Double? = nil, gradeFraction: Double? = nil, bodyMassKilograms: Double? = nil,
    heartRateBeatsPerMinute: Double? = nil, ageYears: Double? = nil, sex: Sex? = nil,
    vo2MaxMillilitersPerKilogramPerMinute: Double? = nil, steps: Double? = nil,
    durationSeconds: Double? = nil,
    distanceMeters: Double? = nil, loadKilograms: Double? = nil, terrainFactor: Double? = nil,
    powerWatts: Double? = nil, stepRatePerMinute: Double? = nil, stepHeightMeters: Double? = nil,
    kilocaloriesPerStep: Double? = nil, strideMeters: Double? = nil, heightMeters: Double? = nil,
    metabolicEquivalent: Double? = nil
  ) {
    self.speedMetersPerSecond = speedMetersPerSecond
    self.gradeFraction = gradeFraction
    self.bodyMassKilograms = bodyMassKilograms
    self.heartRateBeatsPerMinute = heartRateBeatsPerMinute
    self.ageYears = ageYears
    self.sex = sex
    self.vo2MaxMillilitersPerKilogramPerMinute = vo2MaxMillilitersPerKilogramPerMinute
    self.steps = steps
    self.durationSeconds = durationSeconds
    self.distanceMeters = distanceMeters
    self.loadKilograms = loadKilograms
    self.terrainFactor = terrainFactor
    self.powerWatts = powerWatts
    self.stepRatePerMinute = stepRatePerMinute
    self.stepHeightMeters = stepHeightMeters
    self.kilocaloriesPerStep = kilocaloriesPerStep
    self.strideMeters = strideMeters
    self.heightMeters = heightMeters
    self.metabolicEquivalent = metabolicEquivalent
  }

  /// The duration given, or the one implied by distance over speed.
  public var effectiveDurationSeconds: Double? {
    if let durationSeconds { return durationSeconds }
    if let distanceMeters, let speedMetersPerSecond, speedMetersPerSecond > 0 {
      return distanceMeters / speedMetersPerSecond
    }
    return nil
  }
}

/// What a model did where its published equation does not hold: a
/// published extension (Santee et al. 2001's downhill correction for
/// Pandolf), the equation's own domain (ACSM's level-ground cost for a
/// descent) or a floor at rest. The output's rate is the treated one; the
/// equation's own value is kept here, so the energy a treatment changed can
/// be counted.
public struct DomainTreatment: Sendable, Hashable {
  /// Stable identifier: `downhill-as-level`, `santee-2001-downhill`,
  /// `vertical-efficiency-extension`, `floored-at-rest`, `floored-at-standing`.
  public var code: String
  /// What was done instead of the equation, in a sentence.
  public var description: String
  /// The equation's kcal/min as published, before the treatment (negative
  /// where a descent drove it below zero).
  public var equationKilocaloriesPerMinute: Double

  public init(code: String, description: String, equationKilocaloriesPerMinute: Double) {
    self.code = code
    self.description = description
    self.equationKilocaloriesPerMinute = equationKilocaloriesPerMinute
  }
}

/// What a model predicts.
public struct ModelOutput: Sendable, Hashable {
  /// Gross oxygen uptake, mL/kg/min; nil for models that do not define it.
  public var vo2MillilitersPerKilogramPerMinute: Double?
  public var kilocaloriesPerMinute: Double?
  /// Total energy, when a duration or distance was given.
  public var energyKilocalories: Double?
  public var diagnostics: [Diagnostic]
  /// Mechanical power, W: measured (the power model) or predicted (a
  /// cycling power model); nil for models of metabolic rate alone.
  public var powerWatts: Double?
  /// Set when the input lay outside the equation's domain and the model
  /// costed it another, stated way; nil when the equation applied as
  /// published.
  public var treatment: DomainTreatment?

  public init(
    vo2MillilitersPerKilogramPerMinute: Double? = nil, kilocaloriesPerMinute: Double? = nil,
    energyKilocalories: Double? = nil, diagnostics: [Diagnostic] = [], treatment: DomainTreatment? = nil
  ) {
    self.vo2MillilitersPerKilogramPerMinute = vo2MillilitersPerKilogramPerMinute
    self.kilocaloriesPerMinute = kilocaloriesPerMinute
    self.energyKilocalories = energyKilocalories
    self.diagnostics = diagnostics
    self.treatment = treatment
  }

  /// Raises a rate below resting to resting (3.5 mL/kg/min): a metabolic
  /// rate is never below rest, let alone below zero. Keeps an earlier
  /// treatment's record of the equation's own value.
  mutating func floorAtRest(bodyMassKilograms mass: Double, durationSeconds: Double?, model: String) {
    guard let perMinute = kilocaloriesPerMinute, mass > 0 else { return }
    let rest = Oxygen.kilocaloriesPerMinute(
      vo2MillilitersPerKilogramPerMinute: Oxygen.restingMillilitersPerKilogramPerMinute,
      bodyMassKilograms: mass)
    guard perMinute < rest else { return }
    treatment = DomainTreatment(
      code: "floored-at-rest",
      description:
        "\(model) gives \(Fixed.format(perMinute, digits: 2)) kcal/min, below resting; costed at rest (3.5 mL/kg/min)",
      equationKilocaloriesPerMinute: treatment?.equationKilocaloriesPerMinute ?? perMinute)
    kilocaloriesPerMinute = rest
    if energyKilocalories != nil { energyKilocalories = durationSeconds.map { rest * $0 / 60 } }
    if vo2MillilitersPerKilogramPerMinute != nil {
      vo2MillilitersPerKilogramPerMinute = Oxygen.restingMillilitersPerKilogramPerMinute
    }
  }
}

/// What `models list` and `models explain` say of a model.
public struct ModelInfo: Sendable, Hashable {
  /// Stable kebab-case identifier used by the command line, the database
  /// and file names.
  public var id: String
  public var name: String
  /// The equation in plain text.
  public var equation: String
  /// Inputs with their units, as `speed (m/min)`.
  public var inputs: [String]
  /// Where the equation is valid.
  public var validRange: String
  public var citation: String
  /// Caveats a user should know.
  public var notes: String
  /// Whether the source states a range of validity (Cameron's does not).
  public var statesValidRange: Bool

  public init(
    id: String, name: String, equation: String, inputs: [String], validRange: String, citation: String,
    notes: String = "", statesValidRange: Bool = true
  ) {
    self.statesValidRange = statesValidRange
    self.id = id
    self.name = name
    self.equation = equation
    self.inputs = inputs
    self.validRange = validRange
    self.citation = citation
    self.notes = notes
  }
}

/// An energy-expenditure model implemented from its published equation.
public protocol EnergyModel: Sendable {
  var info: ModelInfo { get }
  /// Predicts energy use; throws `UsageError` when a required input is
  /// missing, and reports inputs outside the valid range as diagnostics.
  func evaluate(_ input: ModelInput) throws -> ModelOutput
}

/// Conversions shared by the oxygen-uptake models.
public enum Oxygen {
  /// kcal released per litre of oxygen consumed: 5 kcal/L, the value of the
  /// ACSM metabolic calculations used by the PEM thesis (L872-874).
  public static let kilocaloriesPerLiter = 5.0
  /// Resting oxygen uptake, 3.5 mL/kg/min (1 MET; PEM thesis L797).
  public static let restingMillilitersPerKilogramPerMinute = 3.5

  /// kcal/min = VO2 (mL/kg/min) x body mass (kg) / 1000 x 5 kcal/L.
  public static func kilocaloriesPerMinute(
    vo2MillilitersPerKilogramPerMinute vo2: Double, bodyMassKilograms: Double
  )
    -> Double
  {
    vo2 * bodyMassKilograms / 1000 * kilocaloriesPerLiter
  }
}

extension ModelInput {
  func required<T>(_ value: T?, _ inputs: ModelInputName..., for model: String) throws -> T {
    guard let value else { throw ModelError(model: model, .missing(inputs)) }
    return value
  }
}

extension ModelInput {
  /// Every subject value that is set, as named parameters: what a run
  /// records (and keys on), so that runs differing only in, say, age or sex
  /// are stored as two runs.
  public var subjectParameters: [NamedParameter] {
    let values: [(String, Double?, String)] = [
      ("body_mass_kg", bodyMassKilograms, "subject body mass"),
      ("age_years", ageYears, "subject age"),
      ("vo2max_ml_kg_min", vo2MaxMillilitersPerKilogramPerMinute, "subject VO2max"),
      ("heart_rate_bpm", heartRateBeatsPerMinute, "heart rate given for the subject"),
      ("resting_heart_rate_bpm", restingHeartRateBeatsPerMinute, "subject resting heart rate"),
      ("max_heart_rate_bpm", maximumHeartRateBeatsPerMinute, "subject maximal heart rate"),
      ("height_m", heightMeters, "subject height"),
      ("load_kg", loadKilograms, "load carried"),
      ("terrain_factor", terrainFactor, "terrain factor (Pandolf eta)"),
      ("met", metabolicEquivalent, "MET given"),
      ("kcal_per_step", kilocaloriesPerStep, "energy per step given"),
      ("stride_m", strideMeters, "stride length given"),
      ("step_rate_per_min", stepRatePerMinute, "step rate given"),
      ("step_height_m", stepHeightMeters, "step height given"),
      ("power_w", powerWatts, "power given"),
      (
        "mechanical_efficiency", mechanicalEfficiency,
        "efficiency of kinetic models, gross efficiency of power models"
      ),
      ("cda_m2", dragAreaSquareMeters, "drag area CdA"),
      ("crr", rollingResistanceCoefficient, "rolling-resistance coefficient"),
      ("air_density_kg_m3", airDensityKilogramsPerCubicMeter, "air density"),
      ("bike_mass_kg", equipmentMassKilograms, "mass of bicycle and gear"),
    ]
    var out: [NamedParameter] = []
    if let subjectID {
      out.append(NamedParameter(name: "subject_id", value: subjectID, meaning: "participant"))
    }
    for (name, value, meaning) in values {
      guard let value else { continue }
      out.append(NamedParameter(name: name, value: Fixed.shortest(value), meaning: meaning))
      if name == "age_years", let sex {
        out.append(NamedParameter(name: "sex", value: sex.rawValue, meaning: "subject sex"))
      }
    }
    if ageYears == nil, let sex {
      out.append(NamedParameter(name: "sex", value: sex.rawValue, meaning: "subject sex"))
    }
    return out
  }
}

extension ModelInput {
  /// A participant's values as the models take them: body mass, age, sex,
  /// height, VO2max, resting and maximal heart rate (not the id, which a
  /// caller names where it stores it); empty for no participant.
  public init(valuesOf subject: Subject?) {
    self.init(bodyMassKilograms: subject?.bodyMassKilograms)
    ageYears = subject?.ageYears
    sex = subject?.sex
    heightMeters = subject?.heightMeters
    vo2MaxMillilitersPerKilogramPerMinute = subject?.vo2MaxMillilitersPerKilogramPerMinute
    restingHeartRateBeatsPerMinute = subject?.restingHeartRateBeatsPerMinute
    maximumHeartRateBeatsPerMinute = subject?.maximumHeartRateBeatsPerMinute
  }
}
