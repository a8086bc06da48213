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
  /// Metres in one foot (exact).
  public static let metersPerFoot = 0.3048
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
public enum QuantityParser {
  /// Parses a speed into metres per second. Accepts `mps`, `m/s`, `kmh`,
  /// `km/h`, `kph`, `mph`, `m/min` and `mpm`; a bare number is m/s.
  public static func speedMetersPerSecond(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "speed")
    switch unit {
    case "", "mps", "m/s": return value
    case "kmh", "km/h", "kph": return Units.metersPerSecond(fromKilometersPerHour: value)
    case "mph": return Units.metersPerSecond(fromMilesPerHour: value)
    case "m/min", "mpm": return value / 60
    default: throw unknownUnit(text, kind: "speed", expected: "mps, m/s, kmh, km/h, mph or m/min")
    }
  }

  /// Parses a grade into a fraction: `0.05` and `5%` are the same grade.
  public static func gradeFraction(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "grade")
    switch unit {
    case "": return value
    case "%": return value / 100
    default: throw unknownUnit(text, kind: "grade", expected: "a fraction (0.05) or a percentage (5%)")
    }
  }

  /// Parses a body or load mass into kilograms (`kg`, `lb`, `lbs`); a bare
  /// number is kilograms.
  public static func massKilograms(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "mass")
    switch unit {
    case "", "kg": return value
    case "lb", "lbs": return Units.kilograms(fromPounds: value)
    default: throw unknownUnit(text, kind: "mass", expected: "kg or lb")
    }
  }

  /// Parses a distance into metres (`m`, `km`, `mi`); a bare number is metres.
  public static func distanceMeters(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "distance")
    switch unit {
    case "", "m": return value
    case "km": return value * 1000
    case "mi", "mile", "miles": return value * Units.metersPerMile
    default: throw unknownUnit(text, kind: "distance", expected: "m, km or mi")
    }
  }

  /// Parses a duration into seconds (`s`, `min`, `h`); a bare number is
  /// seconds.
  public static func durationSeconds(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "duration")
    switch unit {
    case "", "s": return value
    case "min": return value * 60
    case "h": return value * 3600
    default: throw unknownUnit(text, kind: "duration", expected: "s, min or h")
    }
  }

  /// Parses a length into metres (`m`, `cm`); a bare number is metres.
  public static func lengthMeters(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "length")
    switch unit {
    case "", "m": return value
    case "cm": return value / 100
    default: throw unknownUnit(text, kind: "length", expected: "m or cm")
    }
  }

  /// Parses a power into watts (`W`); a bare number is watts.
  public static func powerWatts(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "power")
    guard unit == "" || unit == "w" else { throw unknownUnit(text, kind: "power", expected: "W") }
    return value
  }

  /// Parses a heart rate in beats per minute (`150` or `150bpm`).
  public static func heartRateBeatsPerMinute(_ text: String) throws -> Double {
    let (value, unit) = try split(text, kind: "heart rate")
    guard unit == "" || unit == "bpm" else {
      throw unknownUnit(text, kind: "heart rate", expected: "bpm")
    }
    return value
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
      throw UsageError("cannot read \"\(text)\" as a \(kind); expected a number with an optional unit")
    }
    let unit = trimmed[numberEnd...].trimmingCharacters(in: .whitespaces).lowercased()
    return (value, unit)
  }

  private static func unknownUnit(_ text: String, kind: String, expected: String) -> UsageError {
    UsageError("unknown \(kind) unit in \"\(text)\"; expected \(expected)")
  }
}
