import Foundation

/// Unit conversions, in one place.
///
/// Every constant states its definition; exact ones are exact by
/// definition of the unit (international yard and pound, 1959).
public enum Units {
  /// Metres in one international mile (exact).
  public static let metersPerMile = 1609.344
  /// Kilograms in one avoirdupois pound (exact).
  public static let kilogramsPerPound = 0.45359237
  /// Thermochemical kilojoules in one kilocalorie (exact).
  public static let kilojoulesPerKilocalorie = 4.184

  public static func metersPerSecond(fromMilesPerHour mph: Double) -> Double {
    mph * metersPerMile / 3600
  }
  public static func milesPerHour(fromMetersPerSecond mps: Double) -> Double {
    mps * 3600 / metersPerMile
  }
  public static func metersPerSecond(fromKilometersPerHour kmh: Double) -> Double { kmh / 3.6 }
  public static func metersPerMinute(fromMetersPerSecond mps: Double) -> Double { mps * 60 }
  public static func kilograms(fromPounds pounds: Double) -> Double { pounds * kilogramsPerPound }
  public static func pounds(fromKilograms kilograms: Double) -> Double { kilograms / kilogramsPerPound }
  public static func miles(fromMeters meters: Double) -> Double { meters / metersPerMile }
  public static func kilocalories(fromJoules joules: Double) -> Double {
    joules / (kilojoulesPerKilocalorie * 1000)
  }
}

/// A quantity typed at the command line or in a notebook, such as `2.9mph`,
/// `5%`, `154lb` or `1.6km`, parsed into SI-based units.
///
/// A number without a unit is refused where it could mean more than one
/// thing (`--grade 5` is not 500 %, `--speed 5` not 5 m/s), with a message
/// listing the units. The exceptions are stated per kind: a grade between
/// -1 and 1 is a fraction, and heart rate and power have one unit each.
/// Values outside physical bounds (a grade beyond +-100 %, a negative
/// speed, a mass that is not positive) are refused; a value outside a
/// model's range stays a diagnostic of the model.
public enum QuantityParser {
  /// Parses a speed into metres per second: `mps`, `m/s`, `kmh`, `km/h`,
  /// `kph`, `mph`, `m/min` or `mpm`; not negative.
  public static func speedMetersPerSecond(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "speed")
    let units = "as 1.34mps, 4.8kmh, 3mph or 80m/min"
    let v: Double
    switch unit {
    case "": throw bare(text, kind: "speed", units: units)
    case "mps", "m/s": v = value
    case "kmh", "km/h", "kph": v = Units.metersPerSecond(fromKilometersPerHour: value)
    case "mph": v = Units.metersPerSecond(fromMilesPerHour: value)
    case "m/min", "mpm": v = value / 60
    default: throw unknownUnit(text, kind: "speed", expected: "mps, m/s, kmh, km/h, mph or m/min")
    }
    guard v >= 0 else { throw outOfBounds(text, kind: "speed", bounds: "not negative") }
    return v
  }

  /// Parses a grade into a fraction: `5%` and `0.05` are the same grade (a
  /// number without `%` is a fraction, so only -1 to 1); within +-100 %.
  public static func gradeFraction(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "grade")
    let v: Double
    switch unit {
    case "":
      guard abs(value) < 1 || value == 0 else {
        throw ValueError(
          .unreadable, "a grade", value: text,
          expected:
            "a unit, as \(Fixed.shortest(value))% or \(Fixed.shortest(value / 100)) (a grade without % is a fraction)"
        )
      }
      v = value
    case "%": v = value / 100
    default: throw unknownUnit(text, kind: "grade", expected: "a percentage (5%) or a fraction (0.05)")
    }
    guard abs(v) <= 1 else { throw outOfBounds(text, kind: "grade", bounds: "within -100% and 100%") }
    return v
  }

  /// Parses a body or load mass into kilograms (`kg`, `lb`, `lbs`).
  /// `positive`: a body mass must be above 0; a carried load may be 0.
  public static func massKilograms(_ text: String, positive: Bool = true) throws -> Double {
    let (value, unit) = try split(text, kind: "mass")
    let v: Double
    switch unit {
    case "": throw bare(text, kind: "mass", units: "as 70kg or 154lb")
    case "kg": v = value
    case "lb", "lbs": v = Units.kilograms(fromPounds: value)
    default: throw unknownUnit(text, kind: "mass", expected: "kg or lb")
    }
    guard positive ? v > 0 : v >= 0 else {
      throw outOfBounds(text, kind: "mass", bounds: positive ? "above 0" : "not negative")
    }
    return v
  }

  /// Parses a distance into metres (`m`, `km`, `mi`); not negative.
  public static func distanceMeters(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "distance")
    let v: Double
    switch unit {
    case "": throw bare(text, kind: "distance", units: "as 800m, 1.6km or 1mi")
    case "m": v = value
    case "km": v = value * 1000
    case "mi", "mile", "miles": v = value * Units.metersPerMile
    default: throw unknownUnit(text, kind: "distance", expected: "m, km or mi")
    }
    guard v >= 0 else { throw outOfBounds(text, kind: "distance", bounds: "not negative") }
    return v
  }

  /// Parses a duration into seconds (`s`, `min`, `h`); not negative.
  public static func durationSeconds(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "duration")
    let v: Double
    switch unit {
    case "": throw bare(text, kind: "duration", units: "as 90s, 10min or 1.5h")
    case "s": v = value
    case "min": v = value * 60
    case "h": v = value * 3600
    default: throw unknownUnit(text, kind: "duration", expected: "s, min or h")
    }
    guard v >= 0 else { throw outOfBounds(text, kind: "duration", bounds: "not negative") }
    return v
  }

  /// Parses a length (height, stride, step) into metres (`m`, `cm`);
  /// above 0.
  public static func lengthMeters(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "length")
    let v: Double
    switch unit {
    case "": throw bare(text, kind: "length", units: "as 1.75m or 175cm")
    case "m": v = value
    case "cm": v = value / 100
    default: throw unknownUnit(text, kind: "length", expected: "m or cm")
    }
    guard v > 0 else { throw outOfBounds(text, kind: "length", bounds: "above 0") }
    return v
  }

  /// Parses a power into watts (`W`, the only unit, so a bare number is
  /// watts); not negative.
  public static func powerWatts(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "power")
    guard unit == "" || unit == "w" else { throw unknownUnit(text, kind: "power", expected: "W") }
    guard value >= 0 else { throw outOfBounds(text, kind: "power", bounds: "not negative") }
    return value
  }

  /// Parses a heart rate in beats per minute (`150` or `150bpm`; bpm is
  /// the only unit); above 0.
  public static func heartRateBeatsPerMinute(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "heart rate")
    guard unit == "" || unit == "bpm" else {
      throw unknownUnit(text, kind: "heart rate", expected: "bpm")
    }
    guard value > 0 else { throw outOfBounds(text, kind: "heart rate", bounds: "above 0") }
    return value
  }

  private static func quoted(_ text: String) -> String { "\"\(text)\"" }

  private static func bare(_ text: String, kind: String, units: String) -> ValueError {
    ValueError(
      .unreadable, "a \(kind)", value: text,
      expected: "a unit, \(units) (a \(kind) without a unit is ambiguous)")
  }

  private static func outOfBounds(_ text: String, kind: String, bounds: String) -> ValueError {
    ValueError(.outOfRange, "a \(kind)", value: text, expected: bounds)
  }

  private static func split(_ text: String, kind: String) throws -> (Double, String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    var numberEnd = trimmed.startIndex
    for index in trimmed.indices {
      let c = trimmed[index]
      if c.isNumber || c == "." || c == "-" || c == "+" || c == "e" || c == "E" {
        // An exponent marker only counts when a digit follows it.
        if c == "e" || c == "E" {
          let next = trimmed.index(after: index)
          guard next < trimmed.endIndex, trimmed[next].isNumber || trimmed[next] == "-" else { break }
        }
        numberEnd = trimmed.index(after: index)
      } else {
        break
      }
    }
    guard let value = Double(trimmed[..<numberEnd]), value.isFinite else {
      throw ValueError(.unreadable, "a \(kind)", value: text, expected: "a number with an optional unit")
    }
    let unit = trimmed[numberEnd...].trimmingCharacters(in: .whitespaces).lowercased()
    return (value, unit)
  }

  private static func unknownUnit(_ text: String, kind: String, expected: String) -> ValueError {
    ValueError(.unreadable, "a \(kind)", value: text, expected: "a number with the unit \(expected)")
  }
}
