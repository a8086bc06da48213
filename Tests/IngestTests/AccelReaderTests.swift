import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

let accelFixtures = fixtures + "/accel"

/// Reads a fixture whole: layout, times, values and the reader's report.
func readAccel(
  _ name: String, map: AccelColumnMap = AccelColumnMap(), timeZone: TimeZone? = nil,
  chunkBytes: Int = 2 << 20,
  workers: Int = 2
) throws -> (AccelFileInfo, [Double], [Double]) {
  var times: [Double] = []
  var values: [Double] = []
  let reader = AccelReader(map: map, timeZone: timeZone, workers: workers, chunkBytes: chunkBytes)
  let info = try reader.read(path: accelFixtures + "/" + name) { block in
    times += block.time
    values += block.values
  }
  return (info, times, values)
}

func inputError(_ body: () throws -> Void) -> InputError? {
  do {
    try body()
    return nil
  } catch let error as InputError {
    return error
  } catch {
    return nil
  }
}

/// Seconds since 1970 UTC of a day number (days since 1970-01-01) and a
/// time of day.
func utc(_ day: Double, _ hour: Double, _ minute: Double = 0, _ second: Double = 0) -> Double {
  day * 86400 + hour * 3600 + minute * 60 + second
}

struct AccelDialectTests {
  /// 2014-05-07 is day 16197 since 1970-01-01 (Hinnant's days_from_civil);
  /// 10:00 adds 36000 s.
  static let may7At10 = utc(16197, 10)

  @Test func actiGraphRawWithTimestamps() throws {
    let (info, t, v) = try readAccel("actigraph-raw-timestamp.csv")
    #expect(info.layout.format == .actigraphRaw)
    #expect(info.layout.declaredRateHz == 30)
    #expect(info.layout.metadata["serial_number"] == "NEO1F18120387")
    #expect(t.count == 4)
    #expect(t[0] == Self.may7At10)
    expectClose(t[1], (Self.may7At10 + 0.033), tolerance: 1e-6)
    #expect(v[0] == -0.182 && v[1] == -0.182 && v[2] == 0.962)
    #expect(v[9] == 0 && v[10] == 0.6 && v[11] == 0.8)
  }

  /// Without a timestamp column rows are start + i/30 s; the header's
  /// dd/MM/yyyy makes 31/12/2014 a date, and the rows cross midnight into
  /// 2015 (day 16435 is 2014-12-31).
  @Test func actiGraphRawWithoutTimestampsCountsFromTheHeaderStart() throws {
    let (info, t, _) = try readAccel("actigraph-raw-no-timestamp.csv")
    #expect(info.layout.format == .actigraphRaw)
    let start = utc(16435, 23, 59, 59)
    #expect(t == [start, start + 1.0 / 30, start + 2.0 / 30])
    #expect(info.diagnostics.contains { $0.code == "local-time-as-utc" })
  }

  /// The local start is read in the zone given: 10:00 in London on
  /// 2014-05-07 (BST, UTC+1) is 09:00Z.
  @Test func actiGraphHeaderStartInATimeZone() throws {
    let (info, t, _) = try readAccel(
      "actigraph-raw-timestamp.csv", timeZone: TimeZone(identifier: "Europe/London")!)
    #expect(t[0] == Self.may7At10 - 3600)
    #expect(!info.diagnostics.contains { $0.code == "local-time-as-utc" })
  }

  /// GGIR's ActiGraph13.csv layout: headerless epoch rows axis1, axis2,
  /// axis3, steps every 15 s; header lines padded with commas.
  @Test func actiGraphCountsWithoutColumnNames() throws {
    let (info, t, v) = try readAccel("actigraph-counts-headerless.csv")
    #expect(info.layout.format == .actigraphCounts)
    #expect(info.layout.kind == .counts)
    #expect(info.layout.declaredRateHz == 1.0 / 15)
    // 2013-08-26 is day 15943; 09:00 adds 32400 s.
    let start = utc(15943, 9)
    #expect(t == [start, start + 15, start + 30, start + 45])
    #expect(Array(v[5..<9]) == [36, 0, 85, 1])
    #expect(v[9].isNaN)  // no vector magnitude column
  }

  @Test func actiGraphCountsWithColumnNames() throws {
    let (info, t, v) = try readAccel("actigraph-counts-named.csv")
    #expect(info.layout.kind == .counts)
    #expect(t[1] == Self.may7At10 + 60)
    #expect(Array(v[5..<10]) == [2000, 1500, 900, 95, 2657.07])
  }

  /// ActiGraph Link declares dd/MM/yyyy but writes ISO times with Z.
  @Test func actiGraphLinkWithISOTimestamps() throws {
    let (info, t, v) = try readAccel("actigraph-link-iso.csv")
    #expect(info.layout.kind == .counts)
    // 2017-09-12 is day 17421.
    #expect(t[2] == utc(17421, 15, 0, 2))
    #expect(Array(v[10..<15]) == [113, 9, 29, 1, 118])
    #expect(!info.diagnostics.contains { $0.code == "local-time-as-utc" })
  }

  @Test func axivitySixColumnsWithFormattedTimes() throws {
    let (info, t, v) = try readAccel("axivity-ax6-formatted.csv")
    #expect(info.layout.format == .axivity)
    #expect(info.layout.columnCount == 7)
    #expect(t.count == 3)
    expectClose(t[1] - t[0], 0.01, tolerance: 1e-6)
    #expect(Array(v[3..<6]) == [-0.0625, 0, 1])
  }

  /// OmGui's unix-seconds export: 1551178506.01 is 2019-02-26T10:55:06.01Z.
  @Test func axivityUnixSeconds() throws {
    let (info, t, _) = try readAccel("axivity-unix.csv")
    #expect(info.layout.format == .axivity)
    expectClose(t[0], 1_551_178_506.01, tolerance: 1e-6)
  }

  /// `acceleration (mg) - start - end - sampleRate = 5 seconds`: one ENMO
  /// value per 5 s from 2014-12-08 10:00 (day 16412).
  @Test func ukBiobankEpochs() throws {
    let (info, t, v) = try readAccel("ukbiobank-epoch.csv")
    #expect(info.layout.format == .ukBiobankEpoch)
    #expect(info.layout.kind == .enmo)
    let start = utc(16412, 10)
    #expect(t == [start, start + 5, start + 10, start + 15, start + 20, start + 25])
    #expect(v == [89.2, 12.5, 0, 45, 101.3, 3.1])
  }

  /// Sensor Logger writes time in unix nanoseconds and the axes as z, y, x
  /// in m/s^2: 9.80665 m/s^2 is exactly 1 g.
  @Test func sensorLoggerColumnsByName() throws {
    let (info, t, v) = try readAccel("sensor-logger-accelerometer.csv")
    #expect(info.layout.format == .phone)
    #expect(info.layout.unit == .metersPerSecondSquared)
    expectClose(t[0], 1_698_411_600, tolerance: 1e-6)
    expectClose(t[1] - t[0], 0.01, tolerance: 1e-6)
    #expect(v[0] == 0 && v[1] == 0 && abs(v[2] - 1) < 1e-12)
    expectClose(v[8], 1.5, tolerance: 1e-12)
  }

  /// phyphox: quoted names with units, elapsed seconds in E notation and
  /// no start: times are relative and reported as such.
  @Test func phyphoxElapsedSeconds() throws {
    let (info, t, v) = try readAccel("phyphox.csv")
    #expect(info.layout.format == .phone)
    #expect(!info.layout.absoluteTime)
    #expect(t == [0, 0.01])
    #expect(abs(v[4] - 0.6) < 1e-12 && abs(v[5] - 0.8) < 1e-12)
    #expect(info.diagnostics.contains { $0.code == "no-start-time" })
  }

  /// phyphox's "CSV (semicolon, decimal comma)" export, as a spreadsheet in
  /// a decimal-comma locale reads it: the commas are decimal points, the
  /// semicolons the delimiters. Values by hand: 5.88399 / 9.80665 = 0.6 g,
  /// -1.96133 / 9.80665 = -0.2 g; times 0, 0.01 and 0.02 s.
  @Test func phyphoxDecimalComma() throws {
    let (info, t, v) = try readAccel("phyphox-decimal-comma.csv")
    #expect(info.layout.delimiter == 0x3B && info.layout.decimalSeparator == 0x2C)
    #expect(info.layout.format == .phone && info.layout.columnCount == 5)
    #expect(zip(t, [0, 0.01, 0.02]).allSatisfy { abs($0 - $1) < 1e-12 } && t.count == 3)
    #expect(abs(v[4] - 0.6) < 1e-12 && abs(v[5] - 0.8) < 1e-12)
    #expect(abs(v[6] + 0.2) < 1e-12 && abs(v[8] - 1) < 1e-12)
    let note = info.diagnostics.first { $0.code == "decimal-comma" }
    #expect(note?.message.contains("fields separated by \";\"") == true, "\(info.diagnostics)")
    // The absolute acceleration column is not an axis; a blank line among
    // the rows neither ends the decimal commas nor goes unreported.
    #expect(v.count == 9)
    #expect(info.diagnostics.contains { $0.code == "blank-lines" })
  }

  /// ActiLife exports in a decimal-comma locale: semicolons, `-0,182` in
  /// the raw file and `55,68` for the vector magnitude of the counts file,
  /// dates and times untouched. Each reads to the times and values of its
  /// decimal-point twin (the same fixture written the other way).
  @Test(arguments: [
    ("actigraph-raw-decimal-comma.csv", "actigraph-raw-timestamp.csv"),
    ("actigraph-counts-decimal-comma.csv", "actigraph-counts-named.csv"),
  ])
  func actiLifeDecimalComma(comma: String, point: String) throws {
    let (info, t, v) = try readAccel(comma)
    let (twin, t2, v2) = try readAccel(point)
    #expect(info.layout.decimalSeparator == 0x2C && twin.layout.decimalSeparator == 0x2E)
    #expect(info.layout.format == twin.layout.format && info.layout.kind == twin.layout.kind)
    #expect(t == t2 && v.count == v2.count && !v.isEmpty)
    #expect(zip(v, v2).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) })
    #expect(info.diagnostics.contains { $0.code == "decimal-comma" && $0.location?.hasSuffix(":12") == true })
  }

  /// `1,234` alone may be a thousands separator: no decimal comma is
  /// assumed, and the cell is an error naming its line and column.
  @Test func thousandsSeparatorsAreNotTakenForDecimalCommas() {
    let e = inputError { _ = try readAccel("thousands-separators.csv") }
    #expect(e?.location.line == 2 && e?.location.column == 3, "\(String(describing: e))")
    #expect(e?.problem == "cell \"1,234\" in column 2 (x) is not a finite number")
  }

  /// A decimal point among decimal commas could be a thousands separator
  /// or another writer's row: an error on its line, not a guess.
  @Test func aDecimalPointAmongDecimalCommasIsAnError() {
    let e = inputError { _ = try readAccel("decimal-comma-mixed.tsv") }
    #expect(e?.location.line == 4, "\(String(describing: e))")
    #expect(
      e?.problem.contains("\"1.5\" has a decimal point where line 2 and on write decimal commas") == true)
  }

  /// Empatica E4 `ACC.csv` as E4 connect exports it: the start (Unix s,
  /// UTC) and the rate (32 Hz) each written three times, then x, y, z in
  /// 1/64 g (Empatica support, "Data export and formatting from E4
  /// connect"). By hand: 61/64 = 0.953125 g, 64/64 = 1 g, -32/64 = -0.5 g;
  /// times 2017-05-22T07:15:25Z plus 0, 1/32 and 2/32 s.
  @Test func empaticaE4Acc() throws {
    let (info, t, v) = try readAccel("empatica-e4-acc.csv")
    #expect(info.layout.format == .empaticaE4 && info.layout.kind == .raw && info.layout.absoluteTime)
    #expect(info.layout.declaredRateHz == 32 && info.layout.headerLines == 2)
    #expect(info.layout.metadata["start"] == "2017-05-22T07:15:25Z")
    let start = 1_495_437_325.0
    let times: [Double] = [start, start + 1.0 / 32, start + 2.0 / 32]
    #expect(t == times)
    let values: [Double] = [-0.203125, -0.140625, 0.953125, 0, 0, 1, -0.5, 0.25, 0.75]
    #expect(v == values)
  }

  /// Polar Sensor Logger (Polar Verity Sense, H10): semicolons, the
  /// phone's local date-time first, the sensor's own nanoseconds, then x,
  /// y, z in millig with gravity (Polar BLE SDK). The phone's time is the
  /// time column, read as UTC with a note unless --tz says otherwise.
  @Test func polarSensorLogger() throws {
    let (info, t, v) = try readAccel("polar-sensor-logger.txt")
    #expect(info.layout.delimiter == 0x3B && info.layout.valueColumns == [2, 3, 4])
    #expect(info.layout.unit == .milliG)
    // 2023-03-15T10:11:12Z is 1678875072 s since 1970.
    let times: [Double] = [1_678_875_072, 1_678_875_072.019, 1_678_875_072.038]
    #expect(zip(t, times).allSatisfy { abs($0 - $1) < 1e-6 } && t.count == 3)
    let values: [Double] = [-0.015, 0.098, -1, -0.015, 0.098, -0.947, 0.6, -0.8, 0]
    #expect(zip(v, values).allSatisfy { abs($0 - $1) < 1e-12 } && v.count == 9)
    #expect(info.diagnostics.contains { $0.code == "local-time-as-utc" })
  }

  /// Physics Toolbox's g-force meter: time in elapsed seconds, gFx, gFy,
  /// gFz in g, then the total (TgF), which is not an axis.
  @Test func physicsToolboxGForce() throws {
    let (info, t, v) = try readAccel("physics-toolbox-gforce.csv")
    #expect(!info.layout.absoluteTime)
    #expect(t == [0, 0.01, 0.02])
    #expect(v.count == 9)
    #expect(abs(v[0] - 0.012) < 1e-12 && abs(v[1] + 0.981) < 1e-12 && abs(v[2] - 0.120) < 1e-12)
    #expect(abs(v[8] - 0.110) < 1e-12)
  }

  /// AndroSensor: semicolons, every sensor in its own columns (the
  /// accelerometer first, gravity included, then linear acceleration),
  /// "Time since start in ms" and a date in its own format. The time is
  /// the milliseconds column, read as milliseconds: as seconds it made a
  /// 152 s walk 42 hours long at 0.2 Hz.
  @Test func androSensorMillisecondsSinceStart() throws {
    let (info, t, v) = try readAccel("androsensor.csv")
    #expect(!info.layout.absoluteTime)
    // 0, 2, 8 and 13 ms.
    #expect(zip(t, [0, 0.002, 0.008, 0.013]).allSatisfy { abs($0 - $1) < 1e-12 } && t.count == 4)
    #expect(abs(v[0] - 0.3783 / 9.80665) < 1e-12 && abs(v[1] - 8.7376 / 9.80665) < 1e-12)
    #expect(
      info.diagnostics.contains { $0.code == "no-start-time" && $0.message.contains("elapsed milliseconds") })
  }

  /// Elapsed times in whole numbers 10 apart are read as seconds (0.1 Hz),
  /// as the column does not say; a warning names the milliseconds reading,
  /// and with --time-format elapsed-ms they are 10 ms apart.
  @Test func wholeNumberElapsedTimesAreQuestioned() throws {
    let (info, t, _) = try readAccel("elapsed-whole-numbers.csv")
    #expect(t == [0, 10, 20, 30, 40])
    let warning = try #require(info.diagnostics.first { $0.code == "elapsed-seconds-assumed" })
    #expect(warning.severity == .warning)
    #expect(
      warning.text.contains("step by 10 and are read as elapsed seconds (0.1 Hz); if they are milliseconds"))
    var map = AccelColumnMap()
    map.timeFormat = .elapsedMilliseconds
    let (stated, ms, _) = try readAccel("elapsed-whole-numbers.csv", map: map)
    #expect(zip(ms, [0, 0.01, 0.02, 0.03, 0.04]).allSatisfy { abs($0 - $1) < 1e-12 })
    #expect(!stated.diagnostics.contains { $0.code == "elapsed-seconds-assumed" })
  }

  /// GENEActiv's CSV: a 100-line header (device, `Measurement Frequency,100
  /// Hz`, `Time Zone,GMT +01:00`, units g), then rows of time with
  /// milliseconds after a colon, x, y, z, lux, button and temperature. The
  /// times are local in the header's zone: 09:30 at GMT+1 is 08:30Z; --tz
  /// takes precedence.
  @Test func geneActivCSV() throws {
    let (info, t, v) = try readAccel("geneactiv.csv")
    #expect(info.layout.format == .geneactiv && info.layout.headerLines == 100)
    #expect(info.layout.declaredRateHz == 100)
    #expect(
      info.layout.metadata["serial_number"] == "012345" && info.layout.metadata["location"] == "left wrist")
    // 2021-06-01 is day 18779.
    #expect(t.first == utc(18779, 8, 30) && t.count == 5)
    #expect(abs(t[4] - t[0] - 0.04) < 1e-6)
    #expect(v[0] == 0.0386 && v[1] == 0.8910 && v[2] == 0.5057 && v.count == 15)
    #expect(info.diagnostics.contains { $0.code == "header-time-zone" && $0.message.contains("GMT +01:00") })
    #expect(!info.diagnostics.contains { $0.code == "local-time-as-utc" })
    let (stated, inUTC, _) = try readAccel("geneactiv.csv", timeZone: TimeZone(identifier: "UTC"))
    #expect(inUTC.first == utc(18779, 9, 30))
    #expect(!stated.diagnostics.contains { $0.code == "header-time-zone" })
  }

  /// Sensor Logger writes m/s2, except iOS's uncalibrated accelerometer
  /// (in g by default): |a| near 1 is read as g, with a note; as m/s2 it
  /// would be a tenth of gravity.
  @Test func sensorLoggerInGIsReadAsG() throws {
    let (info, _, v) = try readAccel("sensor-logger-uncalibrated-ios.csv")
    #expect(info.layout.unit == .g)
    // Columns z, y, x: x is the fifth.
    #expect(v[0] == 0.10 && v[1] == 0.05 && v[2] == -0.98)
    #expect(
      info.diagnostics.contains {
        $0.code == "unit-inferred" && $0.message.hasPrefix("Sensor Logger writes m/s2")
      })
    let (calibrated, _, _) = try readAccel("sensor-logger-accelerometer.csv")
    #expect(calibrated.layout.unit == .metersPerSecondSquared)
  }

  /// SensorLog (iOS and watchOS): `loggingTime(txt)` with a space before
  /// the offset, the accelerometer with gravity in g among gravity-free
  /// and gravity-only columns, which are not the axes.
  @Test func sensorLogAccelerometer() throws {
    let (info, t, v) = try readAccel("sensorlog-ios.csv")
    #expect(info.layout.valueColumns == [3, 4, 5])
    #expect(info.layout.unit == .g)
    // 2019-05-23 14:25:03 +0200 is 12:25:03Z; 2019-05-23 is day 18039.
    #expect(t.first == utc(18039, 12, 25, 3))
    #expect(v[0] == 0.038574 && v[1] == 0.890991 && v[2] == 0.505737)
  }

  @Test func aColumnMapOverridesDetection() throws {
    var map = AccelColumnMap()
    map.time = .name("seconds_elapsed")
    map.timeFormat = .elapsed
    map.start = 1_700_000_000
    map.x = .name("z")
    map.y = .name("y")
    map.z = .position(5)
    map.unit = .metersPerSecondSquared
    let (info, t, v) = try readAccel("sensor-logger-accelerometer.csv", map: map)
    #expect(info.layout.absoluteTime)
    #expect(t[0] == 1_700_000_000 && t[1] == 1_700_000_000.01)
    #expect(abs(v[0] - 1) < 1e-12 && v[2] == 0)
  }

  /// Nanoseconds read as elapsed seconds put the rows 5e10 years away: a
  /// clear error, not an overflow downstream.
  @Test func timesOutOfRangeAreAnError() {
    var map = AccelColumnMap()
    map.time = .position(1)
    map.timeFormat = .elapsed
    map.start = 0
    let e = inputError { _ = try readAccel("sensor-logger-accelerometer.csv", map: map) }
    #expect(e?.location.line == 2)
    #expect(e?.expected == "a time between the years 1653 and 5138 (-1e10 to 1e11 s since 1970)")
  }

  @Test func gzippedFilesReadDirectly() throws {
    let plain = accelFixtures + "/ukbiobank-epoch.csv"
    let gz = FileManager.default.temporaryDirectory.appendingPathComponent("ukb-\(UUID().uuidString).csv.gz")
      .path
    defer { try? FileManager.default.removeItem(atPath: gz) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "gzip -c '\(plain)' > '\(gz)'"]
    try p.run()
    p.waitUntilExit()
    var values: [Double] = []
    let info = try AccelReader().read(path: gz) { values += $0.values }
    #expect(info.compressed)
    #expect(values == [89.2, 12.5, 0, 45, 101.3, 3.1])
  }

  /// A pipe cannot be peeked at for the gzip magic bytes; a gzipped and a
  /// plain recording written into a named pipe read as the files do.
  @Test func gzippedAndPlainTextThroughAPipe() throws {
    let plain = accelFixtures + "/ukbiobank-epoch.csv"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let fifo = folder + "/recording"
    #expect(mkfifo(fifo, 0o600) == 0)
    var expected: [Double] = []
    _ = try AccelReader().read(path: plain) { expected += $0.values }
    for (command, compressed) in [
      ("gzip -c '\(plain)' > '\(fifo)'", true), ("cat '\(plain)' > '\(fifo)'", false),
    ] {
      let writer = Process()
      writer.executableURL = URL(fileURLWithPath: "/bin/sh")
      writer.arguments = ["-c", command]
      try writer.run()
      var values: [Double] = []
      let info = try AccelReader().read(path: fifo) { values += $0.values }
      writer.waitUntilExit()
      #expect(info.compressed == compressed)
      #expect(values == expected)
    }
  }

  /// Chunks of 64 bytes split lines across many parse tasks: the rows and
  /// the line numbers of diagnostics are those of one big chunk.
  @Test func chunkBoundariesDoNotChangeRowsOrLines() throws {
    let whole = try readAccel("time-repeated-and-backwards.csv")
    let small = try readAccel("time-repeated-and-backwards.csv", chunkBytes: 64)
    let serial = try readAccel("time-repeated-and-backwards.csv", chunkBytes: 64, workers: 1)
    #expect(whole.1 == small.1 && whole.2 == small.2 && serial.1 == whole.1)
    #expect(whole.0.diagnostics == small.0.diagnostics)
    let error = inputError { _ = try readAccel("non-numeric-cell.csv", chunkBytes: 40) }
    #expect(error?.location.line == 3)
  }
}

struct AccelNumberTests {
  /// With a decimal comma: the comma is the decimal point, a point is no
  /// part of a number, and E notation reads as in phyphox's exports.
  @Test func decimalCommaNumbers() {
    func read(_ text: String) -> Double? {
      Array(text.utf8).withUnsafeBufferPointer { NumberScanner.double($0, decimal: 0x2C) }
    }
    #expect(read("1,5") == 1.5)
    #expect(read(" -0,25 ") == -0.25)
    #expect(read("-2,5E+01") == -25)
    #expect(read("9,806650000E+00") == 9.80665)
    #expect(read("12") == 12)
    #expect(read("1.5") == nil && read("1.234,5") == nil && read("1,2,3") == nil && read("1,5E+1.0") == nil)
    #expect(Array("1.5".utf8).withUnsafeBufferPointer { NumberScanner.double($0) } == 1.5)
  }

  /// Cells of every shape the row parser reads on its fast paths (0 to 9
  /// integer digits, 0 to 11 fraction digits, signs, a cell at the end of
  /// a LF or CRLF line, rows near the end of a chunk) come out as the
  /// standard library's correctly rounded reading of the same text.
  @Test func cellsReadAsTheStandardLibraryReadsThem() throws {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      // xorshift64*: a fixed sequence, so a failure repeats.
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % bound
    }
    func cell() -> String {
      let integer = next(10)
      let fraction = next(12)
      var text = next(3) == 0 ? "-" : ""
      for _ in 0..<integer { text += String(next(10)) }
      if fraction > 0 || integer == 0 {
        text += "."
        for _ in 0..<max(fraction, 1) { text += String(next(10)) }
      }
      return text
    }
    var text = "time,x,y,z\n"
    var expected: [Double] = []
    for row in 0..<4000 {
      let cells = [cell(), cell(), cell()]
      expected += cells.map { Double($0)! }
      let second = String(format: "%02d.%03d", (row / 1000) % 60, row % 1000)
      text += "2024-03-01T08:\(String(format: "%02d", row / 60000)):\(second)Z,"
      text += cells.joined(separator: ",") + (row % 7 == 0 ? "\r\n" : "\n")
    }
    var map = AccelColumnMap()
    map.unit = .g
    for chunk in [2 << 20, 333] {
      var values: [Double] = []
      _ = try AccelReader(map: map, chunkBytes: chunk).read(
        chunks: LineChunks(bytes: Array(text.utf8), source: "numbers.csv")
      ) { values += $0.values }
      #expect(values.count == expected.count)
      let differing = zip(values, expected).filter { $0.bitPattern != $1.bitPattern }
      let first = Array(differing.prefix(3))
      #expect(differing.count == 0, "chunks of \(chunk) bytes; first differences (read, expected): \(first)")
    }
  }
}

/// Every number of the real accelerometer CSVs shipped in Datasets/ (and
/// of the folder in `ENERGYLAB_STRTOD_ROOT`, when set) reads as C's
/// `strtod` reads the same cell: the row parser's own number reading is
/// correctly rounded on real files, not only on generated cells.
struct AccelRealFileNumberTests {
  static func files() throws -> [String] {
    var roots = [packageRoot + "/Datasets"]
    if let extra = ProcessInfo.processInfo.environment["ENERGYLAB_STRTOD_ROOT"] { roots.append(extra) }
    var out: [String] = []
    for root in roots {
      guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
      for case let name as String in walker
      where name.hasSuffix("accelerometer.csv") || name.hasSuffix("accelerometer.csv.gz")
        || name.hasSuffix("hz.csv.gz")
      {
        out.append(root + "/" + name)
      }
    }
    return out.sorted()
  }

  @Test func everyCellReadsAsStrtodReadsIt() throws {
    let files = try Self.files()
    #expect(files.count >= 9)
    var map = AccelColumnMap()
    map.unit = .g  // no scaling: the value is the number as read
    // Files without a time column (the 10 Hz wear file) need a rate and a
    // start.
    var implicitTime = map
    implicitTime.sampleRateHz = 10
    implicitTime.start = 0
    var cells = 0
    for file in files {
      let chunks = try LineChunks(path: file)
      var text: [UInt8] = []
      while let more = try chunks.next() { text += more }
      let head = Array(text.prefix(1 << 16))
      let layout =
        try (try? AccelDetector(map: map, timeZone: nil).detect(head: head, file: file))
        ?? AccelDetector(map: implicitTime, timeZone: nil).detect(head: head, file: file)
      let parsed = AccelRowParser(layout: layout, timeZone: nil).parse(
        text, skipLines: layout.headerLines, isLast: true)
      #expect(parsed.error == nil, "\(file)")
      let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
      let slots = layout.valueColumns.count
      var differing: [String] = []
      for (row, offset) in parsed.lineOffsets.enumerated() {
        let fields = lines[Int(offset)].split(separator: layout.delimiter, omittingEmptySubsequences: false)
        for (slot, column) in layout.valueColumns.enumerated() where column >= 0 {
          let cell = String(decoding: fields[column], as: UTF8.self)
          let expected = strtod(cell, nil)
          let read = parsed.values[row * slots + slot]
          cells += 1
          if read.bitPattern != expected.bitPattern && differing.count < 3 {
            differing.append("line \(offset + 1): \"\(cell)\" read \(read), strtod \(expected)")
          }
        }
      }
      #expect(differing.isEmpty, "\(file): \(differing)")
    }
    #expect(cells > 1_000_000)
  }
}

struct AccelBadInputTests {
  static func path(_ name: String) -> String { accelFixtures + "/" + name }

  @Test func wrongColumnCountNamesLineAndExpectation() {
    let e = inputError { _ = try readAccel("wrong-column-count.csv") }
    let expected =
      Self.path("wrong-column-count.csv") + ":3:1: 3 fields; expected 4 fields separated by \",\""
    #expect(e?.description == expected)
  }

  @Test func nonNumericCellNamesLineColumnAndCell() {
    let e = inputError { _ = try readAccel("non-numeric-cell.csv") }
    let expected =
      Self.path("non-numeric-cell.csv")
      + ":3:27: cell \"abc\" in column 3 (y) is not a finite number; expected a number"
    #expect(e?.description == expected)
  }

  @Test func nanAndHugeNumbersAreNotNumbers() {
    let nan = inputError { _ = try readAccel("nan-cell.csv") }
    let huge = inputError { _ = try readAccel("huge-number.csv") }
    #expect(nan?.problem.contains("\"NaN\"") == true)
    #expect(huge?.problem.contains("\"1e999\"") == true)
  }

  @Test func repeatedAndBackwardTimesAreDroppedWithTheirLines() throws {
    let (info, t, _) = try readAccel("time-repeated-and-backwards.csv")
    #expect(t.count == 3)
    let repeated = info.diagnostics.first { $0.code == "time-repeated" }
    let backwards = info.diagnostics.first { $0.code == "time-backwards" }
    #expect(repeated?.location == "\(Self.path("time-repeated-and-backwards.csv")):4")
    #expect(backwards?.location == "\(Self.path("time-repeated-and-backwards.csv")):5")
    #expect(backwards?.message.contains("0.005 s") == true)
  }

  @Test func aTruncatedLastLineIsDroppedWithADiagnostic() throws {
    let (info, t, _) = try readAccel("truncated-last-line.csv")
    #expect(t.count == 2)
    #expect(
      info.diagnostics.first { $0.code == "truncated-last-line" }?.location
        == "\(Self.path("truncated-last-line.csv")):4")
  }

  /// A recording cut off inside its last time ("08:00:00.0", no "Z" yet)
  /// drops that line; the times of the rows kept all carry an offset, so
  /// no note says times were read as UTC.
  @Test func aTimeCutOffBeforeItsOffsetLeavesNoLocalTimeNote() throws {
    let text = "time,x,y,z\n2024-03-01T08:00:00Z,0,0,1\n2024-03-01T08:00:00.01Z,0,0,1\n2024-03-01T08:00:00.0"
    let info = try AccelReader().read(chunks: LineChunks(bytes: Array(text.utf8), source: "cut.csv")) { _ in }
    #expect(info.rows == 2)
    #expect(info.diagnostics.map(\.code).contains("truncated-last-line"))
    #expect(!info.diagnostics.map(\.code).contains("local-time-as-utc"))
  }

  @Test func emptyAndHeaderOnlyFilesAreErrors() {
    let empty = inputError { _ = try readAccel("empty.csv") }
    #expect(
      empty?.description
        == "\(Self.path("empty.csv")):1: empty file; expected an accelerometer CSV with at least one row")
    let headerOnly = inputError { _ = try readAccel("header-only.csv") }
    #expect(headerOnly?.problem == "no data rows after the column names")
  }

  @Test func binaryJunkIsNotText() {
    let e = inputError { _ = try readAccel("binary-junk.csv") }
    #expect(
      e?.description
        == Self.path("binary-junk.csv")
        + ":1: binary data, not text; expected a CSV text file (plain or gzipped)")
  }

  /// A line of a million digits is read (lines up to 4 MiB are), and its
  /// number is refused, named by line and column.
  @Test func aMillionCharacterLineIsAnErrorOnItsLine() {
    let e = inputError { _ = try readAccel("million-character-line.csv") }
    #expect(e?.location.line == 3 && e?.location.column == 25)
    #expect(e?.expected == "a number")
  }

  /// Undecodable bytes in a column name do not stop detection: `x\xff\xfe`
  /// is still the x column.
  @Test func invalidUTF8InTheHeader() throws {
    let (_, t, _) = try readAccel("invalid-utf8-header.csv")
    #expect(t.count == 2)
  }

  /// Lines beyond the reader's limit are refused instead of buffered.
  @Test func linesBeyondTheLimitAreRefused() {
    let bytes =
      Array("time,x,y,z\n2024-03-01T08:00:00Z,".utf8) + Array(repeating: UInt8(0x31), count: 200_000)
      + Array(",0,1\n2024-03-01T08:00:01Z,0,0,1\n".utf8)
    let e = inputError {
      _ = try AccelReader(chunkBytes: 512).read(
        chunks: LineChunks(bytes: bytes, source: "long.csv", maximumLineBytes: 1024)
      ) { _ in }
    }
    #expect(e?.problem == "a line longer than 1024 bytes")
    #expect(e?.location.line == 2)
    // Further on, after rows already parsed: line 2 + 40 rows = line 42.
    var rows = Array("time,x,y,z\n".utf8)
    for k in 0..<40 { rows += Array("2024-03-01T08:00:\(10 + k)Z,0,0,1\n".utf8) }
    rows += Array("2024-03-01T08:01:00Z,".utf8) + Array(repeating: UInt8(0x31), count: 200_000)
    let later = inputError {
      _ = try AccelReader(chunkBytes: 512).read(
        chunks: LineChunks(bytes: rows, source: "long.csv", maximumLineBytes: 1024)
      ) { _ in }
    }
    #expect(later?.location.line == 42)
  }

  /// A plain file is mapped and each worker finds its own run of lines;
  /// every fixture, read so with runs of a few bytes (lines and headers
  /// split across runs, runs with no line start) or of 2 MiB, gives the
  /// rows, lines and diagnostics, or the error, of the same bytes read as
  /// a stream.
  @Test func mappedFilesReadAsStreamsDo() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: accelFixtures).filter {
      $0.hasSuffix(".csv")
    }
    #expect(names.count > 15)
    func outcome(_ body: () throws -> (AccelFileInfo, [Double], [Double])) -> String {
      do {
        let (info, times, values) = try body()
        return
          "\(info.rows) rows, \(info.lines) lines, \(info.bytes) bytes, \(info.diagnostics); \(times); \(values)"
      } catch {
        return "error: \(error)"
      }
    }
    for name in names.sorted() {
      let path = Self.path(name)
      let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
      // Runs of a few bytes over the million-character line would only
      // repeat the same empty runs.
      for chunkBytes in bytes.count < 65536 ? [7, 64, 2 << 20] : [4096, 2 << 20] {
        for workers in [1, 2] {
          let reader = AccelReader(workers: workers, chunkBytes: chunkBytes)
          let stream = outcome {
            var times: [Double] = []
            var values: [Double] = []
            let info = try reader.read(chunks: LineChunks(bytes: bytes, source: path)) { block in
              times += block.time
              values += block.values
            }
            return (info, times, values)
          }
          let mapped = outcome { try readAccel(name, chunkBytes: chunkBytes, workers: workers) }
          #expect(mapped == stream, "\(name), runs of \(chunkBytes) bytes, \(workers) worker(s)")
        }
      }
    }
  }

  /// A line past the reader's limit in a mapped file is an error on that
  /// line, after the rows before it were read.
  @Test func aMappedLineBeyondTheLimitIsAnErrorOnItsLine() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).csv")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    var text = Array("time,x,y,z\n".utf8)
    for k in 0..<40 { text += Array("2024-03-01T08:00:\(10 + k)Z,0,0,1\n".utf8) }
    text += Array("2024-03-01T08:01:00Z,".utf8)
    text += Array(repeating: UInt8(0x31), count: LineChunks.defaultMaximumLineBytes + 10)
    text += Array(",0,1\n2024-03-01T08:01:01Z,0,0,1\n".utf8)
    try Data(text).write(to: URL(fileURLWithPath: path))
    for chunkBytes in [100, 2 << 20] {
      let e = inputError { _ = try AccelReader(chunkBytes: chunkBytes).read(path: path) { _ in } }
      #expect(e?.problem == "a line longer than \(LineChunks.defaultMaximumLineBytes) bytes")
      #expect(e?.location.line == 42)
    }
  }

  @Test func aMissingFileIsAnInputError() {
    let missing = inputError { _ = try readAccel("no-such-file.csv") }
    #expect(missing?.problem == "no such file" && missing?.kind == .unreadable)
  }
}

struct DateTimeScannerTests {
  static func parse(_ text: String, _ order: DateOrder = .ymd, _ zone: TimeZone? = nil) -> Double? {
    var s = DateTimeScanner(order: order, timeZone: zone)
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { s.parse(UnsafeBufferPointer($0)) }
  }

  /// 2016-05-01 is day 16922.
  @Test func dateOrders() {
    let expected = utc(16922, 10)
    #expect(Self.parse("2016-05-01 10:00:00") == expected)
    #expect(Self.parse("5/1/2016 10:00:00", .mdy) == expected)
    #expect(Self.parse("1/5/2016 10:00:00", .dmy) == expected)
    #expect(Self.parse("01.05.2016 10:00", .dmy) == expected)
    #expect(Self.parse("2016-05-01T10:00:00.250+02:00") == expected - 7200 + 0.25)
    #expect(Self.parse("2016-05-01T10:00:00-0130") == expected + 5400)
    #expect(Self.parse("13/13/2016 10:00:00", .mdy) == nil)
    #expect(Self.parse("2016-05-01 25:00:00") == nil)
    #expect(Self.parse("2016-05-01") == nil)
  }

  /// GENEActiv writes milliseconds after a colon, always three digits;
  /// the same-minute path reads them as the full parse does.
  @Test func millisecondsAfterAColon() {
    let expected = utc(16922, 10)
    #expect(Self.parse("2016-05-01 10:00:00:250") == expected + 0.25)
    #expect(Self.parse("2016-05-01 10:00:00:25") == nil)
    #expect(Self.parse("2016-05-01 10:00:00:2500") == nil)
    var s = DateTimeScanner()
    func parse(_ text: String) -> Double? {
      var bytes = Array(text.utf8)
      return bytes.withUnsafeMutableBufferPointer { s.parse(UnsafeBufferPointer($0)) }
    }
    #expect(parse("2016-05-01 10:00:00:000") == expected)
    #expect(parse("2016-05-01 10:00:01:010") == expected + 1.01)
    #expect(parse("2016-05-01 10:00:02:05") == nil)
  }

  /// SensorLog puts a space before the offset.
  @Test func aSpaceBeforeTheOffset() {
    let expected = utc(16922, 10)
    #expect(Self.parse("2016-05-01 10:00:00.250 +0200") == expected - 7200 + 0.25)
    var s = DateTimeScanner()
    func parse(_ text: String) -> Double? {
      var bytes = Array(text.utf8)
      return bytes.withUnsafeMutableBufferPointer { s.parse(UnsafeBufferPointer($0)) }
    }
    #expect(parse("2016-05-01 10:00:00.000 -0130") == expected + 5400)
    #expect(parse("2016-05-01 10:00:01.500 -0130") == expected + 5401.5)
    #expect(parse("2016-05-01 10:00:02.000  -0130") == nil)
  }

  /// Daylight saving: 2016-07-01 10:00 in London is 09:00Z, in January
  /// 10:00Z; the same scanner crosses both.
  @Test func localTimesInAZoneFollowDaylightSaving() {
    var s = DateTimeScanner(order: .ymd, timeZone: TimeZone(identifier: "Europe/London")!)
    func parse(_ text: String) -> Double? {
      var bytes = Array(text.utf8)
      return bytes.withUnsafeMutableBufferPointer { s.parse(UnsafeBufferPointer($0)) }
    }
    // 2016-07-01 is day 16983; 2016-01-01 is day 16801.
    #expect(parse("2016-07-01 10:00:00.5") == utc(16983, 9, 0, 0.5))
    #expect(parse("2016-07-01 10:00:01.5") == utc(16983, 9, 0, 1.5))
    #expect(parse("2016-01-01 10:00:01") == utc(16801, 10, 0, 1))
    #expect(s.sawLocalTime)
  }

  /// The same-minute fast path must not reuse a minute whose offset text
  /// differs.
  @Test func sameMinuteWithADifferentOffsetIsReadInFull() {
    var s = DateTimeScanner()
    func parse(_ text: String) -> Double? {
      var bytes = Array(text.utf8)
      return bytes.withUnsafeMutableBufferPointer { s.parse(UnsafeBufferPointer($0)) }
    }
    let a = parse("2016-05-01T10:00:00Z")!
    #expect(parse("2016-05-01T10:00:30+01:00") == a + 30 - 3600)
    #expect(parse("2016-05-01T10:00:31+01:00") == a + 31 - 3600)
    #expect(parse("2016-05-01T10:00:32") == a + 32)
    #expect(parse("2016-05-01T10:00:7x") == nil)
  }
}

/// Each failure says what kind it is, so a caller can skip a missing file
/// and stop on a broken one without reading the message.
struct InputErrorKindTests {
  func failure(_ text: [UInt8]?) throws -> InputError? {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("kind-\(UUID().uuidString).csv")
      .path
    if let text { try Data(text).write(to: URL(fileURLWithPath: path)) }
    defer { try? FileManager.default.removeItem(atPath: path) }
    return inputError {
      _ = try AccelReader(map: AccelColumnMap(), timeZone: nil, workers: 1, chunkBytes: 1 << 20).read(
        path: path
      ) {
        _ in
      }
    }
  }

  @Test func eachFailureHasItsKind() throws {
    #expect(try failure(nil)?.kind == .unreadable)
    #expect(try failure([])?.kind == .empty)
    #expect(try failure([0x00, 0x01, 0xFF, 0xFE, 0x00, 0x9C, 0x0A])?.kind == .encoding)
    let header = "time,x,y,z\n2026-03-02T08:00:00.000Z,0.1,0.2,1.0\n"
    let short = try failure(
      Array((header + "2026-03-02T08:00:00.010Z,0.1,0.2\n" + "2026-03-02T08:00:00.020Z,0.1,0.2,1.0\n").utf8))
    #expect(short?.kind == .malformed && short?.location.line == 3, "\(String(describing: short))")
    let cell = try failure(
      Array(
        (header + "2026-03-02T08:00:00.010Z,abc,0.2,1.0\n" + "2026-03-02T08:00:00.020Z,0.1,0.2,1.0\n").utf8))
    #expect(cell?.kind == .value && cell?.location.line == 3, "\(String(describing: cell))")
  }
}

/// Runs of a mapped file split lines anywhere: in the middle of a time, of
/// a number, between a carriage return and its line feed, inside quotes.
/// The rows and the line of a bad cell are those written by hand below.
struct AccelChunkBoundaryTests {
  static func write(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("boundary-\(UUID().uuidString).csv").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func rowsAcrossRunBoundariesAreTheRowsWritten() throws {
    let text =
      "time,x,y,z\n"
      + "2024-03-01T08:00:00.000Z,0.5,-0.25,1\r\n"
      + "2024-03-01T08:00:00.010Z,1.5,2.5,3.5\n"
      + "2024-03-01T08:00:00.020Z,-0.75,0,0.0625\r\n"
      + "\"2024-03-01T08:00:00.030Z\",\"0.125\",0,-1\n"
      + "2024-03-01T08:00:00.040Z,2,-2,0.5\n"
    let path = try Self.write(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    // 2024-03-01 is day 19,783 since 1970-01-01; 08:00 plus 0-40 ms.
    let expectedTimes = (0..<5).map { utc(19783, 8, 0, Double($0) / 100) }
    let expectedValues: [Double] = [0.5, -0.25, 1, 1.5, 2.5, 3.5, -0.75, 0, 0.0625, 0.125, 0, -1, 2, -2, 0.5]
    var map = AccelColumnMap()
    map.unit = .g
    for chunkBytes in [5, 16, 37, 2 << 20] {
      for workers in [1, 2] {
        var times: [Double] = []
        var values: [Double] = []
        let info = try AccelReader(map: map, workers: workers, chunkBytes: chunkBytes).read(path: path) {
          times += $0.time
          values += $0.values
        }
        #expect(info.rows == 5 && info.lines == 6, "runs of \(chunkBytes) bytes, \(workers) worker(s)")
        #expect(times.count == 5 && zip(times, expectedTimes).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(values == expectedValues, "runs of \(chunkBytes) bytes, \(workers) worker(s)")
      }
    }
  }

  /// Line 10 of 11 holds "abc"; with runs of 64 bytes it is read by a later
  /// run than the first, and is still named as line 10, column 30 (the
  /// 24-byte time, its comma and "0.1," come before the cell).
  @Test func aBadCellInALaterRunIsNamedByItsLine() throws {
    var text = "time,x,y,z\n"
    for k in 0..<8 { text += "2024-03-01T08:00:00.0\(k)0Z,0.1,0.2,1\n" }
    text += "2024-03-01T08:00:00.080Z,0.1,abc,1\n2024-03-01T08:00:00.090Z,0.1,0.2,1\n"
    let path = try Self.write(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var map = AccelColumnMap()
    map.unit = .g
    for chunkBytes in [64, 2 << 20] {
      for workers in [1, 2] {
        let e = inputError {
          _ = try AccelReader(map: map, workers: workers, chunkBytes: chunkBytes).read(path: path) { _ in }
        }
        #expect(
          e?.description == path
            + ":10:30: cell \"abc\" in column 3 (y) is not a finite number; expected a number",
          "runs of \(chunkBytes) bytes, \(workers) worker(s)")
      }
    }
  }
}
