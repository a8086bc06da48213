import EnergyLabCore
import Evaluation
import Foundation
import TestSupport
import Testing

struct ProfileTests {
  func activity(_ start: String, _ end: String, mode: String = "car", co2: Double = 1) throws
    -> ProfileActivity
  {
    let s = try #require(ISO8601.parse(start)).secondsSince1970
    let e = try #require(ISO8601.parse(end)).secondsSince1970
    return ProfileActivity(
      mode: mode, startSecondsSince1970: s, endSecondsSince1970: e, distanceMeters: 1000,
      durationSeconds: e - s,
      energyKilocalories: 10, co2Kilograms: co2)
  }

  /// Alter Eco thesis (L581-606): a ride at 00:00 BST must stay on its own
  /// day. 2020-07-04T23:10Z is 00:10 BST on 5 July.
  @Test func rideJustAfterMidnightBSTStaysOnItsDay() throws {
    let london = ProfileBuilder(timeZone: try ProfileBuilder.timeZone(named: "Europe/London"))
    let bins = london.bins([try activity("2020-07-04T23:10:00Z", "2020-07-04T23:40:00Z")], binning: .day)
    #expect(bins.map(\.label) == ["2020-07-05T00:00:00+01:00"])
    let utc = ProfileBuilder(timeZone: try ProfileBuilder.timeZone(named: "UTC"))
    #expect(
      utc.bins([try activity("2020-07-04T23:10:00Z", "2020-07-04T23:40:00Z")], binning: .day).map(\.label)
        == [
          "2020-07-04T00:00:00+00:00"
        ])
  }

  /// 23:40 to 00:20 BST: 20 minutes on each day, so each day gets half.
  @Test func spanningActivityIsSplitByOverlap() throws {
    let london = ProfileBuilder(timeZone: try ProfileBuilder.timeZone(named: "Europe/London"))
    let bins = london.bins(
      [try activity("2020-07-04T22:40:00Z", "2020-07-04T23:20:00Z", co2: 4)], binning: .day)
    #expect(bins.count == 2)
    #expect(bins.map(\.co2Kilograms) == [2, 2])
    #expect(bins.map(\.durationSeconds) == [1200, 1200])
    expectClose(bins.reduce(0) { $0 + $1.distanceMeters }, 1000, tolerance: 1e-9)
  }

  /// 25 October 2020 in London is 25 hours long (BST ends at 02:00 BST):
  /// a whole-day activity fills one day bin of 90000 s and 25 hour bins.
  @Test func daylightSavingDayHasTwentyFiveHours() throws {
    let london = ProfileBuilder(timeZone: try ProfileBuilder.timeZone(named: "Europe/London"))
    let day = try activity("2020-10-24T23:00:00Z", "2020-10-26T00:00:00Z")
    let days = london.bins([day], binning: .day)
    #expect(days.map(\.label) == ["2020-10-25T00:00:00+01:00"])
    #expect(days.first?.lengthSeconds == 90000)
    let hours = london.bins([day], binning: .hour)
    #expect(hours.count == 25)
    #expect(
      hours.map(\.label).filter { $0.hasPrefix("2020-10-25T01:00:00") } == [
        "2020-10-25T01:00:00+01:00", "2020-10-25T01:00:00+00:00",
      ])
  }

  /// ISO weeks start on Monday: Sunday 5 July 2020 belongs to the week of
  /// Monday 29 June.
  @Test func weeksStartOnMonday() throws {
    let utc = ProfileBuilder(timeZone: try ProfileBuilder.timeZone(named: "UTC"))
    let bins = utc.bins([try activity("2020-07-05T12:00:00Z", "2020-07-05T12:30:00Z")], binning: .week)
    #expect(bins.map(\.label) == ["2020-06-29T00:00:00+00:00"])
  }

  /// Hour of day sums across days: two rides at 08:xx on different days.
  @Test func hourOfDayAggregates() throws {
    let utc = ProfileBuilder(timeZone: try ProfileBuilder.timeZone(named: "UTC"))
    let bins = utc.bins(
      [
        try activity("2020-07-01T08:00:00Z", "2020-07-01T08:30:00Z"),
        try activity("2020-07-02T08:10:00Z", "2020-07-02T08:20:00Z"),
      ],
      binning: .hourOfDay)
    #expect(bins.map(\.label) == ["08"])
    #expect(bins.first?.co2Kilograms == 2)
  }

  @Test func unknownZoneIsAUsageError() {
    #expect(throws: ValueError.self) { try ProfileBuilder.timeZone(named: "Mars/Olympus") }
  }
}

struct GroupedProfileTests {
  /// Per session: activities of one recording and mode add up under the
  /// session's start; per activity: one bin each.
  @Test func sessionsAndActivities() throws {
    let utc = ProfileBuilder(timeZone: try ProfileBuilder.timeZone(named: "UTC"))
    func a(_ start: Double, _ mode: String, _ session: String) -> ProfileActivity {
      ProfileActivity(
        mode: mode, startSecondsSince1970: start, endSecondsSince1970: start + 60, distanceMeters: 100,
        durationSeconds: 60, energyKilocalories: 1, co2Kilograms: 0.5, session: session)
    }
    let activities = [a(0, "walk", "m"), a(60, "car", "m"), a(120, "walk", "m"), a(3600, "walk", "e")]
    let sessions = utc.bins(activities, binning: .session)
    #expect(
      sessions.map(\.label) == [
        "1970-01-01T00:00:00+00:00", "1970-01-01T00:00:00+00:00", "1970-01-01T01:00:00+00:00",
      ])
    #expect(sessions.map(\.distanceMeters) == [200, 100, 100])
    #expect(utc.bins(activities, binning: .activity).count == 4)
  }
}
