import EnergyLabCore

/// Physical-activity intensity classes, bounded at 1.5, 3 and 6 MET
/// (Pate et al. 2008; Ainsworth et al. 2011).
public enum IntensityClass: String, Sendable, Hashable, CaseIterable, Codable {
  case sedentary
  case light
  case moderate
  case vigorous
}

/// Published cut-points that map an epoch's ENMO (mg) or activity counts
/// (counts per minute) to an intensity class. The lower bounds of light,
/// moderate and vigorous are given; below light is sedentary.
public struct CutPoints: Sendable, Hashable {
  public enum Metric: String, Sendable, Hashable {
    case enmoMilliG = "ENMO (mg)"
    case countsPerMinute = "axis-1 counts/min"
  }

  public let id: String
  public let metric: Metric
  public let light: Double
  public let moderate: Double
  public let vigorous: Double
  public let citation: String

  public func classify(_ value: Double) -> IntensityClass {
    value >= vigorous ? .vigorous : value >= moderate ? .moderate : value >= light ? .light : .sedentary
  }

  /// Hildebrand et al. 2014, Med Sci Sports Exerc 46:1816 (adults,
  /// non-dominant wrist, ActiGraph GT3X+), with the light bound of
  /// Hildebrand et al. 2017, Scand J Med Sci Sports 27:1814.
  public static let hildebrandWristActiGraph = CutPoints(
    id: "hildebrand-wrist-actigraph", metric: .enmoMilliG, light: 44.8, moderate: 100.6, vigorous: 428.8,
    citation: "Hildebrand et al. 2014 MSSE 46:1816; 2017 SJMSS 27:1814 (adult wrist, ActiGraph)")
  /// As above, GENEActiv on the wrist.
  public static let hildebrandWristGENEActiv = CutPoints(
    id: "hildebrand-wrist-geneactiv", metric: .enmoMilliG, light: 45.8, moderate: 93.2, vigorous: 418.3,
    citation: "Hildebrand et al. 2014 MSSE 46:1816; 2017 SJMSS 27:1814 (adult wrist, GENEActiv)")
  /// As above, ActiGraph on the hip.
  public static let hildebrandHipActiGraph = CutPoints(
    id: "hildebrand-hip-actigraph", metric: .enmoMilliG, light: 47.4, moderate: 69.1, vigorous: 258.7,
    citation: "Hildebrand et al. 2014 MSSE 46:1816; 2017 SJMSS 27:1814 (adult hip, ActiGraph)")
  /// GGIR's default thresholds (threshold.lig/mod/vig = 40, 100, 400 mg).
  public static let ggirDefault = CutPoints(
    id: "ggir-default", metric: .enmoMilliG, light: 40, moderate: 100, vigorous: 400,
    citation: "GGIR defaults threshold.lig = 40, threshold.mod = 100, threshold.vig = 400 mg")
  /// Freedson et al. 1998, Med Sci Sports Exerc 30:777 (hip ActiGraph,
  /// axis-1 counts/min: moderate 1952, vigorous 5725), with sedentary
  /// below 100 counts/min (Matthews et al. 2008, Am J Epidemiol 167:875).
  public static let freedson1998 = CutPoints(
    id: "freedson-1998", metric: .countsPerMinute, light: 100, moderate: 1952, vigorous: 5725,
    citation: "Freedson et al. 1998 MSSE 30:777; sedentary < 100 cpm, Matthews et al. 2008 AJE 167:875")

  public static let all = [
    hildebrandWristActiGraph, hildebrandWristGENEActiv, hildebrandHipActiGraph, ggirDefault, freedson1998,
  ]

  public static func named(_ id: String) -> CutPoints? { all.first { $0.id == id } }
}
