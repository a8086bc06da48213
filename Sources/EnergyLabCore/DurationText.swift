import Foundation

/// Travel times as routing services write them: "45 mins", "1 hour 5 mins",
/// "2 hours", "1 h 20 min", "90 minutes", "1 day 2 hours".
public enum DurationText {
  /// The duration in minutes; a usage error names what could not be read.
  public static func minutes(_ text: String) throws -> Double {
    let units: [(names: [String], minutes: Double)] = [
      (["day", "days", "d"], 1440), (["hour", "hours", "hr", "hrs", "h"], 60),
      (["min", "mins", "minute", "minutes", "m"], 1), (["sec", "secs", "second", "seconds", "s"], 1.0 / 60),
    ]
    var scanner = text.lowercased().replacingOccurrences(of: ",", with: " ")
    // Separate numbers glued to units ("1h20min").
    scanner = scanner.replacingOccurrences(of: "([0-9.])([a-z])", with: "$1 $2", options: .regularExpression)
    scanner = scanner.replacingOccurrences(of: "([a-z])([0-9])", with: "$1 $2", options: .regularExpression)
    let words = scanner.split(whereSeparator: { $0.isWhitespace }).map(String.init).filter {
      $0 != "and" && $0 != "about"
    }
    guard !words.isEmpty else {
      throw ValueError(.unreadable, "a duration", value: text, expected: "as \"1 hour 5 mins\"")
    }
    var total = 0.0
    var i = 0
    while i < words.count {
      guard let value = Double(words[i]), value.isFinite, value >= 0, i + 1 < words.count,
        let unit = units.first(where: { $0.names.contains(words[i + 1]) })
      else {
        throw ValueError(
          .unreadable, "a duration", value: text, expected: "numbers with units (days, hours, mins, secs)")
      }
      total += value * unit.minutes
      i += 2
    }
    return total
  }
}
