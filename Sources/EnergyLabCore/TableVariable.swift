/// A reference table's key column, named by its quantity and unit as
/// `speed_mph` or `body_mass_lb`, with its values converted to SI units
/// (kg, s, m/s, and grade as a fraction).
public struct TableVariable: Sendable, Hashable {
  public enum Quantity: String, Sendable, Hashable {
    case bodyMass, duration, speed, grade
  }

  public var name: String
  public var quantity: Quantity
  private let toSI: @Sendable (Double) -> Double

  public static func == (a: TableVariable, b: TableVariable) -> Bool { a.name == b.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// Every name a table may use for a key column.
  public static let names = [
    "body_mass_lb", "body_mass_kg", "duration_min", "duration_s", "speed_mph", "speed_mps", "speed_kmh",
    "grade_pct",
  ]

  /// The variable of a column name; an unknown name is an error that lists
  /// the known ones.
  public init(name: String) throws {
    self.name = name
    switch name {
    case "body_mass_lb": (quantity, toSI) = (.bodyMass, { Units.kilograms(fromPounds: $0) })
    case "body_mass_kg": (quantity, toSI) = (.bodyMass, { $0 })
    case "duration_min": (quantity, toSI) = (.duration, { $0 * 60 })
    case "duration_s": (quantity, toSI) = (.duration, { $0 })
    case "speed_mph": (quantity, toSI) = (.speed, { Units.metersPerSecond(fromMilesPerHour: $0) })
    case "speed_mps": (quantity, toSI) = (.speed, { $0 })
    case "speed_kmh": (quantity, toSI) = (.speed, { Units.metersPerSecond(fromKilometersPerHour: $0) })
    case "grade_pct": (quantity, toSI) = (.grade, { $0 / 100 })
    default: throw ValueError.unknown("table variable", name, among: Self.names)
    }
  }

  /// `value`, in the column's unit, in SI units.
  public func si(_ value: Double) -> Double { toSI(value) }
}
