import Foundation
import TestSupport
import Testing

@testable import EnergyLabCore

struct SHA256Tests {
  /// FIPS 180-4 example vectors (NIST "SHA256.pdf" examples, and the empty message).
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func fipsVectors(message: String, digest: String) {
    #expect(SHA256.hex(Array(message.utf8)) == digest)
  }

  /// One million 'a' (FIPS 180-4 long-message example), fed in uneven chunks.
  @Test func millionA() {
    var hasher = SHA256()
    let chunk = [UInt8](repeating: 0x61, count: 999)
    var fed = 0
    while fed + 999 <= 1_000_000 {
      hasher.update(chunk)
      fed += 999
    }
    hasher.update([UInt8](repeating: 0x61, count: 1_000_000 - fed))
    #expect(hasher.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}

struct UnitsTests {
  /// Exact definitions: 1 mile = 1609.344 m, 1 lb = 0.45359237 kg.
  @Test func exactConversions() {
    expectClose(Units.metersPerSecond(fromMilesPerHour: 1), 0.44704, tolerance: 1e-15)
    expectClose(Units.kilograms(fromPounds: 145), 65.77089365, tolerance: 1e-9)
    // PEM thesis: 2.9 mph "x 26.8 = 77.72 m/min"; the exact factor is 26.8224.
    #expect(
      abs(Units.metersPerMinute(fromMetersPerSecond: Units.metersPerSecond(fromMilesPerHour: 2.9)) - 77.78496)
        < 1e-9)
  }

  @Test(arguments: [
    ("1.34mps", 1.34), ("1.34 m/s", 1.34), ("4.8kmh", 4.8 / 3.6), ("4.8km/h", 4.8 / 3.6), ("3mph", 1.34112),
    ("80m/min", 80.0 / 60),
  ])
  func speeds(text: String, metersPerSecond: Double) throws {
    expectClose(try QuantityParser.speedMetersPerSecond(text), metersPerSecond, tolerance: 1e-12)
  }

  @Test func gradesMassesDistances() throws {
    #expect(try QuantityParser.gradeFraction("5%") == 0.05)
    #expect(try QuantityParser.gradeFraction("0.05") == 0.05)
    expectClose(try QuantityParser.massKilograms("154lb"), 69.85322498, tolerance: 1e-8)
    #expect(try QuantityParser.massKilograms("70kg") == 70)
    #expect(try QuantityParser.distanceMeters("1mi") == 1609.344)
    #expect(try QuantityParser.distanceMeters("1.6km") == 1600)
    #expect(try QuantityParser.durationSeconds("10min") == 600)
  }

  @Test(arguments: ["fast", "3furlongs", "", "mph", "72,5kg"])
  func rejectsUnreadable(text: String) {
    let error = #expect(throws: ValueError.self) { try QuantityParser.massKilograms(text) }
    #expect(error?.value == text && error?.subject == "a mass")
  }

  func message(_ body: () throws -> Double) -> String {
    do { return "read as \(try body())" } catch { return "\(error)" }
  }

  /// A bare number is refused where it could mean two things (`--grade 5`
  /// was 500 %, `--speed 5` 5 m/s), with the units to use.
  @Test func bareNumbersAreRefusedWhereAmbiguous() throws {
    #expect(message { try QuantityParser.gradeFraction("5") }.contains("expected a unit, as 5% or 0.05"))
    #expect(message { try QuantityParser.speedMetersPerSecond("5") }.contains("as 1.34mps, 4.8kmh, 3mph"))
    #expect(message { try QuantityParser.massKilograms("150") }.contains("as 70kg or 154lb"))
    #expect(message { try QuantityParser.durationSeconds("10") }.contains("as 90s, 10min or 1.5h"))
    #expect(message { try QuantityParser.distanceMeters("5") }.contains("as 800m, 1.6km or 1mi"))
    #expect(message { try QuantityParser.lengthMeters("1.75") }.contains("as 1.75m or 175cm"))
    // The stated exceptions: a grade below 1 in size is a fraction; heart
    // rate and power have one unit each.
    #expect(try QuantityParser.gradeFraction("0.05") == 0.05)
    #expect(try QuantityParser.gradeFraction("-0.1") == -0.1)
    #expect(try QuantityParser.gradeFraction("0") == 0)
    #expect(try QuantityParser.heartRateBeatsPerMinute("150") == 150)
    #expect(try QuantityParser.powerWatts("100") == 100)
  }

  /// Values outside physical bounds are refused; downhill grades are fine.
  @Test func physicalBounds() throws {
    #expect(try QuantityParser.gradeFraction("-10%") == -0.1)
    #expect(try QuantityParser.gradeFraction("100%") == 1)
    #expect(message { try QuantityParser.gradeFraction("150%") }.contains("within -100% and 100%"))
    #expect(message { try QuantityParser.speedMetersPerSecond("-1mps") }.contains("not negative"))
    #expect(message { try QuantityParser.massKilograms("-70kg") }.contains("above 0"))
    #expect(message { try QuantityParser.massKilograms("0kg") }.contains("above 0"))
    #expect(try QuantityParser.massKilograms("0kg", positive: false) == 0)
    #expect(message { try QuantityParser.heartRateBeatsPerMinute("0") }.contains("above 0"))
    #expect(message { try QuantityParser.lengthMeters("0cm") }.contains("above 0"))
  }
}

struct FixedFormattingTests {
  @Test(arguments: [
    (1.2345, 2, "1.23"), (1.235, 0, "1"), (-0.0001, 2, "0.00"), (14.06992, 2, "14.07"),
    (1234567.5, 1, "1234567.5"),
    (Double.nan, 2, "nan"), (-Double.infinity, 1, "-inf"),
  ])
  func fixedDigits(value: Double, digits: Int, text: String) {
    #expect(Fixed.format(value, digits: digits) == text)
  }

  /// Exact decimal expansions of the binary values, rounded half to even
  /// (Python's `decimal`: `Decimal(0.15)` is 0.1499999999999999944...), so
  /// independent of C's printf.
  @Test(arguments: [
    (0.125, 2, "0.12"), (0.375, 2, "0.38"), (2.5, 0, "2"), (3.5, 0, "4"), (0.15, 1, "0.1"),
    (1.005, 2, "1.00"),
    (2.675, 2, "2.67"), (1e21, 0, "1000000000000000000000"), (1e23, 0, "99999999999999991611392"),
    (1e22, 3, "10000000000000000000000.000"), (123456789.125, 2, "123456789.12"),
    (Double.leastNonzeroMagnitude, 0, "0"),
    (-0.0, 1, "-0.0"), (-0.001, 2, "-0.00"), (-Double.infinity, 2, "-inf"),
  ])
  func printfDigits(value: Double, digits: Int, text: String) {
    #expect(Fixed.printf(value, digits: digits) == text)
  }

  /// The largest Double has 309 integer digits, beyond the first buffer.
  @Test func printfLargestDouble() {
    let text = Fixed.printf(.greatestFiniteMagnitude, digits: 2)
    #expect(text.hasPrefix("17976931348623157081452742373170435679807056752584499659891747680315726078"))
    #expect(text.count == 309 + 3)
    #expect(text.hasSuffix(".00"))
  }

  /// Byte-identical to Foundation's `String(format:)` (glibc's printf
  /// reached through Foundation) on random bit patterns of every exponent,
  /// random values of many magnitudes, exact halves at the rounding digit and
  /// the Doubles on either side of decimal midpoints.
  @Test func printfMatchesStringFormat() {
    var random = SystemRandomNumberGenerator()
    var cases: [(Double, Int)] = []
    for _ in 0..<100_000 {
      cases.append((Double(bitPattern: random.next()), Int.random(in: 0...20, using: &random)))
    }
    for _ in 0..<100_000 {
      let magnitude =
        Double.random(in: 1..<10, using: &random) * pow(10, Double(Int.random(in: -12...24, using: &random)))
      cases.append(
        (Bool.random(using: &random) ? magnitude : -magnitude, Int.random(in: 0...12, using: &random)))
    }
    for power in 1...10 {
      for numerator in stride(from: 1, to: 4_000, by: 2) {
        let half = Double(numerator) / Double(1 << power)
        for digits in max(0, power - 2)...power { cases.append((half, digits)) }
      }
    }
    for _ in 0..<30_000 {
      let digits = Int.random(in: 0...6, using: &random)
      let scale = pow(10, Double(digits))
      let midpoint = (Double(Int.random(in: 0...10_000_000, using: &random)) + 0.5) / scale
      for value in [midpoint.nextDown, midpoint, midpoint.nextUp, -midpoint] { cases.append((value, digits)) }
    }
    cases += [
      (0, 3), (-0.0, 0), (.nan, 2), (-.nan, 2), (.infinity, 1), (.greatestFiniteMagnitude, 5),
      (-.greatestFiniteMagnitude, 0), (.leastNonzeroMagnitude, 20), (.leastNormalMagnitude, 20), (1e21, 2),
      (1e22, 0),
    ]
    var mismatches: [String] = []
    for (value, digits) in cases {
      let expected = String(format: "%.\(digits)f", locale: nil, value)
      let got = Fixed.printf(value, digits: digits)
      if got != expected, mismatches.count < 10 {
        mismatches.append("\(value.bitPattern) (\(value)) at \(digits): \(got) instead of \(expected)")
      }
    }
    #expect(cases.count > 300_000)
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func shortestRoundTrips() {
    #expect(Fixed.shortest(600) == "600")
    #expect(Fixed.shortest(0.1) == "0.1")
    #expect(Fixed.shortest(-0.0) == "0")
    #expect(Double(Fixed.shortest(14.06992)) == 14.06992)
  }

  @Test func errorsNameWhereAndWhat() {
    let error = InputError(
      .malformed, SourceLocation(file: "walk-03.gpx", line: 118, column: 7), "unclosed <trkpt>",
      expected: "</trkpt>")
    #expect(error.description == "walk-03.gpx:118:7: unclosed <trkpt>; expected </trkpt>")
  }
}

struct NameSuggestionTests {
  @Test func closestNames() {
    let models = ["acsm-walking", "acsm-running", "cameron-walking", "keytel-2005"]
    #expect(NameSuggestion.closest(to: "acsm-walkin", among: models) == "acsm-walking")
    #expect(NameSuggestion.closest(to: "ACSM-Running", among: models) == "acsm-running")
    #expect(NameSuggestion.closest(to: "cameron", among: models) == "cameron-walking", "contained")
    #expect(NameSuggestion.closest(to: "zzz", among: models) == nil)
    // Three edits: kitten -> sitting (Levenshtein's classic example).
    #expect(NameSuggestion.distance("kitten", "sitting") == 3)
  }

  @Test func timeZonesMatchWhateverTheCase() throws {
    #expect(try TimeZoneLookup.zone(named: "europe/london").identifier == "Europe/London")
    #expect(try TimeZoneLookup.zone(named: "Europe/London").identifier == "Europe/London")
    do {
      _ = try TimeZoneLookup.zone(named: "Europe/Londn")
      Issue.record("an unknown zone must be an error")
    } catch {
      #expect("\(error)".contains("did you mean Europe/London?"))
    }
  }
}

/// `PerMode` holds one value per transport mode in `allCases` order.
struct PerModeTests {
  @Test func everyModesPositionIsItsPlaceInAllCases() {
    #expect(TransportMode.allCases.map(\.position) == Array(0..<TransportMode.allCases.count))
    var names = PerMode { $0.rawValue }
    #expect(TransportMode.allCases.allSatisfy { names[$0] == $0.rawValue })
    names[.train] = "rail"
    #expect(names[.train] == "rail" && names[.bus] == "bus")
  }
}
