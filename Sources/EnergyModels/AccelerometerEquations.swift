import EnergyLabCore
import Foundation

/// Where an accelerometer was worn when its equation was derived.
public enum AccelerometerSite: String, Sendable, Hashable {
  case hip
  case wrist = "non-dominant wrist"
}

/// Who an equation was derived on.
public enum EquationPopulation: String, Sendable, Hashable {
  case adult
  case child
}

/// Oxygen uptake from ENMO, linear (Hildebrand et al. 2014):
///
/// ```
/// VO2 (mL/kg/min) = intercept + slope x ENMO (mg)
/// kcal/min = VO2 x body mass (kg) / 1000 x 5
/// ```
///
/// | population | device | site | intercept | slope |
/// |---|---|---|---|---|
/// | adult | ActiGraph GT3X+ | hip | 6.67 | 0.0554 |
/// | adult | GENEActiv | hip | 6.86 | 0.053 |
/// | adult | ActiGraph GT3X+ | wrist | 7.28 | 0.032 |
/// | adult | GENEActiv | wrist | 7.49 | 0.0323 |
/// | child | ActiGraph GT3X+ | hip | 10.03 | 0.0559 |
/// | child | GENEActiv | hip | 10.39 | 0.0498 |
/// | child | ActiGraph GT3X+ | wrist | 10.83 | 0.0356 |
/// | child | GENEActiv | wrist | 11.16 | 0.0357 |
///
/// ENMO is the Euclidean norm of the acceleration minus 1 g, negatives set
/// to zero, averaged over the epoch, in milli-g. The lines agree with the
/// paper's own cut-points: every adult moderate cut-point gives 10.5
/// mL/kg/min (3 MET) and every vigorous one 21 (6 MET). Fitted on laboratory
/// activities from sitting to running; at ENMO 0 the intercept (about
/// 1.9 MET for adults) is above rest, so sedentary time is overestimated,
/// as the paper's sedentary threshold warns: below it (Hildebrand et al.
/// 2017: 47.4 mg adult ActiGraph hip) a diagnostic says so. Never below
/// rest (the intercepts are above 3.5).
///
/// Hildebrand et al. 2014, Med Sci Sports Exerc 46(9):1816-1824 (with van
/// Hees, Hansen and Ekelund).
public struct Hildebrand2014: EnergyModel {
  public var population: EquationPopulation
  public var device: String
  public var site: AccelerometerSite
  public var intercept: Double
  public var slope: Double
  /// ENMO below which the time is sedentary (Hildebrand et al. 2017), mg.
  public var sedentaryMilligravity: Double

  public static let all: [Hildebrand2014] = [
    .init(.adult, "actigraph", .hip, 6.67, 0.0554, 47.4), .init(.adult, "geneactiv", .hip, 6.86, 0.053, 46.9),
    .init(.adult, "actigraph", .wrist, 7.28, 0.032, 44.8),
    .init(.adult, "geneactiv", .wrist, 7.49, 0.0323, 45.8),
    .init(.child, "actigraph", .hip, 10.03, 0.0559, 63.3),
    .init(.child, "geneactiv", .hip, 10.39, 0.0498, 64.1),
    .init(.child, "actigraph", .wrist, 10.83, 0.0356, 35.6),
    .init(.child, "geneactiv", .wrist, 11.16, 0.0357, 56.3),
  ]

  init(
    _ population: EquationPopulation, _ device: String, _ site: AccelerometerSite, _ intercept: Double,
    _ slope: Double, _ sedentary: Double
  ) {
    self.population = population
    self.device = device
    self.site = site
    self.intercept = intercept
    self.slope = slope
    sedentaryMilligravity = sedentary
  }

  public var info: ModelInfo {
    let where_ = site == .hip ? "hip" : "wrist"
    return ModelInfo(
      id: "hildebrand-2014-\(device)-\(where_)-\(population.rawValue)",
      name:
        "Hildebrand 2014, \(device == "actigraph" ? "ActiGraph GT3X+" : "GENEActiv"), \(site.rawValue), \(population == .adult ? "adults" : "children")",
      equation:
        "VO2 = \(Fixed.shortest(intercept)) + \(Fixed.shortest(slope)) * ENMO (mg); kcal/min = VO2*kg/1000*5",
      inputs: ["ENMO (mg, epoch mean)", "body mass (kg)"],
      validRange:
        "\(population == .adult ? "adults" : "children 7-11 years"), \(device == "actigraph" ? "ActiGraph GT3X+" : "GENEActiv") on the \(site.rawValue); laboratory activities from sitting to running; above \(Fixed.shortest(sedentaryMilligravity)) mg (below it: sedentary, overestimated)",
      citation: "Hildebrand et al., Med Sci Sports Exerc 2014;46(9):1816-1824",
      notes:
        "the device and wear site of the equation's own recordings; another device or site is a diagnostic")
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let enmo = try input.required(input.enmoMilligravity, .enmo, for: info.id)
    guard enmo >= 0 else {
      throw ModelError(model: info.id, .invalid(.enmo, value: enmo, expected: "of at least 0 mg"))
    }
    var diagnostics: [Diagnostic] = []
    if enmo < sedentaryMilligravity {
      diagnostics.append(
        Diagnostic(
          code: "enmo-sedentary",
          message:
            "ENMO \(Fixed.format(enmo, digits: 1)) mg is under the sedentary threshold \(Fixed.shortest(sedentaryMilligravity)) mg (Hildebrand et al. 2017), where the equation's intercept overestimates rest"
        ))
    }
    return try ACSMCommon.output(
      vo2: intercept + slope * enmo, input: input, diagnostics: diagnostics, model: info.id)
  }
}

/// Oxygen uptake from wrist ENMO, non-linear (the Hildebrand non-linear
/// model of Ellingson et al. 2017):
///
/// ```
/// VO2 (mL/kg/min) = 0.901 x ENMO (mg) ^ 0.534
/// ```
///
/// Adults 18-40 years, ActiGraph GT3X+ on the wrist, laboratory activities;
/// ENMO in mg. The power law falls below rest under about 13 mg (3.5
/// mL/kg/min): there it is costed at rest (`floored-at-rest`).
///
/// Ellingson et al. 2017, Physiol Meas 38:1045-1060.
public struct Ellingson2017: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "ellingson-2017-wrist",
    name: "Ellingson 2017 non-linear, wrist ENMO",
    equation: "VO2 = 0.901 * ENMO(mg)^0.534; kcal/min = VO2*kg/1000*5; never below rest",
    inputs: ["ENMO (mg, epoch mean)", "body mass (kg)"],
    validRange: "adults 18-40 years, ActiGraph GT3X+ on the wrist, laboratory activities",
    citation: "Ellingson et al., Physiol Meas 2017;38:1045-1060",
    notes: "below about 13 mg the power law is under rest and is costed at rest")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let enmo = try input.required(input.enmoMilligravity, .enmo, for: info.id)
    guard enmo >= 0 else {
      throw ModelError(model: info.id, .invalid(.enmo, value: enmo, expected: "of at least 0 mg"))
    }
    return try ACSMCommon.output(vo2: 0.901 * pow(enmo, 0.534), input: input, diagnostics: [], model: info.id)
  }
}

/// METs from ActiGraph counts per minute, linear regressions of the
/// treadmill or laboratory studies that derived them:
///
/// ```
/// Freedson et al. 1998 (vertical axis):  MET = 1.439008 + 0.000795 x cpm
/// Sasaki et al. 2011 (vector magnitude): MET = 0.668876 + 0.000863 x VM3 cpm
/// Santos-Lozano et al. 2013 (VM3):
///   youth        MET = 1.546618 + 0.000658 x VM
///   adults       MET = 2.8323 + 0.00054 x VM - 0.05912 x mass (kg) + 1.4410 x G
///   older adults MET = 2.5878 + 0.00047 x VM - 0.6453 x G      (G = 1 female, 2 male)
/// kcal/min = MET x 3.5 x body mass / 1000 x 5
/// ```
///
/// 60 s epochs, hip. Never below rest: a MET under 1 (Sasaki's intercept is
/// 0.67) is costed at rest (`floored-at-rest`).
public struct CountsMET: EnergyModel {
  public enum Equation: String, Sendable, CaseIterable {
    case freedson1998 = "freedson-1998"
    case sasaki2011 = "sasaki-2011-vm3"
    case santosLozanoYouth = "santos-lozano-2013-youth"
    case santosLozanoAdult = "santos-lozano-2013-adult"
    case santosLozanoOlder = "santos-lozano-2013-older"
  }

  public var equation: Equation

  public init(_ equation: Equation) { self.equation = equation }

  public var info: ModelInfo {
    switch equation {
    case .freedson1998:
      return ModelInfo(
        id: equation.rawValue, name: "Freedson 1998, vertical-axis counts",
        equation: "MET = 1.439008 + 0.000795 * cpm (vertical); kcal/min = MET*3.5*kg/1000*5",
        inputs: ["vertical-axis counts per minute", "body mass (kg)"],
        validRange: "adults, treadmill walking and running; ActiGraph (CSA 7164) on the hip, 60 s epochs",
        citation: "Freedson, Melanson & Sirard, Med Sci Sports Exerc 1998;30(5):777-781")
    case .sasaki2011:
      return ModelInfo(
        id: equation.rawValue, name: "Sasaki 2011, vector-magnitude counts",
        equation: "MET = 0.668876 + 0.000863 * VM3 cpm; kcal/min = MET*3.5*kg/1000*5; never below rest",
        inputs: ["vector-magnitude counts per minute", "body mass (kg)"],
        validRange: "adults, treadmill walking and running; ActiGraph GT3X on the hip, 60 s epochs",
        citation: "Sasaki, John & Freedson, J Sci Med Sport 2011;14(5):411-416")
    case .santosLozanoYouth, .santosLozanoAdult, .santosLozanoOlder:
      let who =
        equation == .santosLozanoYouth ? "youth" : equation == .santosLozanoAdult ? "adults" : "older adults"
      let text =
        equation == .santosLozanoYouth
        ? "MET = 1.546618 + 0.000658 * VM"
        : equation == .santosLozanoAdult
          ? "MET = 2.8323 + 0.00054 * VM - 0.05912 * kg + 1.4410 * G (G 1 female, 2 male)"
          : "MET = 2.5878 + 0.00047 * VM - 0.6453 * G (G 1 female, 2 male)"
      return ModelInfo(
        id: equation.rawValue, name: "Santos-Lozano 2013, vector-magnitude counts, \(who)",
        equation: "\(text); kcal/min = MET*3.5*kg/1000*5; never below rest",
        inputs: ["vector-magnitude counts per minute", "body mass (kg)"]
          + (equation == .santosLozanoYouth ? [] : ["sex"]),
        validRange: "\(who); ActiGraph GT3X on the hip, 60 s epochs, laboratory activities",
        citation: "Santos-Lozano et al., Int J Sports Med 2013;34(11):975-982")
    }
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let met: Double
    switch equation {
    case .freedson1998:
      met =
        1.439008 + 0.000795
        * (try input.required(input.verticalCountsPerMinute, .verticalCounts, for: info.id))
    case .sasaki2011:
      met =
        0.668876 + 0.000863
        * (try input.required(input.vectorMagnitudeCountsPerMinute, .vectorMagnitudeCounts, for: info.id))
    case .santosLozanoYouth:
      met =
        1.546618 + 0.000658
        * (try input.required(input.vectorMagnitudeCountsPerMinute, .vectorMagnitudeCounts, for: info.id))
    case .santosLozanoAdult, .santosLozanoOlder:
      let vm = try input.required(input.vectorMagnitudeCountsPerMinute, .vectorMagnitudeCounts, for: info.id)
      let g: Double = try input.required(input.sex, .sex, for: info.id) == .male ? 2 : 1
      if equation == .santosLozanoAdult {
        let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
        met = 2.8323 + 0.00054 * vm - 0.05912 * mass + 1.4410 * g
      } else {
        met = 2.5878 + 0.00047 * vm - 0.6453 * g
      }
    }
    return try ACSMCommon.output(
      vo2: met * Oxygen.restingMillilitersPerKilogramPerMinute, input: input, diagnostics: [], model: info.id)
  }
}

/// Child-METs from ActiGraph counts per 5 s at the wrist, for youth
/// (Crouter et al. 2015):
///
/// ```
/// vertical axis (VA):      counts/5 s <= 35:  1 child-MET
///                          otherwise          child-METs = 1.592 + 0.0039 x counts/5 s
/// vector magnitude (VM):   counts/5 s <= 100: 1 child-MET
///                          otherwise          child-METs = 1.475 + 0.0025 x counts/5 s
/// counts/5 s = counts per minute x 5 / 60 (the equation's own epoch is 5 s)
/// kcal/min = child-METs x 3.5 x body mass (kg) / 1000 x 5
/// ```
///
/// 181 youth aged 8-15 years (mean 12.0), ActiGraph GT3X or GT3X+ on the
/// dominant wrist, 5 s epochs, a Cosmed K4b2 as the criterion. A
/// child-MET is a multiple of the child's own measured resting VO2, not of
/// 3.5 mL/kg/min; without that measurement the adult 3.5 is taken, which
/// underestimates a child's energy (children rest above 3.5 mL/kg/min).
/// At or below the sedentary cut-point the model gives rest (1 child-MET),
/// so it never goes below rest.
///
/// Crouter SE, Flynn JI, Bassett DR Jr. Estimating physical activity in
/// youth using a wrist accelerometer. Med Sci Sports Exerc
/// 2015;47(5):944-951.
public struct Crouter2015: EnergyModel {
  public enum Axis: String, Sendable, CaseIterable {
    case vertical = "va"
    case vectorMagnitude = "vm"
  }

  public var axis: Axis

  public init(_ axis: Axis) { self.axis = axis }

  /// Counts per 5 s at or below which the time is sedentary (1 child-MET).
  public var sedentaryCountsPer5Seconds: Double { axis == .vertical ? 35 : 100 }
  public var intercept: Double { axis == .vertical ? 1.592 : 1.475 }
  public var slope: Double { axis == .vertical ? 0.0039 : 0.0025 }

  public var info: ModelInfo {
    let what = axis == .vertical ? "vertical-axis" : "vector-magnitude"
    return ModelInfo(
      id: "crouter-2015-wrist-\(axis.rawValue)",
      name: "Crouter 2015, \(what) counts per 5 s, youth, wrist",
      equation:
        "child-METs = 1 if counts/5s <= \(Fixed.shortest(sedentaryCountsPer5Seconds)), else \(Fixed.shortest(intercept)) + \(Fixed.shortest(slope)) * counts/5s; kcal/min = METs*3.5*kg/1000*5",
      inputs: ["\(what) counts per minute (taken per 5 s: cpm*5/60)", "body mass (kg)"],
      validRange:
        "youth 8-15 years; ActiGraph GT3X/GT3X+ on the dominant wrist; 5 s epochs; structured and free-living activities",
      citation: "Crouter, Flynn & Bassett, Med Sci Sports Exerc 2015;47(5):944-951",
      notes:
        "child-METs are multiples of the child's measured resting VO2; 3.5 mL/kg/min is taken for it here, which underestimates a child's energy"
    )
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let perMinute =
      axis == .vertical
      ? try input.required(input.verticalCountsPerMinute, .verticalCounts, for: info.id)
      : try input.required(input.vectorMagnitudeCountsPerMinute, .vectorMagnitudeCounts, for: info.id)
    guard perMinute >= 0 else {
      throw ModelError(
        model: info.id,
        .invalid(
          axis == .vertical ? .verticalCounts : .vectorMagnitudeCounts, value: perMinute,
          expected: "of at least 0 counts per minute"))
    }
    let per5 = perMinute * 5 / 60
    let met = per5 <= sedentaryCountsPer5Seconds ? 1 : intercept + slope * per5
    return try ACSMCommon.output(
      vo2: met * Oxygen.restingMillilitersPerKilogramPerMinute, input: input, diagnostics: [], model: info.id)
  }
}

/// METs from ActiGraph vertical-axis counts per 10 s at the hip, the
/// refined two-regression model (Crouter et al. 2010):
///
/// ```
/// c  = counts per 10 s (counts per minute / 6)
/// CV = for each of the six windows of six consecutive 10 s epochs that
///      hold the epoch, SD / mean x 100 of their counts (SD with n - 1);
///      the lowest of them
/// c <= 8:              1.0 MET
/// c > 8 and CV <= 10:  MET = 2.294275 x exp(0.00084679 x c)          (walking, running)
/// c > 8 and CV > 10:   MET = 0.749395 + 0.716431 ln c - 0.179874 (ln c)^2
///                            + 0.033173 (ln c)^3                     (intermittent activity)
/// kcal/min = MET x 3.5 x body mass (kg) / 1000 x 5
/// ```
///
/// Adults, ActiGraph GT1M on the hip, 10 s epochs, structured activities
/// from sitting to running. The CV comes from the recording's sequence of
/// epochs (`AccelEquation` computes it); the model takes it as an input.
/// Never below rest (1 MET at or below 8 counts; both regressions are
/// above 1 MET over c > 8).
///
/// Crouter SE, Kuffel E, Haas JD, Frongillo EA, Bassett DR Jr. Refined
/// two-regression model for the ActiGraph accelerometer. Med Sci Sports
/// Exerc 2010;42(5):1029-1037.
public struct Crouter2010Refined: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "crouter-2010-refined",
    name: "Crouter 2010 refined two-regression model, vertical counts per 10 s",
    equation:
      "c = counts/10s; MET = 1 if c <= 8; 2.294275*exp(0.00084679*c) if CV <= 10 %; else 0.749395 + 0.716431 ln c - 0.179874 (ln c)^2 + 0.033173 (ln c)^3; kcal/min = MET*3.5*kg/1000*5",
    inputs: [
      "vertical-axis counts per minute (taken per 10 s: cpm/6)",
      "lowest CV of the six 60 s windows holding the 10 s epoch (%)", "body mass (kg)",
    ],
    validRange:
      "adults; ActiGraph GT1M on the hip; 10 s epochs; structured activities from sitting to running",
    citation: "Crouter et al., Med Sci Sports Exerc 2010;42(5):1029-1037",
    notes:
      "the CV is that of the recording's own 10 s counts, computed when the model is applied to a recording")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let perMinute = try input.required(input.verticalCountsPerMinute, .verticalCounts, for: info.id)
    guard perMinute >= 0 else {
      throw ModelError(
        model: info.id,
        .invalid(.verticalCounts, value: perMinute, expected: "of at least 0 counts per minute"))
    }
    let c = perMinute / 6
    let met: Double
    if c <= 8 {
      met = 1
    } else {
      let cv = try input.required(input.countsCoefficientOfVariationPercent, .countsVariation, for: info.id)
      guard cv >= 0 else {
        throw ModelError(model: info.id, .invalid(.countsVariation, value: cv, expected: "of at least 0 %"))
      }
      if cv <= 10 {
        met = 2.294275 * exp(0.00084679 * c)
      } else {
        let l = log(c)
        met = 0.749395 + 0.716431 * l - 0.179874 * l * l + 0.033173 * l * l * l
      }
    }
    return try ACSMCommon.output(
      vo2: met * Oxygen.restingMillilitersPerKilogramPerMinute, input: input, diagnostics: [], model: info.id)
  }
}
