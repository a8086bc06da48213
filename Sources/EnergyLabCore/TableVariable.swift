/// A reference table's key column, named by its quantity and unit as
/// `speed_mph` or `body_mass_lb`, with its values converted to SI units
/// (kg, s, m/s, and grade as a fraction).
public enum TableVariable: String, Sendable, Hashable, CaseIterable {
  case bodyMassPounds = "body_mass_lb"
  case bodyMassKilograms = "body_mass_kg"
  case durationMinutes = "duration_min"
  case durationSeconds = "duration_s"
  case speedMilesPerHour = "speed_mph"
  case speedMetersPerSecond = "speed_mps"
  case speedKilometersPerHour = "speed_kmh"
  case gradePercent = "grade_pct"

  public enum Quantity: String, Sendable, Hashable {
    case bodyMass, duration, speed, grade
  }

  /// Every name a table may use for a key column.
  public static let names = allCases.map(\.rawValue)

  /// The variable of a column name; an unknown name is an error that lists
  /// the known ones.
  public init(name: String) throws {
    guard let variable = Self(rawValue: name) else {
      throw ValueError.unknown("table variable", name, among: Self.names)
    }
    self = variable
  }

  public var name: String { rawValue }

  public var quantity: Quantity {
    switch self {
    case .bodyMassPounds, .bodyMassKilograms: .bodyMass
    case .durationMinutes, .durationSeconds: .duration
    case .speedMilesPerHour, .speedMetersPerSecond, .speedKilometersPerHour: .speed
    case .gradePercent: .grade
    }
  }

  /// `value`, in the column's unit, in SI units.
  public func si(_ value: Double) -> Double {
    switch self {
    case .bodyMassPounds: Units.kilograms(fromPounds: value)
    case .durationMinutes: value * 60
    case .speedMilesPerHour: Units.metersPerSecond(fromMilesPerHour: value)
    case .speedKilometersPerHour: Units.metersPerSecond(fromKilometersPerHour: value)
    case .gradePercent: value / 100
    case .bodyMassKilograms, .durationSeconds, .speedMetersPerSecond: value
    }
  }
}
