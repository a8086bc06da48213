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
///
/// Each set was published for one epoch length, `publishedEpochSeconds`,
/// and holds there only: counts summed over 5 s and multiplied by 12 are
/// far more variable than counts of a whole minute: a 5 s burst of 500
/// counts (6000 counts/min) is vigorous on its own, and light as the 500
/// counts of an otherwise still minute. ENMO is a mean, so its cut-points are
/// bounded in mg whatever the epoch, yet its spread also shrinks as the
/// epoch grows. Classes and minutes come from epochs of the published
/// length unless another is asked for.
public struct CutPoints: Sendable, Hashable {
  public enum Metric: String, Sendable, Hashable {
    case enmoMilliG = "ENMO (mg)"
    case countsPerMinute = "axis-1 counts/min"
  }

  public let id: String
  public let metric: Metric
  /// The epoch length the bounds were published for, s.
  public let publishedEpochSeconds: Double
  public let light: Double
  public let moderate: Double
  public let vigorous: Double
  public let citation: String

  /// The class of an epoch's value in the set's metric (mg of ENMO, or
  /// counts per minute):
  ///
  /// ```
  /// vigorous   if value >= vigorous
  /// moderate   if moderate <= value < vigorous
  /// light      if light <= value < moderate
  /// sedentary  if value < light
  /// ```
  public func classify(_ value: Double) -> IntensityClass {
    value >= vigorous ? .vigorous : value >= moderate ? .moderate : value >= light ? .light : .sedentary
  }

  /// The class of an epoch's summed counts, as counts per minute:
  ///
  /// ```
  /// classify(counts x 60 / epochSeconds)
  /// ```
  ///
  /// `counts`: axis-1 counts summed over the epoch; `epochSeconds`: the
  /// epoch's length, s. On a 60 s epoch (Freedson's) this is the sum
  /// itself; on another it extrapolates, which is why it is used there
  /// only when asked.
  public func classify(counts: Double, epochSeconds: Double) -> IntensityClass {
    classify(counts * 60 / epochSeconds)
  }

  /// Where the device was worn in the study that derived the set: the
  /// wrist for the wrist sets, the waist (hip) for the hip set and
  /// Freedson's; nil for GGIR's defaults, used at either.
  public var wearLocation: WearLocation? {
    if id.contains("wrist") { return .wrist }
    if id.contains("hip") || id == "freedson-1998" { return .waist }
    return nil
  }

  /// The wear location a device file's header states, from its own words
  /// (a GT3X `Limb`, a GENEActiv `Device Location Code`): waist, hip and
  /// lower back are the waist, a wrist is the wrist; nil for anything else
  /// (ankle, thigh, chest) or nothing.
  public static func wearLocation(stated text: String) -> WearLocation? {
    let t = text.lowercased()
    if t.contains("wrist") { return .wrist }
    if t.contains("waist") || t.contains("hip") || t.contains("back") { return .waist }
    return nil
  }

  /// Whether `epochSeconds` is the set's published epoch (to a nanosecond).
  public func isPublishedEpoch(_ epochSeconds: Double) -> Bool {
    abs(epochSeconds - publishedEpochSeconds) < 1e-9
  }

  /// Hildebrand et al. 2014, Med Sci Sports Exerc 46:1816 (adults,
  /// non-dominant wrist, ActiGraph GT3X+), with the light bound of
  /// Hildebrand et al. 2017, Scand J Med Sci Sports 27:1814. Mean ENMO of
  /// 5 s epochs: the epoch of GGIR (by the same group), where these are
  /// the default thresholds and 5 s the default short epoch.
  public static let hildebrandWristActiGraph = CutPoints(
    id: "hildebrand-wrist-actigraph", metric: .enmoMilliG, publishedEpochSeconds: 5, light: 44.8,
    moderate: 100.6, vigorous: 428.8,
    citation: "Hildebrand et al. 2014 MSSE 46:1816; 2017 SJMSS 27:1814 (adult wrist, ActiGraph)")
  /// As above, GENEActiv on the wrist.
  public static let hildebrandWristGENEActiv = CutPoints(
    id: "hildebrand-wrist-geneactiv", metric: .enmoMilliG, publishedEpochSeconds: 5, light: 45.8,
    moderate: 93.2, vigorous: 418.3,
    citation: "Hildebrand et al. 2014 MSSE 46:1816; 2017 SJMSS 27:1814 (adult wrist, GENEActiv)")
  /// As above, ActiGraph on the hip.
  public static let hildebrandHipActiGraph = CutPoints(
    id: "hildebrand-hip-actigraph", metric: .enmoMilliG, publishedEpochSeconds: 5, light: 47.4,
    moderate: 69.1, vigorous: 258.7,
    citation: "Hildebrand et al. 2014 MSSE 46:1816; 2017 SJMSS 27:1814 (adult hip, ActiGraph)")
  /// GGIR's default thresholds (threshold.lig/mod/vig = 40, 100, 400 mg)
  /// on its default 5 s epochs (windowsizes[1] = 5).
  public static let ggirDefault = CutPoints(
    id: "ggir-default", metric: .enmoMilliG, publishedEpochSeconds: 5, light: 40, moderate: 100,
    vigorous: 400,
    citation: "GGIR defaults threshold.lig = 40, threshold.mod = 100, threshold.vig = 400 mg")
  /// Freedson et al. 1998, Med Sci Sports Exerc 30:777 (hip ActiGraph,
  /// axis-1 counts/min: moderate 1952, vigorous 5725), with sedentary
  /// below 100 counts/min (Matthews et al. 2008, Am J Epidemiol 167:875).
  /// Both papers sum counts over 60 s epochs (minutes), so a minute is
  /// classified by its own counts.
  public static let freedson1998 = CutPoints(
    id: "freedson-1998", metric: .countsPerMinute, publishedEpochSeconds: 60, light: 100, moderate: 1952,
    vigorous: 5725,
    citation: "Freedson et al. 1998 MSSE 30:777; sedentary < 100 cpm, Matthews et al. 2008 AJE 167:875")

  public static let all = [
    hildebrandWristActiGraph, hildebrandWristGENEActiv, hildebrandHipActiGraph, ggirDefault, freedson1998,
  ]

  public static func named(_ id: String) -> CutPoints? { all.first { $0.id == id } }
}
