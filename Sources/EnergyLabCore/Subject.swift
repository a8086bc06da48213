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
}
