/// One transport emission factor, normalised to kg CO2 (or CO2e) per km.
public struct EmissionFactor: Sendable, Hashable {
  public var mode: String
  public var kilogramsPerKilometer: Double
  /// The value and unit as published (`0.3358`, `kgCO2/mile`).
  public var publishedValue: Double
  public var publishedUnit: String
  public var note: String

  public init(
    mode: String, kilogramsPerKilometer: Double, publishedValue: Double, publishedUnit: String, note: String
  ) {
    self.mode = mode
    self.kilogramsPerKilometer = kilogramsPerKilometer
    self.publishedValue = publishedValue
    self.publishedUnit = publishedUnit
    self.note = note
  }
}

/// A versioned set of transport emission factors with its provenance.
public struct EmissionFactorSet: Sendable, Hashable {
  /// The file name without `.csv` (`alter-eco-2020`).
  public var name: String
  public var source: String
  public var version: String
  public var factors: [EmissionFactor]

  public init(name: String, source: String, version: String, factors: [EmissionFactor]) {
    self.name = name
    self.source = source
    self.version = version
    self.factors = factors
  }

  public var modes: [String] { factors.map(\.mode) }

  /// kg CO2 for `distanceMeters` travelled by `mode`; a mode the set does
  /// not list is an error, never a silent zero.
  public func kilograms(mode: String, distanceMeters: Double) throws -> Double {
    guard let factor = factors.first(where: { $0.mode == mode }) else {
      throw unknownMode(mode)
    }
    return factor.kilogramsPerKilometer * distanceMeters / 1000
  }

  /// `mode` is not among the set's: the error lists them, and by default
  /// offers another set.
  public func unknownMode(_ mode: String, as subject: String = "mode", remedy: Remedy? = Remedy(.factorSet))
    -> ValueError
  {
    ValueError(
      .unknown(known: modes), subject, value: mode,
      expected: "a mode of factor set \(name): \(modes.joined(separator: ", "))", remedy: remedy)
  }
}

/// An airport's reference point.
public struct Airport: Sendable, Hashable {
  public var code: String
  public var name: String
  public var latitudeDegrees: Double
  public var longitudeDegrees: Double

  public init(code: String, name: String, latitudeDegrees: Double, longitudeDegrees: Double) {
    self.code = code
    self.name = name
    self.latitudeDegrees = latitudeDegrees
    self.longitudeDegrees = longitudeDegrees
  }
}

/// A published table of named values with units (the carbon gamification
/// thesis's Fig 7.5).
public struct FactorTable: Sendable, Hashable {
  public struct Entry: Sendable, Hashable {
    public var key: String
    public var value: Double
    public var unit: String
    public var description: String
    public init(key: String, value: Double, unit: String, description: String) {
      self.key = key
      self.value = value
      self.unit = unit
      self.description = description
    }
  }

  public var name: String
  public var entries: [Entry]

  public init(name: String, entries: [Entry]) {
    self.name = name
    self.entries = entries
  }

  /// The value of `key`; a missing key is an error naming the table.
  public func value(_ key: String) throws -> Double {
    guard let entry = entries.first(where: { $0.key == key }) else {
      throw ValueError(
        .unknown(known: entries.map(\.key)), "factor", value: key, expected: "a key of factor table \(name)")
    }
    return entry.value
  }

  /// Keys starting with `prefix`, without it (`supplier-` gives the suppliers).
  public func keys(withPrefix prefix: String) -> [String] {
    entries.filter { $0.key.hasPrefix(prefix) }.map { String($0.key.dropFirst(prefix.count)) }
  }
}
