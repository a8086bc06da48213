import EnergyLabCore
import Foundation

/// Something that happened over an interval and is counted in profiles: an
/// activity of a trip, with its energy and CO2.
public struct ProfileActivity: Sendable, Hashable {
  public var mode: String
  public var startSecondsSince1970: Double
  public var endSecondsSince1970: Double
  public var distanceMeters: Double
  public var durationSeconds: Double
  public var energyKilocalories: Double
  public var co2Kilograms: Double
  /// The recording it belongs to (a file), for per-session profiles.
  public var session: String
  /// The energy model the activity was costed with.
  public var modelID = ""

  public init(
    mode: String, startSecondsSince1970: Double, endSecondsSince1970: Double, distanceMeters: Double,
    durationSeconds: Double, energyKilocalories: Double, co2Kilograms: Double, session: String = "",
    modelID: String = ""
  ) {
    self.session = session
    self.modelID = modelID
    self.mode = mode
    self.startSecondsSince1970 = startSecondsSince1970
    self.endSecondsSince1970 = endSecondsSince1970
    self.distanceMeters = distanceMeters
    self.durationSeconds = durationSeconds
    self.energyKilocalories = energyKilocalories
    self.co2Kilograms = co2Kilograms
  }
}

/// How profiles are binned.
public enum ProfileBinning: String, Sendable, Hashable, CaseIterable {
  /// Calendar hours (a 25-hour DST day has 25).
  case hour
  /// The 24 hours of the day, summed over all days.
  case hourOfDay = "hour-of-day"
  case day
  /// ISO weeks, Monday to Sunday.
  case week
  case month
  case year
  /// One bin per activity, labelled by its start.
  case activity
  /// One bin per session (recording) and mode, labelled by the session's start.
  case session
}

/// One bin of a profile for one mode.
public struct ProfileBin: Sendable, Hashable {
  /// Start of the bin as ISO-8601 local time with offset, or the hour
  /// (`07`) for hour-of-day profiles.
  public var label: String
  /// Start of the bin, seconds since 1970; nil for hour-of-day.
  public var startSecondsSince1970: Double?
  /// Length of the bin, s (23 or 25 hours on DST days); nil for hour-of-day.
  public var lengthSeconds: Double?
  public var mode: String
  public var distanceMeters: Double
  public var durationSeconds: Double
  public var energyKilocalories: Double
  public var co2Kilograms: Double
}

/// Bins activities by local calendar time in an explicit time zone, with a
/// POSIX Gregorian calendar (weeks start on Monday, ISO numbering). An
/// activity that spans bins is split in proportion to its time in each, so
/// distance, duration, energy and CO2 add up to the activity's totals.
public struct ProfileBuilder: Sendable {
  public let timeZone: TimeZone
  private let calendar: Calendar

  public init(timeZone: TimeZone) {
    self.timeZone = timeZone
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    calendar.locale = Locale(identifier: "en_US_POSIX")
    calendar.firstWeekday = 2
    calendar.minimumDaysInFirstWeek = 4
    self.calendar = calendar
  }

  /// The time zone named (`Europe/London`), or a usage error.
  public static func timeZone(named name: String) throws -> TimeZone {
    try TimeZoneLookup.zone(named: name)
  }

  /// The calendar interval of `binning` holding `seconds`.
  public func interval(containing seconds: Double, binning: ProfileBinning) -> DateInterval {
    let date = Date(timeIntervalSince1970: seconds)
    let component: Calendar.Component
    switch binning {
    case .hour, .hourOfDay: component = .hour
    case .day: component = .day
    case .week: component = .weekOfYear
    case .month: component = .month
    case .year, .activity, .session: component = .year
    }
    return calendar.dateInterval(of: component, for: date) ?? DateInterval(start: date, duration: 3600)
  }

  public func label(of interval: DateInterval, binning: ProfileBinning) -> String {
    if binning == .hourOfDay {
      let hour = calendar.component(.hour, from: interval.start)
      return hour < 10 ? "0\(hour)" : "\(hour)"
    }
    let start = interval.start.timeIntervalSince1970
    return ISO8601.formatWithOffset(start, offsetSeconds: timeZone.secondsFromGMT(for: interval.start))
  }

  /// Bins that follow the activities rather than the calendar.
  func groupedBins(_ activities: [ProfileActivity], bySession: Bool) -> [ProfileBin] {
    var out: [ProfileBin] = []
    var index: [String: Int] = [:]
    var sessionStart: [String: Double] = [:]
    for a in activities {
      sessionStart[a.session] = min(sessionStart[a.session] ?? .infinity, a.startSecondsSince1970)
    }
    for (k, a) in activities.enumerated() {
      let start =
        bySession ? sessionStart[a.session, default: a.startSecondsSince1970] : a.startSecondsSince1970
      let key = bySession ? "\(a.session)|\(a.mode)" : "\(k)"
      let label = ISO8601.formatWithOffset(
        start, offsetSeconds: timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: start)))
      if let i = index[key] {
        out[i].distanceMeters += a.distanceMeters
        out[i].durationSeconds += a.durationSeconds
        out[i].energyKilocalories += a.energyKilocalories
        out[i].co2Kilograms += a.co2Kilograms
      } else {
        index[key] = out.count
        out.append(
          ProfileBin(
            label: label, startSecondsSince1970: start, lengthSeconds: nil, mode: a.mode,
            distanceMeters: a.distanceMeters,
            durationSeconds: a.durationSeconds, energyKilocalories: a.energyKilocalories,
            co2Kilograms: a.co2Kilograms))
      }
    }
    return out
  }

  /// The profile: one bin per interval and mode with anything in it, in time
  /// order and, within a bin, in the order modes first appear.
  public func bins(_ activities: [ProfileActivity], binning: ProfileBinning) -> [ProfileBin] {
    if binning == .activity || binning == .session {
      return groupedBins(activities, bySession: binning == .session)
    }
    var bins: [String: ProfileBin] = [:]
    var order: [String] = []
    var modeOrder: [String] = []
    for activity in activities where !modeOrder.contains(activity.mode) { modeOrder.append(activity.mode) }
    for activity in activities {
      let start = activity.startSecondsSince1970
      let end = max(activity.endSecondsSince1970, start)
      let span = end - start
      var cursor = start
      repeat {
        let interval = interval(containing: cursor, binning: binning)
        let binEnd = interval.end.timeIntervalSince1970
        let overlapEnd = min(end, binEnd)
        let share = span > 0 ? (overlapEnd - cursor) / span : 1
        let label = label(of: interval, binning: binning)
        let key = "\(label)|\(activity.mode)"
        var bin =
          bins[key]
          ?? ProfileBin(
            label: label,
            startSecondsSince1970: binning == .hourOfDay ? nil : interval.start.timeIntervalSince1970,
            lengthSeconds: binning == .hourOfDay ? nil : interval.duration, mode: activity.mode,
            distanceMeters: 0,
            durationSeconds: 0, energyKilocalories: 0, co2Kilograms: 0)
        if bins[key] == nil { order.append(key) }
        bin.distanceMeters += share * activity.distanceMeters
        bin.durationSeconds += share * activity.durationSeconds
        bin.energyKilocalories += share * activity.energyKilocalories
        bin.co2Kilograms += share * activity.co2Kilograms
        bins[key] = bin
        cursor = binEnd
      } while cursor < end
    }
    return order.compactMap { bins[$0] }.sorted { a, b in
      let ka = a.startSecondsSince1970 ?? Double(a.label) ?? 0
      let kb = b.startSecondsSince1970 ?? Double(b.label) ?? 0
      if ka != kb { return ka < kb }
      return (modeOrder.firstIndex(of: a.mode) ?? 0) < (modeOrder.firstIndex(of: b.mode) ?? 0)
    }
  }
}
