/// Biological sex, as the equations that depend on it define it.
public enum Sex: String, Sendable, Hashable, CaseIterable {
  case male
  case female
}

/// A study participant: what energy models need to know of a person.
public struct Subject: Sendable, Hashable {
  public var id: String
  public var bodyMassKilograms: Double?
  public var ageYears: Double?
  public var sex: Sex?
  public var heightMeters: Double?
  public var vo2MaxMillilitersPerKilogramPerMinute: Double?
  public var restingHeartRateBeatsPerMinute: Double?
  public var maximumHeartRateBeatsPerMinute: Double?

  public init(
    id: String, bodyMassKilograms: Double? = nil, ageYears: Double? = nil, sex: Sex? = nil,
    heightMeters: Double? = nil, vo2MaxMillilitersPerKilogramPerMinute: Double? = nil
  ) {
    self.id = id
    self.bodyMassKilograms = bodyMassKilograms
    self.ageYears = ageYears
    self.sex = sex
    self.heightMeters = heightMeters
    self.vo2MaxMillilitersPerKilogramPerMinute = vo2MaxMillilitersPerKilogramPerMinute
  }

  /// The subject's id and every value it has, as named parameters: what a
  /// run records and keys on, so two subjects with equal values stay two
  /// runs.
  public var parameters: [NamedParameter] {
    var out = [NamedParameter(name: "subject_id", value: id, meaning: "participant")]
    let values: [(String, Double?, String)] = [
      ("subject_body_mass_kg", bodyMassKilograms, "body mass"),
      ("subject_age_years", ageYears, "age"),
      ("subject_height_m", heightMeters, "height"),
      ("subject_resting_hr_bpm", restingHeartRateBeatsPerMinute, "resting heart rate"),
      ("subject_max_hr_bpm", maximumHeartRateBeatsPerMinute, "maximal heart rate"),
      ("subject_vo2max_ml_kg_min", vo2MaxMillilitersPerKilogramPerMinute, "VO2max"),
    ]
    for (name, value, meaning) in values {
      if let value { out.append(NamedParameter(name: name, value: Fixed.shortest(value), meaning: meaning)) }
    }
    if let sex { out.append(NamedParameter(name: "subject_sex", value: sex.rawValue, meaning: "sex")) }
    return out
  }
}

/// How the files of a study are matched to its subjects.
public enum SubjectMatch: String, Sendable, Hashable, CaseIterable {
  /// A subject's id is the name of a folder on the file's path within the
  /// study (`study/P01/walk.gpx` is P01's).
  case folder
  /// The file's name is the id, or begins with it followed by `_`, `-`,
  /// `.` or a space (`P01_walk.gpx`, `P01-run.tcx`).
  case file

  /// The subjects whose id the relative path matches under this rule.
  public func matches(relativePath: String, among subjects: [Subject]) -> [Subject] {
    let components = relativePath.split(separator: "/").map(String.init)
    switch self {
    case .folder:
      let folders = Set(components.dropLast())
      return subjects.filter { folders.contains($0.id) }
    case .file:
      let name = components.last ?? relativePath
      return subjects.filter { subject in
        guard name.hasPrefix(subject.id) else { return false }
        let rest = name.dropFirst(subject.id.count)
        return rest.first.map { ["_", "-", ".", " "].contains($0) } ?? true
      }
    }
  }
}
