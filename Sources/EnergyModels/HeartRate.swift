import EnergyLabCore

/// Keytel et al. 2005 energy expenditure from heart rate.
///
/// Without VO2max (kJ/min):
/// ```
/// male:   EE = -55.0969 + 0.6309 HR + 0.1988 W + 0.2017 A
/// female: EE = -20.4022 + 0.4472 HR - 0.1263 W + 0.074 A
/// ```
/// With VO2max (mL/kg/min):
/// ```
/// male:   EE = -95.7735 + 0.634 HR + 0.404 VO2max + 0.394 W + 0.271 A
/// female: EE = -59.3954 + 0.45 HR + 0.380 VO2max + 0.103 W + 0.274 A
/// ```
/// kcal/min = EE / 4.184. HR in beats/min, W body mass (kg), A age (years).
/// Derived from 115 adults (18-45 y, 47-120 kg) at steady states of 57-90 %
/// of maximal heart rate; a heart rate outside that band (HRmax = 208 - 0.7
/// x age, Tanaka et al. 2001) gives a diagnostic. Below that band the
/// negative intercepts give less than resting energy (for a 70 kg man of
/// 30, below rest under 64 bpm and below zero under 56): such a rate is
/// raised to rest,
/// 3.5 mL/kg/min (`floored-at-rest`). The female weight term is
/// negative: tools that add it overestimate women's energy.
/// Keytel LR, Goedecke JH, Noakes TD, et al. Prediction of energy expenditure
/// from heart rate monitoring during submaximal exercise. J Sports Sci
/// 2005;23(3):289-297.
public struct Keytel2005: EnergyModel {
  public init() {}

  /// The band of maximal heart rate the equations were derived over
  /// (57-90 %, Keytel et al. 2005 abstract).
  public static let validFractionOfMaximum = 0.57...0.90

  /// Age-predicted maximal heart rate, bpm: 208 - 0.7 x age (Tanaka, Monahan
  /// and Seals, J Am Coll Cardiol 2001;37:153-156).
  public static func maximumHeartRate(ageYears: Double) -> Double { 208 - 0.7 * ageYears }

  public let info = ModelInfo(
    id: "keytel-2005", name: "Keytel heart-rate equation",
    equation:
      "kJ/min: male -55.0969 + 0.6309*HR + 0.1988*W + 0.2017*A; female -20.4022 + 0.4472*HR - 0.1263*W + 0.074*A; with VO2max: male -95.7735 + 0.634*HR + 0.404*VO2max + 0.394*W + 0.271*A, female -59.3954 + 0.45*HR + 0.380*VO2max + 0.103*W + 0.274*A; kcal = kJ/4.184",
    inputs: [
      "heart rate HR (bpm)", "body mass W (kg)", "age A (years)", "sex", "VO2max (mL/kg/min, optional)",
    ],
    validRange: "steady submaximal exercise at 57-90 % of HRmax (208 - 0.7*age); adults 18-45 y",
    citation: "Keytel et al., J Sports Sci 2005;23(3):289-297")

  /// Energy expenditure in kJ/min.
  public static func kilojoulesPerMinute(
    heartRate hr: Double, bodyMassKilograms w: Double, ageYears a: Double, sex: Sex, vo2Max: Double?
  ) -> Double {
    switch (sex, vo2Max) {
    case (.male, nil): return -55.0969 + 0.6309 * hr + 0.1988 * w + 0.2017 * a
    case (.female, nil): return -20.4022 + 0.4472 * hr - 0.1263 * w + 0.074 * a
    case (.male, let v?): return -95.7735 + 0.634 * hr + 0.404 * v + 0.394 * w + 0.271 * a
    case (.female, let v?): return -59.3954 + 0.45 * hr + 0.380 * v + 0.103 * w + 0.274 * a
    }
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let hr = try input.required(input.heartRateBeatsPerMinute, .heartRate, for: info.id)
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let age = try input.required(input.ageYears, .age, for: info.id)
    let sex = try input.required(input.sex, .sex, for: info.id)
    let perMinute =
      Self.kilojoulesPerMinute(
        heartRate: hr, bodyMassKilograms: mass, ageYears: age, sex: sex,
        vo2Max: input.vo2MaxMillilitersPerKilogramPerMinute) / Units.kilojoulesPerKilocalorie
    return HeartRateChecks.output(
      perMinute: perMinute, heartRate: hr, ageYears: age, input: input, model: info.id
    ) {
      Self.kilojoulesPerMinute(
        heartRate: $0, bodyMassKilograms: mass, ageYears: age, sex: sex,
        vo2Max: input.vo2MaxMillilitersPerKilogramPerMinute) / Units.kilojoulesPerKilocalorie
    }
  }
}

/// The pound form of Keytel et al. 2005 (male, without VO2max) as printed in
/// the PEM thesis (L727-739), citing LIVESTRONG:
/// ```
/// C = (0.6309 H + 0.09036 W + 0.2017 A - 55.0969) x T / 4.184
/// ```
/// H heart rate (bpm), W body weight (lb), A age (years), T minutes. 0.09036
/// is 0.1988 / 2.2, so it agrees with the kilogram form to 0.2 % of the
/// weight term. The female form: 0.4472 H - 0.05741 W + 0.074 A - 20.4022,
/// with 0.05741 = 0.1263 / 2.2.
public struct Keytel2005Pounds: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "keytel-2005-lb", name: "Keytel heart-rate equation, pound form (PEM thesis)",
    equation:
      "kcal/min = (0.6309*H + 0.09036*W(lb) + 0.2017*A - 55.0969) / 4.184 (male); (0.4472*H - 0.05741*W(lb) + 0.074*A - 20.4022) / 4.184 (female)",
    inputs: [
      "heart rate H (bpm)", "body weight W (lb)", "age A (years)",
      "sex (default male, the form the thesis prints)",
    ],
    validRange: "as keytel-2005",
    citation: "Keytel et al. 2005 as printed in the PEM thesis L727-739 (LIVESTRONG)")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let hr = try input.required(input.heartRateBeatsPerMinute, .heartRate, for: info.id)
    let pounds = Units.pounds(
      fromKilograms: try input.required(input.bodyMassKilograms, .mass, for: info.id))
    let age = try input.required(input.ageYears, .age, for: info.id)
    let sex = input.sex ?? .male
    func perMinute(_ hr: Double) -> Double {
      switch sex {
      case .male:
        return (0.6309 * hr + 0.09036 * pounds + 0.2017 * age - 55.0969) / Units.kilojoulesPerKilocalorie
      case .female:
        return (0.4472 * hr - 0.05741 * pounds + 0.074 * age - 20.4022) / Units.kilojoulesPerKilocalorie
      }
    }
    return HeartRateChecks.output(
      perMinute: perMinute(hr), heartRate: hr, ageYears: age, input: input, model: info.id,
      equation: perMinute)
  }
}

enum HeartRateChecks {
  static func diagnostics(heartRate: Double, ageYears: Double, perMinute: Double) -> [Diagnostic] {
    var out: [Diagnostic] = []
    let maximum = Keytel2005.maximumHeartRate(ageYears: ageYears)
    let band = Keytel2005.validFractionOfMaximum
    if !band.contains(heartRate / maximum) {
      out.append(
        Diagnostic(
          code: "heart-rate-outside-valid-range",
          message:
            "\(Fixed.format(heartRate, digits: 0)) bpm is \(Fixed.format(100 * heartRate / maximum, digits: 0)) % of the age-predicted maximum \(Fixed.format(maximum, digits: 0)) bpm; the equations cover 57-90 %"
        ))
    }
    return out
  }

  /// The output. Below the equations' domain, 57 % of the age-predicted
  /// maximum (the lowest intensity of Keytel et al.'s data), heart rate no
  /// longer tracks energy by the equation, and the time is costed by the
  /// subject's resting heart rate where it is known:
  /// - `resting-hr-blend`: at or below the resting heart rate HRrest, rest
  ///   (3.5 mL/kg/min); between HRrest and the domain's floor HRf = 0.57
  ///   HRmax, the straight line from rest at HRrest to the equation's value
  ///   at HRf, `rest + (E(HRf) - rest) (HR - HRrest) / (HRf - HRrest)`.
  ///   The rule Hexoskin documents for Keytel's equation ("Calculation of
  ///   the energy expenditure": Mifflin-St Jeor below HRrest, the weighted
  ///   sum between HRrest and 0.6 HRmax), here with Keytel's own floor and
  ///   1 MET as rest. On the 21 adults of `Datasets/treadmill-enmo-vo2`
  ///   (resting heart rate from each one's rest stage), the 37 stages below
  ///   the floor: bias -0.41 kcal/min (SD 1.64) against -1.65 (SD 1.76)
  ///   costed at rest and -0.45 (SD 2.50) by the equation itself.
  /// - `flex-hr-rest`, without a resting heart rate: costed at rest, as the
  ///   FLEX-HR method costs time below its flex heart rate (Ceesay et al.
  ///   1989: resting energy below the flex point), with the floor as the
  ///   flex point.
  /// Elsewhere a rate below rest is raised to rest (`floored-at-rest`).
  /// `equation` is the model's kcal/min at a heart rate.
  static func output(
    perMinute: Double, heartRate: Double, ageYears: Double, input: ModelInput, model: String,
    equation: (Double) -> Double
  ) -> ModelOutput {
    var output = ModelOutput(
      kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 },
      diagnostics: diagnostics(heartRate: heartRate, ageYears: ageYears, perMinute: perMinute))
    let mass = input.bodyMassKilograms ?? .nan
    let maximum = Keytel2005.maximumHeartRate(ageYears: ageYears)
    if heartRate / maximum < Keytel2005.validFractionOfMaximum.lowerBound, mass > 0 {
      let rest = Oxygen.kilocaloriesPerMinute(
        vo2MillilitersPerKilogramPerMinute: Oxygen.restingMillilitersPerKilogramPerMinute,
        bodyMassKilograms: mass)
      let floor = Keytel2005.validFractionOfMaximum.lowerBound * maximum
      let below = "\(Fixed.format(heartRate, digits: 0)) bpm is under 57 % of the age-predicted maximum"
      let rate: Double
      if let resting = input.restingHeartRateBeatsPerMinute, resting > 0, resting < floor {
        let top = max(equation(floor), rest)
        rate = rest + (top - rest) * min(max((heartRate - resting) / (floor - resting), 0), 1)
        output.treatment = DomainTreatment(
          code: "resting-hr-blend",
          description:
            "\(below) (\(Fixed.format(floor, digits: 0)) bpm), below \(model)'s data; costed on the line from rest (3.5 mL/kg/min) at the resting heart rate \(Fixed.format(resting, digits: 0)) bpm to the equation's \(Fixed.format(top, digits: 2)) kcal/min at \(Fixed.format(floor, digits: 0)) bpm, as Hexoskin's documented rule blends rest and Keytel",
          equationKilocaloriesPerMinute: perMinute)
      } else {
        rate = rest
        output.treatment = DomainTreatment(
          code: "flex-hr-rest",
          description:
            "\(below), below \(model)'s data, where heart rate does not track energy; without a resting heart rate, costed at rest (3.5 mL/kg/min), as FLEX-HR costs time below its flex heart rate (Ceesay et al. 1989)",
          equationKilocaloriesPerMinute: perMinute)
      }
      output.kilocaloriesPerMinute = rate
      output.energyKilocalories = input.effectiveDurationSeconds.map { rate * $0 / 60 }
      return output
    }
    output.floorAtRest(bodyMassKilograms: mass, durationSeconds: input.effectiveDurationSeconds, model: model)
    return output
  }
}

/// Oxygen uptake from heart rate by the heart-rate-reserve method: the
/// share of heart-rate reserve is the share of VO2 reserve.
///
/// ```
/// %HRR  = 100 (HR - HRrest) / (HRmax - HRrest)
/// %VO2R = (%HRR - b) / m
/// VO2   = VO2rest + %VO2R / 100 x (VO2max - VO2rest)      mL/kg/min
/// ```
/// VO2rest = 3.5 mL/kg/min (1 MET); HRrest the subject's resting heart
/// rate; HRmax the subject's where given, else 208 - 0.7 x age (Tanaka et
/// al. 2001). Two published lines:
/// - `swain-1997-hrr`: m = 1, b = 0, the identity: Swain & Leutholtz found
///   %HRR equal to %VO2R, not to %VO2max, in cycle ergometry (Swain DP,
///   Leutholtz BC. Heart rate reserve is equivalent to %VO2 reserve, not to
///   %VO2max. Med Sci Sports Exerc 1997;29(3):410-414); the form ACSM
///   prescribes with.
/// - `swain-1998-treadmill`: m = 1.03, b = 1.5, the mean regression of 50
///   adults' Bruce treadmill tests (%HRR = 1.03 %VO2R + 1.5; Swain DP,
///   Leutholtz BC, King ME, Haas LA, Branch JD. Relationship between %
///   heart rate reserve and % VO2 reserve in treadmill exercise. Med Sci
///   Sports Exerc 1998;30(2):318-321).
/// A heart rate below rest gives less than resting VO2: raised to rest
/// (`floored-at-rest`). A heart rate above HRmax gives a diagnostic.
/// kcal/min at 5 kcal per litre of oxygen.
public struct SwainHeartRateReserve: EnergyModel {
  public enum Line: String, Sendable, Hashable {
    case identity1997
    case treadmill1998
  }

  public let line: Line

  public init(line: Line) { self.line = line }

  /// Slope m and intercept b of %HRR = m %VO2R + b.
  public var slopeAndIntercept: (slope: Double, intercept: Double) {
    switch line {
    case .identity1997: return (1, 0)
    case .treadmill1998: return (1.03, 1.5)
    }
  }

  public var info: ModelInfo {
    switch line {
    case .identity1997:
      return ModelInfo(
        id: "swain-1997-hrr", name: "Heart-rate reserve as VO2 reserve (identity)",
        equation:
          "VO2 = 3.5 + (HR - HRrest)/(HRmax - HRrest) * (VO2max - 3.5) (mL/kg/min); HRmax = 208 - 0.7*age unless given",
        inputs: [
          "heart rate HR (bpm)", "resting heart rate HRrest (bpm)", "VO2max (mL/kg/min)",
          "maximal heart rate HRmax (bpm) or age (years)", "body mass (kg)",
        ],
        validRange: "steady exercise between rest and maximum (cycle ergometry, adults)",
        citation: "Swain & Leutholtz, Med Sci Sports Exerc 1997;29(3):410-414")
    case .treadmill1998:
      return ModelInfo(
        id: "swain-1998-treadmill", name: "Heart-rate reserve as VO2 reserve (treadmill line)",
        equation:
          "%VO2R = (%HRR - 1.5)/1.03; VO2 = 3.5 + %VO2R/100 * (VO2max - 3.5) (mL/kg/min); HRmax = 208 - 0.7*age unless given",
        inputs: [
          "heart rate HR (bpm)", "resting heart rate HRrest (bpm)", "VO2max (mL/kg/min)",
          "maximal heart rate HRmax (bpm) or age (years)", "body mass (kg)",
        ],
        validRange: "treadmill exercise between rest and maximum (Bruce protocol, 50 adults)",
        citation: "Swain et al., Med Sci Sports Exerc 1998;30(2):318-321")
    }
  }

  /// Gross VO2, mL/kg/min.
  public func vo2(heartRate hr: Double, resting: Double, maximum: Double, vo2Max: Double) -> Double {
    let (m, b) = slopeAndIntercept
    let reserveShare = (100 * (hr - resting) / (maximum - resting) - b) / m / 100
    return Oxygen.restingMillilitersPerKilogramPerMinute
      + reserveShare * (vo2Max - Oxygen.restingMillilitersPerKilogramPerMinute)
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let hr = try input.required(input.heartRateBeatsPerMinute, .heartRate, for: info.id)
    let resting = try input.required(input.restingHeartRateBeatsPerMinute, .restingHeartRate, for: info.id)
    let vo2Max = try input.required(input.vo2MaxMillilitersPerKilogramPerMinute, .vo2Max, for: info.id)
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let maximum: Double
    if let given = input.maximumHeartRateBeatsPerMinute {
      maximum = given
    } else {
      let age = try input.required(input.ageYears, .maximumHeartRate, .age, for: info.id)
      maximum = Keytel2005.maximumHeartRate(ageYears: age)
    }
    guard maximum > resting else {
      throw ModelError(
        model: info.id,
        .invalid(
          .maximumHeartRate, value: maximum,
          expected: "above the resting heart rate \(Fixed.shortest(resting)) bpm"))
    }
    guard vo2Max > Oxygen.restingMillilitersPerKilogramPerMinute else {
      throw ModelError(model: info.id, .invalid(.vo2Max, value: vo2Max, expected: "above 3.5 mL/kg/min"))
    }
    var diagnostics: [Diagnostic] = []
    if hr > maximum {
      diagnostics.append(
        Diagnostic(
          code: "heart-rate-outside-valid-range",
          message:
            "\(Fixed.format(hr, digits: 0)) bpm is above the maximal heart rate \(Fixed.format(maximum, digits: 0)) bpm\(input.maximumHeartRateBeatsPerMinute == nil ? " (208 - 0.7 x age)" : ""): VO2 above VO2max"
        ))
    }
    let vo2 = vo2(heartRate: hr, resting: resting, maximum: maximum, vo2Max: vo2Max)
    let perMinute = Oxygen.kilocaloriesPerMinute(
      vo2MillilitersPerKilogramPerMinute: vo2, bodyMassKilograms: mass)
    var output = ModelOutput(
      vo2MillilitersPerKilogramPerMinute: vo2, kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 }, diagnostics: diagnostics
    )
    output.floorAtRest(
      bodyMassKilograms: mass, durationSeconds: input.effectiveDurationSeconds, model: info.id)
    return output
  }
}
