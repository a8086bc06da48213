import EnergyLabCore
import TestSupport
import Testing

/// ISO-8601 as devices write it; expected instants by hand:
/// 2012-05-08T09:00:00Z is 1336467600 s after the Unix epoch
/// (15468 days x 86400 + 9 h).
struct TimestampTests {
  @Test(arguments: [
    ("2012-05-08T09:00:00Z", 1_336_467_600.0, true),
    ("2012-05-08T09:00:00.250Z", 1_336_467_600.25, true),
    ("2012-05-08T09:00:00.123456789Z", 1_336_467_600.123456789, true),
    ("2012-05-08T10:00:00+01:00", 1_336_467_600.0, true),
    ("2012-05-08T10:00:00+0100", 1_336_467_600.0, true),
    ("2012-05-08T04:30:00-04:30", 1_336_467_600.0, true),
    ("2012-05-08T10:00:00+01", 1_336_467_600.0, true),
    ("2012-05-08T09:00:00", 1_336_467_600.0, false),
    ("2012-05-08 09:00:00", 1_336_467_600.0, false),
    ("2012-05-08T09:00Z", 1_336_467_600.0, true),
    ("  2012-05-08T09:00:00Z\n", 1_336_467_600.0, true),
  ])
  func parsesDeviceTimestamps(text: String, seconds: Double, hadOffset: Bool) throws {
    let parsed = try #require(ISO8601.parse(text))
    expectClose(parsed.secondsSince1970, seconds, tolerance: 1e-6)
    #expect(parsed.hadOffset == hadOffset)
  }

  @Test(arguments: [
    "", "2012-05-08", "2012-13-01T00:00:00Z", "2012-02-30T00:00:00Z", "2012-05-08T09:00:00.Z",
    "2012-05-08T09:00:00Zjunk", "08/05/2012 09:00", "2012-05-08T25:00:00Z",
  ])
  func rejectsWhatIsNotATimestamp(text: String) {
    #expect(ISO8601.parse(text) == nil)
  }

  @Test func leapDayAndEpoch() throws {
    #expect(try #require(ISO8601.parse("1970-01-01T00:00:00Z")).secondsSince1970 == 0)
    // 2000-03-01 is day 11017 after the epoch (30 years, 8 leap days, Jan+Feb 2000 = 60 days).
    #expect(try #require(ISO8601.parse("2000-03-01T00:00:00Z")).secondsSince1970 == 11017 * 86400)
    #expect(ISO8601.parse("2000-02-29T12:00:00Z") != nil)
    #expect(ISO8601.parse("1900-02-29T12:00:00Z") == nil)
  }

  @Test func formatsUTC() {
    #expect(ISO8601.formatUTC(1_336_467_600) == "2012-05-08T09:00:00Z")
    #expect(ISO8601.formatUTC(1_336_467_600.25, fractionDigits: 3) == "2012-05-08T09:00:00.250Z")
    #expect(ISO8601.formatUTC(-1) == "1969-12-31T23:59:59Z")
  }

  @Test func defaultOffsetAppliesOnlyWithoutOffset() throws {
    let local = try #require(ISO8601.parse("2012-05-08T10:00:00", defaultOffsetSeconds: 3600))
    #expect(local.secondsSince1970 == 1_336_467_600)
    let explicit = try #require(ISO8601.parse("2012-05-08T09:00:00Z", defaultOffsetSeconds: 3600))
    #expect(explicit.secondsSince1970 == 1_336_467_600)
  }
}
