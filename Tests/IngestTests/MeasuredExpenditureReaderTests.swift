import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

let measuredFixtures = packageRoot + "/Tests/IngestTests/Fixtures/measured"

struct MeasuredExpenditureCOSMEDTests {
  /// The K5 layout with the subject block in the columns left of `t`, an
  /// HR of 0 and an empty HR, positions in degrees-minutes-seconds (one
  /// cell quoted, the others with a bare `"`), and a test date and time.
  static func sideInfo(timeZone: TimeZone? = nil) throws -> MeasuredExpenditure {
    try MeasuredExpenditureReader(timeZone: timeZone).readCOSMED(
      path: measuredFixtures + "/cosmed-k5-side-info-hr-dropouts-dms.csv")
  }

  @Test func readsBreathRowsAndIgnoresOtherColumns() throws {
    let result = try Self.sideInfo()
    #expect(result.format == .cosmedK5)
    #expect(result.format.rawValue == "cosmed-k5")
    #expect(result.energySource == .analyserColumn)
    #expect(result.samples.count == 6)
    #expect(result.samples.map(\.line) == [3, 4, 5, 6, 7, 8])
    #expect(result.samples.map(\.energyKilocaloriesPerMinute) == [4.9, 5.0, 5.2, 5.0, 6.0, 6.0])
    #expect(result.samples.map(\.vo2MillilitersPerMinute) == [1000, 1020, 1050, 1010, 1200, 1200])
    #expect(result.samples.map(\.vco2MillilitersPerMinute) == [800, 830, 870, 840, 1000, 1000])
  }

  /// Test Date 25/03/2021 (25 > 12, so day first) and Test Time 10:15:32.
  /// 2021-03-25T10:15:32Z is 1616667332 s since 1970, from
  /// `python3 -c "import datetime as d; print(d.datetime(2021,3,25,10,15,32,
  /// tzinfo=d.timezone.utc).timestamp())"`.
  @Test func testDateAndTimeMakeTimesAbsolute() throws {
    let result = try Self.sideInfo()
    #expect(result.timesAreAbsolute)
    // t = 00:00:02, 00:00:05, 00:00:07, 00:00:08, 00:00:12, 00:00:20.
    #expect(result.samples.map(\.timeSeconds) == [2, 5, 7, 8, 12, 20].map { 1_616_667_332 + $0 })
    #expect(result.diagnostics.contains { $0.code == "local-time-as-utc" })

    // Berlin is UTC+1 on 25 March 2021 (summer time began on the 28th):
    // 10:15:32 there is 09:15:32Z = 1616667332 - 3600 = 1616663732.
    let berlin = try Self.sideInfo(timeZone: TimeZone(identifier: "Europe/Berlin"))
    expectClose(berlin.samples.first?.timeSeconds, 1_616_663_732 + 2, tolerance: 1e-6, "Berlin start")
    #expect(!berlin.diagnostics.contains { $0.code == "local-time-as-utc" })
  }

  /// Degrees + minutes / 60 + seconds / 3600, negative for S and W.
  @Test func positionsInDegreesMinutesSeconds() throws {
    let samples = try Self.sideInfo().samples
    // N51° 45' 55.56" = 51 + 45/60 + 55.56/3600 = 51 + 0.75 + 0.0154333... = 51.7654333...
    expectClose(samples[0].latitudeDegrees, 51 + 45.0 / 60 + 55.56 / 3600, tolerance: 1e-12, "lat 0")
    expectClose(samples[0].latitudeDegrees, 51.765_433_333, tolerance: 1e-9, "lat 0 written out")
    // W1° 15' 2.10" = -(1 + 0.25 + 2.10/3600) = -(1.25 + 0.000583333...) = -1.250583333...
    expectClose(samples[0].longitudeDegrees, -1.250_583_333, tolerance: 1e-9, "long 0")
    // N51° 45' 56.00" = 51.7655555...; W1° 15' 3.00" = -1.2508333...
    expectClose(samples[1].latitudeDegrees, 51.765_555_556, tolerance: 1e-9, "lat 1")
    expectClose(samples[1].longitudeDegrees, -1.250_833_333, tolerance: 1e-9, "long 1")
    // Plain decimal degrees pass through.
    #expect(samples[2].latitudeDegrees == 51.7656)
    #expect(samples[2].longitudeDegrees == -1.2510)
    // 0 and empty are no fix.
    #expect(samples[3].latitudeDegrees == nil && samples[3].longitudeDegrees == nil)
    #expect(samples[4].latitudeDegrees == nil && samples[4].longitudeDegrees == nil)
    // Hemisphere letter after the value: 51°45'57.00"N = 51.7658333..., 1°15'4.00"W = -1.2511111...
    expectClose(samples[5].latitudeDegrees, 51.765_833_333, tolerance: 1e-9, "lat 5")
    expectClose(samples[5].longitudeDegrees, -1.251_111_111, tolerance: 1e-9, "long 5")
    #expect(
      try Self.sideInfo().diagnostics.contains {
        $0.code == "unquoted-quote-marks" && $0.message.hasPrefix("4 cell(s)")
      })
  }

  /// km/h / 3.6: 7.2 -> 2.0, 9 -> 2.5, 5.4 -> 1.5, 3.6 -> 1.0, 10.8 -> 3.0 m/s.
  @Test func gpsSpeedInMetersPerSecondAndNoFixZeros() throws {
    let result = try Self.sideInfo()
    let speeds = result.samples.map(\.speedMetersPerSecond)
    let expected: [Double?] = [2.0, 2.5, 1.5, nil, 1.0, 3.0]
    for (actual, wanted) in zip(speeds, expected) {
      if let wanted { expectClose(actual, wanted, tolerance: 1e-12, "speed") } else { #expect(actual == nil) }
    }
    // Row t = 8 s has position 0, 0 and speed 0, altitude 0: no fix, all missing.
    #expect(result.samples.map(\.elevationMeters) == [60, 61, 62, nil, nil, 63])
    #expect(result.diagnostics.contains { $0.code == "gps-no-fix" && $0.message.hasPrefix("2 of 6") })
  }

  /// HR: 100 at 2 s, 0 at 5 s, 106 at 7 s: the readings either side are
  /// 7 - 2 = 5 s apart (<= 5 s), so 5 s gets 100 + (106 - 100) x (5 - 2) / (7 - 2)
  /// = 100 + 6 x 0.6 = 103.6. Empty at 8 s and 0 at 12 s lie between 106 at
  /// 7 s and 110 at 20 s, 13 s apart (> 5 s): left missing.
  @Test func heartRateDropoutsFilledOnlyOverShortGaps() throws {
    let result = try Self.sideInfo()
    let rates = result.samples.map(\.heartRateBeatsPerMinute)
    #expect(rates[0] == 100)
    expectClose(rates[1], 103.6, tolerance: 1e-9, "filled HR")
    #expect(rates[2] == 106)
    #expect(rates[3] == nil && rates[4] == nil)
    #expect(rates[5] == 110)
    #expect(result.samples.map(\.heartRateInterpolated) == [false, true, false, false, false, false])
    let note = try #require(result.diagnostics.first { $0.code == "heart-rate-dropouts" })
    #expect(note.message.hasPrefix("3 of 6 breath(s) had no heart rate (HR 0 or empty); 1 filled"))
    #expect(note.message.contains("at most 5 s apart; 2 left missing"))
    #expect(result.parameters.contains { $0.name == "heart_rate_gap_limit_s" && $0.value == "5" })

    // With a 15 s limit the 13 s gap is filled too: at 8 s,
    // 106 + (110 - 106) x (8 - 7) / 13 = 106.307692...; at 12 s, 106 + 4 x 5/13 = 107.538461...
    let wide = try MeasuredExpenditureReader(heartRateGapLimitSeconds: 15).readCOSMED(
      path: measuredFixtures + "/cosmed-k5-side-info-hr-dropouts-dms.csv")
    expectClose(wide.samples[3].heartRateBeatsPerMinute, 106 + 4.0 / 13, tolerance: 1e-9, "8 s")
    expectClose(wide.samples[4].heartRateBeatsPerMinute, 106 + 20.0 / 13, tolerance: 1e-9, "12 s")
  }

  /// Trapezoids over (t s, kcal/min): (2, 4.9) (5, 5.0) (7, 5.2) (8, 5.0)
  /// (12, 6.0) (20, 6.0), in kcal = kcal/min x s / 60.
  @Test func energyOverASpan() throws {
    let result = try Self.sideInfo()
    let t0 = try #require(result.samples.first?.timeSeconds) - 2
    // 3 s to 10 s: 2-5 clipped to 3-5, rate at 3 s = 4.9 + 0.1 x 1/3 = 4.93333:
    //   (4.93333 + 5.0) / 2 x 2 = 9.93333
    // 5-7: (5.0 + 5.2) / 2 x 2 = 10.2;  7-8: (5.2 + 5.0) / 2 x 1 = 5.1
    // 8-12 clipped to 8-10, rate at 10 s = 5.0 + 1.0 x 2/4 = 5.5: (5.0 + 5.5) / 2 x 2 = 10.5
    // sum 35.73333 kcal s/min / 60 = 0.595556 kcal
    let part = (((4.9 + 0.1 / 3) + 5.0) / 2 * 2 + 10.2 + 5.1 + 10.5) / 60
    expectClose(result.energyKilocalories(from: t0 + 3, to: t0 + 10), part, tolerance: 1e-12, "3-10 s")
    expectClose(result.energyKilocalories(from: t0 + 3, to: t0 + 10), 0.595_555_6, tolerance: 1e-7, "3-10 s")
    // Whole test: 14.85 + 10.2 + 5.1 + 22 + 48 = 100.15 kcal s/min / 60 = 1.669167 kcal.
    expectClose(result.energyKilocalories(from: t0 + 2, to: t0 + 20), 100.15 / 60, tolerance: 1e-12, "all")
    #expect(result.energyKilocalories(from: t0 + 5, to: t0 + 5) == 0)
    // Not covered: before the first breath, after the last, backwards.
    #expect(result.energyKilocalories(from: t0, to: t0 + 5) == nil)
    #expect(result.energyKilocalories(from: t0 + 15, to: t0 + 25) == nil)
    #expect(result.energyKilocalories(from: t0 + 10, to: t0 + 5) == nil)
  }

  /// Semicolon-separated, `,` decimals, information rows above the header,
  /// no EEm: Weir (3.941 VO2 + 1.106 VCO2) / 1000 per breath:
  /// 0 s:   (3.941 x 1200   + 1.106 x 1000) / 1000 = (4729.2 + 1106) / 1000      = 5.8352
  /// 3.5 s: (3.941 x 1500.5 + 1.106 x 1300) / 1000 = (5913.4705 + 1437.8) / 1000 = 7.3512705
  /// 6 s:   (3.941 x 2000   + 1.106 x 1800) / 1000 = (7882 + 1990.8) / 1000      = 9.8728
  @Test func semicolonVariantWithWeirEnergy() throws {
    let result = try MeasuredExpenditureReader().readCOSMED(
      path: measuredFixtures + "/cosmed-k5-semicolon-decimal-comma-no-eem.csv")
    #expect(result.energySource == .weirFromGasExchange)
    #expect(!result.timesAreAbsolute)
    #expect(result.samples.map(\.timeSeconds) == [0, 3.5, 6])
    #expect(result.samples.map(\.line) == [7, 8, 9])
    #expect(result.samples.map(\.heartRateBeatsPerMinute) == [90, 92, 95])
    let energy = result.samples.map(\.energyKilocaloriesPerMinute)
    for (actual, expected) in zip(energy, [5.8352, 7.351_270_5, 9.8728]) {
      expectClose(actual, expected, tolerance: 1e-12, "Weir kcal/min")
    }
    #expect(result.diagnostics.contains { $0.code == "energy-from-weir" })
    #expect(result.diagnostics.contains { $0.code == "times-relative" })
    #expect(!result.diagnostics.contains { $0.code == "heart-rate-dropouts" })
  }

  /// The same file gzipped reads the same (told apart by its magic bytes).
  @Test func gzippedExportReadsAsPlain() throws {
    let reader = MeasuredExpenditureReader()
    let plain = try reader.readCOSMED(
      path: measuredFixtures + "/cosmed-k5-semicolon-decimal-comma-no-eem.csv")
    let gzipped = try reader.readCOSMED(path: measuredFixtures + "/cosmed-k5-semicolon-gzipped.csv.gz")
    #expect(gzipped.samples == plain.samples)
  }

  /// VO2 alone at 5 kcal/L: 1500 mL/min x 5 / 1000 = 7.5 kcal/min; 1:00:01.5
  /// as t is 3600 + 1.5 s.
  @Test func oxygenAloneSaysTheRERWasAssumed() throws {
    let text = "t,VO2\ns,mL/min\n1:00:00,1000\n1:00:01.5,1500\n"
    let result = try MeasuredExpenditureReader().parseCOSMED(text, source: "v.csv")
    #expect(result.energySource == .oxygenAtFiveKilocaloriesPerLiter)
    #expect(result.samples.map(\.timeSeconds) == [3600, 3601.5])
    #expect(result.samples.map(\.energyKilocaloriesPerMinute) == [5.0, 7.5])
    let note = try #require(result.diagnostics.first { $0.code == "rer-assumed" })
    #expect(note.severity == .warning)
    #expect(note.message.contains("5 kcal per litre"))
    #expect(result.diagnostics.contains { $0.code == "no-heart-rate" })
  }

  @Test func weirEquation() {
    // (3.941 x 1000 + 1.106 x 850) / 1000 = (3941 + 940.1) / 1000 = 4.8811 kcal/min.
    expectClose(
      MeasuredExpenditureReader.weirKilocaloriesPerMinute(
        vo2MillilitersPerMinute: 1000, vco2MillilitersPerMinute: 850),
      4.8811, tolerance: 1e-12, "Weir")
  }

  /// Windows-1252 bytes (° is 0xB0) are read, with a note.
  @Test func windows1252Export() throws {
    var bytes = Array("t,VO2,Lat\ns,mL/min,\n2,1000,N51".utf8)
    bytes.append(0xB0)
    bytes += Array(" 30' 0\"\n".utf8)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("k5-cp1252-\(UUID()).csv").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try MeasuredExpenditureReader().readCOSMED(path: path)
    // N51° 30' 0" = 51 + 30/60 = 51.5.
    expectClose(result.samples.first?.latitudeDegrees, 51.5, tolerance: 1e-12, "lat")
    #expect(result.diagnostics.contains { $0.code == "text-encoding" })
  }

  @Test(arguments: [
    ("N51° 45' 55.56\"", MeasuredExpenditureReader.Axis.latitude, 51 + 45.0 / 60 + 55.56 / 3600),
    ("S33° 52' 4.80\"", .latitude, -(33 + 52.0 / 60 + 4.8 / 3600)),
    ("W1° 15' 2.10\"", .longitude, -(1 + 15.0 / 60 + 2.1 / 3600)),
    ("E151°12'30″", .longitude, 151 + 12.0 / 60 + 30.0 / 3600),
    ("N51° 45.926'", .latitude, 51 + 45.926 / 60),
    ("-1.25", .longitude, -1.25),
  ])
  func coordinateText(text: String, axis: MeasuredExpenditureReader.Axis, degrees: Double) throws {
    let location = SourceLocation(file: "c.csv", line: 1, column: 1)
    let value = try MeasuredExpenditureReader.coordinate(
      text, axis: axis, decimalComma: false, location: location)
    expectClose(value, degrees, tolerance: 1e-12, text)
  }

  @Test(arguments: [
    (
      "a,b\n1,2\n", "x.csv:1: no header row with a t column and a VO2 column in the first 200 lines; expected"
    ),
    ("t,VO2\ns,mL/min\n2,1000\n3,12a\n", "x.csv:4:2: cannot read VO2 \"12a\" as a number; expected"),
    (
      "t,VO2\ns,mL/min\n2,1000\n5,1100\n4,1200\n",
      "x.csv:5:1: time goes back from 5 s (line 4) to 4 s; expected times that never decrease"
    ),
    ("t,VO2\ns,mL/min\n2,1000\nabc,1100\n", "x.csv:4:1: cannot read t \"abc\" as a time"),
    ("t,VO2\ns,mL/kg/min\n2,40\n", "x.csv:2:2: VO2 is in \"mL/kg/min\"; expected mL/min or L/min"),
    ("t,VO2,Lat\ns,mL/min,\n2,1000,E51° 45' 55\"\n", "x.csv:3:3: cannot read latitude \"E51° 45' 55\"\""),
    ("t,VO2,HR\ns,mL/min,bpm\n2,1000,-3\n", "x.csv:3:3: HR \"-3\" is negative"),
    ("t,VO2\ns,mL/min\n", "x.csv:1: no breath rows after the header"),
    ("t,VO2\ns,mL/min\n2,\"1000,5\"\n", "x.csv:3:2: cannot read VO2 \"1000,5\" as a number (a ',' decimal"),
  ])
  func brokenFilesSayWhereAndWhat(text: String, prefix: String) {
    do {
      _ = try MeasuredExpenditureReader().parseCOSMED(text, source: "x.csv")
      Issue.record("read without error")
    } catch let error as InputError {
      #expect(error.description.hasPrefix(prefix), "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  /// Every cut of the fixture, at each line and mid-line, reads or throws
  /// an `InputError`; none crashes.
  @Test func truncatedFilesReadOrSayWhy() throws {
    let text = try String(
      contentsOfFile: measuredFixtures + "/cosmed-k5-side-info-hr-dropouts-dms.csv", encoding: .utf8)
    for cut in stride(from: 0, through: text.count, by: 7) {
      do {
        _ = try MeasuredExpenditureReader().parseCOSMED(String(text.prefix(cut)), source: "cut.csv")
      } catch is InputError {
      } catch {
        Issue.record("cut at \(cut): unexpected \(error)")
      }
    }
  }

  @Test func missingFileNamesIt() {
    #expect(throws: InputError.self) {
      _ = try MeasuredExpenditureReader().readCOSMED(path: measuredFixtures + "/no-such-file.csv")
    }
  }
}

struct MeasuredExpenditureGenericTests {
  /// W to kcal/min: W x 60 / 4184. 100 W = 6000 / 4184 = 1.434034 kcal/min;
  /// 200 W = 2.868069. 0-60 s at a mean of 150 W is 9000 J = 9000 / 4184
  /// = 2.151052 kcal.
  @Test func wattsWithRelativeSeconds() throws {
    let text = "time_s,power_w,other\n0,100,x\n60,200,y\n120,,z\n"
    let result = try MeasuredExpenditureReader().parseGeneric(
      text, source: "w.csv", timeColumn: "time_s", energyColumn: "power_w", energyUnit: .watts)
    #expect(result.format == .generic)
    #expect(result.energySource == .energyColumn)
    #expect(!result.timesAreAbsolute)
    #expect(result.samples.map(\.timeSeconds) == [0, 60, 120])
    expectClose(result.samples[0].energyKilocaloriesPerMinute, 6000.0 / 4184, tolerance: 1e-12, "100 W")
    expectClose(result.samples[1].energyKilocaloriesPerMinute, 12000.0 / 4184, tolerance: 1e-12, "200 W")
    #expect(result.samples[2].energyKilocaloriesPerMinute == nil)
    expectClose(result.energyKilocalories(from: 0, to: 60), 9000.0 / 4184, tolerance: 1e-12, "0-60 s")
    expectClose(result.energyKilocalories(from: 0, to: 60), 2.151_052, tolerance: 1e-6, "0-60 s")
    // The last row has no energy: a span reaching it is not covered.
    #expect(result.energyKilocalories(from: 0, to: 120) == nil)
    #expect(result.diagnostics.contains { $0.code == "energy-missing" && $0.message.hasPrefix("1 of 3") })
    #expect(result.diagnostics.contains { $0.code == "times-relative" })
  }

  /// VO2 with RER 0.85 through Weir: (3.941 + 1.106 x 0.85) / 1000 = 4.8811 / 1000
  /// kcal per mL; 1000 mL/min -> 4.8811, 2000 -> 9.7622 kcal/min; over the
  /// minute between them (4.8811 + 9.7622) / 2 = 7.32165 kcal.
  /// 2021-03-25T10:00:00Z = 1616666400 s (python3 datetime, as above).
  @Test func oxygenUptakeWithGivenRERAndISOTimes() throws {
    let text = "timestamp;vo2_ml_min\n2021-03-25T10:00:00Z;1000\n2021-03-25T11:01:00+01:00;2000\n"
    let result = try MeasuredExpenditureReader().parseGeneric(
      text, source: "v.csv", timeColumn: "timestamp", energyColumn: "vo2_ml_min",
      energyUnit: .oxygenUptakeMillilitersPerMinute(respiratoryExchangeRatio: 0.85))
    #expect(result.timesAreAbsolute)
    #expect(result.energySource == .weirFromOxygenAndGivenRER)
    #expect(result.samples.map(\.timeSeconds) == [1_616_666_400, 1_616_666_460])
    expectClose(result.samples[0].energyKilocaloriesPerMinute, 4.8811, tolerance: 1e-12, "1000 mL/min")
    expectClose(result.samples[1].energyKilocaloriesPerMinute, 9.7622, tolerance: 1e-12, "2000 mL/min")
    #expect(result.samples[1].vco2MillilitersPerMinute == 1700)
    expectClose(
      result.energyKilocalories(from: 1_616_666_400, to: 1_616_666_460), 7.32165, tolerance: 1e-12, "minute")
    #expect(result.parameters.contains { $0.name == "respiratory_exchange_ratio" && $0.value == "0.85" })
  }

  /// kcal/h / 60 with `,` decimals in a semicolon file: 120,6 kcal/h = 2.01 kcal/min.
  @Test func kilocaloriesPerHourSemicolon() throws {
    let result = try MeasuredExpenditureReader().parseGeneric(
      "t;EE\n0;120,6\n30;180\n", source: "h.csv", timeColumn: "t", energyColumn: "EE",
      energyUnit: .kilocaloriesPerHour)
    expectClose(result.samples[0].energyKilocaloriesPerMinute, 2.01, tolerance: 1e-12, "120.6 kcal/h")
    #expect(result.samples[1].energyKilocaloriesPerMinute == 3)
  }

  @Test(arguments: [
    ("a,b\n1,2\n", "g.csv:1: no columns named \"time\" and \"kcal\" in the header (it has \"a\", \"b\")"),
    (
      "time,kcal\n1,2\n2021-03-25T10:00:00Z,3\n",
      "g.csv:3:1: cannot read time \"2021-03-25T10:00:00Z\" as a time"
    ),
    ("time,kcal\n5,2\n4,3\n", "g.csv:3:1: time goes back from line 2"),
    ("time,kcal\n1,two\n", "g.csv:2:2: cannot read kcal \"two\" as a number"),
  ])
  func brokenGenericFiles(text: String, prefix: String) {
    do {
      _ = try MeasuredExpenditureReader().parseGeneric(
        text, source: "g.csv", timeColumn: "time", energyColumn: "kcal", energyUnit: .kilocaloriesPerMinute)
      Issue.record("read without error")
    } catch let error as InputError {
      #expect(error.description.hasPrefix(prefix), "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func implausibleRERIsRefused() {
    #expect(throws: UsageError.self) {
      _ = try MeasuredExpenditureReader().parseGeneric(
        "t,vo2\n0,1000\n", source: "r.csv", timeColumn: "t", energyColumn: "vo2",
        energyUnit: .oxygenUptakeMillilitersPerMinute(respiratoryExchangeRatio: 8.5))
    }
  }
}
