import Foundation

/// "Did you mean ...?" for names typed by hand: model ids, reference
/// tables, factor sets, time zones.
public enum NameSuggestion {
  /// Edit distance (insertions, deletions, substitutions), case-insensitive.
  public static func distance(_ a: String, _ b: String) -> Int {
    let x = Array(a.lowercased())
    let y = Array(b.lowercased())
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
      current[0] = i
      for j in 1...y.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[y.count]
  }

  /// The candidate nearest to `name` when it is near enough to be a slip
  /// (at most a third of the name's length in edits, and at least 1), or one
  /// that contains it or is contained in it; nil otherwise.
  public static func closest(to name: String, among candidates: [String]) -> String? {
    let lower = name.lowercased()
    guard !lower.isEmpty else { return nil }
    let scored = candidates.map { ($0, distance(name, $0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    if let best = scored.first, best.1 <= max(1, lower.count / 3) { return best.0 }
    let containing = candidates.filter { $0.lowercased().contains(lower) || lower.contains($0.lowercased()) }
    return containing.count == 1 ? containing[0] : nil
  }

  /// "; did you mean X?" or "".
  public static func hint(for name: String, among candidates: [String]) -> String {
    closest(to: name, among: candidates).map { "; did you mean \($0)?" } ?? ""
  }
}

/// IANA time zones by name, matched case-insensitively.
public enum TimeZoneLookup {
  public static func zone(named name: String) throws -> TimeZone {
    if let zone = TimeZone(identifier: name) { return zone }
    let known = TimeZone.knownTimeZoneIdentifiers + ["UTC", "GMT"]
    if let match = known.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }),
      let zone = TimeZone(identifier: match)
    {
      return zone
    }
    throw ValueError(
      .unknown(known: known), "time zone", value: name, expected: "an IANA name such as Europe/London or UTC")
  }
}

/// A time zone and the name it was chosen by: reports and stored runs show
/// the name as given (Foundation calls the zone of "UTC" "GMT"), the
/// libraries use the zone.
public struct NamedTimeZone: Sendable, Hashable {
  public var name: String
  public var zone: TimeZone

  public init(name: String, zone: TimeZone) {
    self.name = name
    self.zone = zone
  }

  /// The zone of an IANA name (any case), or an error naming the known ones.
  public init(named name: String) throws {
    self.init(name: name, zone: try TimeZoneLookup.zone(named: name))
  }

  public static let utc = NamedTimeZone(name: "UTC", zone: .utc)
}

extension TimeZone {
  /// Coordinated Universal Time, the zone of times that name none.
  public static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
}
