import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

/// The real device files (GGIR and GGIRread test data) shipped in the
/// repository, so these tests run in a fresh clone.
let deviceFolder = packageRoot + "/Datasets/device-files"

/// Every sample of a device file, read by EnergyLab.
struct DeviceReading {
  var time: [Double] = []
  var xyz: [Double] = []
  var temperature: [Double] = []
  var summary: DeviceFileSummary?

  init(_ name: String, options: DeviceReadOptions = DeviceReadOptions(), path: String? = nil) throws {
    let file = path ?? deviceFolder + "/" + name
    let format = try #require(DeviceFileReader.format(ofFileAt: file))
    summary = try DeviceFileReader.read(path: file, format: format, options: options) { block in
      time += block.time
      xyz += block.values
      temperature += block.temperatureCelsius
    }
  }

  func axis(_ k: Int) -> [Double] { stride(from: k, to: xyz.count, by: 3).map { xyz[$0] } }
}

/// What an independent reader found (scripts/fixtures/device-file-expectations.py).
struct Expectation {
  var samples: Int
  var firstTime: Double
  var lastTime: Double
  var rateHz: Double
  var mean: [Double]
  var sd: [Double]
  /// Index -> [time, x, y, z].
  var at: [Int: [Double]]
  var firstTemperature: Double?

  static func document() -> [String: Any] {
    let path = packageRoot + "/Tests/IngestTests/Fixtures/device-files/expectations.json"
    let data = FileManager.default.contents(atPath: path) ?? Data()
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
  }

  init(file: String, reader: String) throws {
    let files = try #require(Self.document()["files"] as? [String: Any])
    let one = try #require((files[file] as? [String: Any])?[reader] as? [String: Any])
    samples = try #require(one["samples"] as? Int)
    firstTime = try #require(one["first_time_s"] as? Double)
    lastTime = try #require(one["last_time_s"] as? Double)
    rateHz = try #require(one["sample_rate_hz"] as? Double)
    mean = try #require(one["mean_g"] as? [Double])
    sd = try #require(one["sd_g"] as? [Double])
    let raw = try #require(one["at"] as? [String: [Double]])
    at = Dictionary(uniqueKeysWithValues: raw.map { (Int($0.key)!, $0.value) })
    firstTemperature = one["first_temperature_c"] as? Double
  }
}

func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }
func sd(_ v: [Double]) -> Double {
  let m = mean(v)
  return (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count - 1)).squareRoot()
}

/// Acceleration agrees with the independent readers within 0.002 g (the
/// brief's tolerance; CWA, GENEActiv and GT3X agree to float32 rounding).
let gTolerance = 0.002

struct DeviceFileAgreementTests {
  /// file, reader, the shift from the reader's times to ours (s), the
  /// time tolerance (s), the options.
  static let cases: [(String, String, Double, Double, Bool)] = [
    // actfast times each CWA block from its own stamp at the nominal
    // rate, as EnergyLab does: equal to the microsecond.
    ("ax3_testfile.cwa", "actfast", 0, 1e-5, false),
    ("ax6_testfile.cwa", "actfast", 0, 1e-5, false),
    // scikit-digital-health spreads samples between block stamps and
    // drops the stamps' fraction of a second: within two sample periods
    // (20 ms; 17.7 ms at most at the indexes compared).
    ("ax3_testfile.cwa", "scikit-digital-health", 0, 0.02, false),
    ("ax6_testfile.cwa", "scikit-digital-health", 0, 0.02, false),
    // actfast reads GENEActiv's local page times as UTC; EnergyLab reads
    // them in the header's Time Zone, GMT +01:00: one hour earlier.
    ("GENEActiv_testfile.bin", "actfast", -3600, 1e-5, false),
    // actfast keeps the GT3X idle-sleep gaps; pygt3x fills them.
    ("actigraph_testfile.gt3x", "actfast", 0, 1e-5, false),
    ("actigraph_testfile.gt3x", "pygt3x", 0, 1e-5, true),
  ]

  @Test(arguments: cases)
  func agreesWithIndependentReader(
    _ file: String, _ reader: String, _ shift: Double, _ timeTolerance: Double, _ fill: Bool
  )
    throws
  {
    let expected = try Expectation(file: file, reader: reader)
    let read = try DeviceReading(file, options: DeviceReadOptions(fillIdleSleep: fill))
    #expect(read.time.count == expected.samples, "\(file) samples against \(reader)")
    expectClose(read.time.first, expected.firstTime + shift, tolerance: timeTolerance, "\(file) first time")
    expectClose(read.time.last, expected.lastTime + shift, tolerance: timeTolerance, "\(file) last time")
    expectClose(read.summary?.header.sampleRateHz, expected.rateHz, tolerance: 1e-9, "\(file) rate")
    for k in 0..<3 {
      expectClose(mean(read.axis(k)), expected.mean[k], tolerance: gTolerance, "\(file) mean of axis \(k)")
      expectClose(sd(read.axis(k)), expected.sd[k], tolerance: gTolerance, "\(file) SD of axis \(k)")
    }
    for (index, sample) in expected.at.sorted(by: { $0.key < $1.key }) where index < read.time.count {
      expectClose(
        read.time[index], sample[0] + shift, tolerance: timeTolerance, "\(file) time of sample \(index)")
      for k in 0..<3 {
        expectClose(
          read.xyz[index * 3 + k], sample[k + 1], tolerance: gTolerance, "\(file) sample \(index) axis \(k)")
      }
    }
  }

  /// The temperature formula of cwa.h (`raw * 75 / 256 - 50`), as actfast
  /// applies it.
  @Test(arguments: ["ax3_testfile.cwa", "ax6_testfile.cwa"])
  func cwaTemperature(_ file: String) throws {
    let expected = try Expectation(file: file, reader: "actfast")
    let read = try DeviceReading(file)
    expectClose(
      read.temperature.first, try #require(expected.firstTemperature), tolerance: 1e-4, "\(file) °C")
  }

  /// What GGIRread's tests state of the GENEActiv file (README): 85.7 Hz,
  /// first temperature 21.5 °C, first time 1369905174.5 in
  /// Europe/London, z of sample 300 = -0.80836 g.
  @Test func geneactivAsGGIRreadStates() throws {
    let read = try DeviceReading("GENEActiv_testfile.bin")
    #expect(read.summary?.header.sampleRateHz == 85.7)
    #expect(read.temperature.first == 21.5)
    expectClose(read.time.first, 1_369_905_174.5, tolerance: 1e-6, "first time")
    expectClose(read.xyz[299 * 3 + 2], -0.80836, tolerance: 1e-5, "z of sample 300")
    // The header announces 222,048 pages; the file holds 16 and a cut one.
    let codes = read.summary?.diagnostics.map(\.code) ?? []
    #expect(codes.contains("file-shorter-than-header"))
    #expect(codes.contains("truncated-page"))
    #expect(read.time.count == 16 * 300 + 231)
  }

  /// What GGIR's tests state of the GT3X file (README): 30 Hz, serial
  /// MOS2E39180594, firmware 1.9.2, 17,640 samples; its idle-sleep gaps
  /// (1,180 s, the span less the samples: 1768 s - 17640 / 30 Hz) stated,
  /// with their share of the span when left out (1180 / 1769 s from the
  /// first record's second to the end of the last: 66.7 %). By default
  /// they are filled as ActiLife fills them (pygt3x's 53,040 samples).
  @Test func gt3xAsGGIRStates() throws {
    let read = try DeviceReading("actigraph_testfile.gt3x", options: DeviceReadOptions(fillIdleSleep: false))
    let summary = try #require(read.summary)
    #expect(summary.header.sampleRateHz == 30)
    #expect(summary.header.metadata["serial"] == "MOS2E39180594")
    #expect(summary.header.metadata["firmware"] == "1.9.2")
    #expect(summary.header.metadata["wear_location"] == "Waist")
    #expect(read.time.count == 17_640)
    let idle = try #require(summary.diagnostics.first { $0.code == "idle-sleep" })
    #expect(idle.message.contains("1180 s in all (0.33 h, 66.7 % of the 0.49 h"))
    #expect(idle.severity == .warning)
    let filled = try DeviceReading("actigraph_testfile.gt3x")
    #expect(filled.time.count == 17_640 + 1180 * 30)
    let note = try #require(filled.summary?.diagnostics.first { $0.code == "idle-sleep" })
    #expect(note.message.contains("as ActiLife does") && note.severity == .note)
  }

  /// The corrupt-blocks file is the clean one with blocks 0, 13, 14, 142,
  /// 143 and 144 broken: those are counted and skipped, and every other
  /// sample is the clean file's, 120 samples per data block.
  @Test func corruptBlocksSkippedAndCounted() throws {
    let clean = try DeviceReading("ax3_testfile.cwa")
    let broken = try DeviceReading("ax3_testfile_corrupt_blocks_0_13_14_142_143_144.cwa")
    let corrupt = [0, 13, 14, 142, 143, 144]
    let diagnostic = try #require(broken.summary?.diagnostics.first { $0.code == "corrupt-blocks" })
    #expect(diagnostic.message.hasPrefix("6 data block(s)"))
    #expect(diagnostic.message.contains("block 0, 13, 14, 142, 143, 144"))
    #expect(diagnostic.location?.hasSuffix("at byte 1024") == true)
    var kept: [Int] = []
    for block in 0..<(clean.time.count / 120) where !corrupt.contains(block) {
      kept += Array((block * 120)..<(block * 120 + 120))
    }
    #expect(broken.time.count == kept.count)
    #expect(broken.time.count == 17_400 - 6 * 120)
    for (i, j) in kept.enumerated() where i < broken.time.count {
      guard broken.time[i] == clean.time[j],
        broken.xyz[(3 * i)..<(3 * i + 3)] == clean.xyz[(3 * j)..<(3 * j + 3)]
      else {
        Issue.record("sample \(i) of the corrupt file is not sample \(j) of the clean one")
        return
      }
    }
  }
}

/// Known values from the formats' documentation.
struct DeviceFormatTests {
  /// ActiGraph's Activity.md example: bytes 00 60 08 EB D0 07 00 9E BF 00
  /// 70 08 EB F0 hold (y, x, z) = (6, 8, -323), (7, 9, -321), (7, 8, -321).
  @Test func twelveBitActivitySamples() {
    let bytes: [UInt8] = [0x00, 0x60, 0x08, 0xEB, 0xD0, 0x07, 0x00, 0x9E, 0xBF, 0x00, 0x70, 0x08, 0xEB, 0xF0]
    let expected = [[6, 8, -323], [7, 9, -321], [7, 8, -321]]
    for (s, yxz) in expected.enumerated() {
      for k in 0..<3 { #expect(GT3XReader.twelveBits(bytes, base: 0, bit: s * 36 + k * 12) == yxz[k]) }
    }
  }

  /// Parameters.md: 00 00 40 09 is ACCEL_SCALE 256, 00 00 40 0C is
  /// IMU_ACCEL_SCALE 2048, 00 00 54 05 is IMU_TEMP_OFFSET 21.
  @Test(arguments: [(UInt32(0x0940_0000), 256.0), (0x0C40_0000, 2048), (0x0554_0000, 21), (0, 0)])
  func parameterFloats(_ value: UInt32, _ expected: Double) {
    #expect(GT3XReader.parameterFloat(value) == expected)
  }

  /// info.txt.md: Start Date 634556532600000000 ticks (100 ns since
  /// 0001-01-01) is 2011-10-31 10:21:00 (Python: datetime(1, 1, 1) +
  /// timedelta(microseconds=ticks / 10)).
  @Test func dotNetTicks() {
    #expect(GT3XReader.seconds(dotNetTicks: 634_556_532_600_000_000) == 1_320_056_460)
    #expect(ISO8601.formatUTC(1_320_056_460) == "2011-10-31T10:21:00Z")
  }

  /// cwa.h: rate code 74 (0x4A) is 100 Hz at ±8 g; 10 is 100 Hz at ±16 g;
  /// packed 2019-02-26 10:55:07 reads back.
  @Test func cwaCodes() {
    #expect(CWAReader.rateHz(code: 74) == 100)
    #expect(CWAReader.rangeG(code: 74) == 8)
    #expect(CWAReader.rangeG(code: 10) == 16)
    #expect(CWAReader.rateHz(code: 6) == 6.25)
    let packed = (2019 - 2000) << 26 | 2 << 22 | 26 << 17 | 10 << 12 | 55 << 6 | 7
    #expect(CWAReader.seconds(packed: packed) == 1_551_178_507)
    #expect(CWAReader.seconds(packed: 0) == nil)
    #expect(CWAReader.seconds(packed: 13 << 22 | 1 << 17) == nil)
  }

  /// GENEActiv: (raw * 100 - offset) / gain, the file's x calibration
  /// (gain 25875, offset 439) on its first raw x, 0x0C4 = 196.
  @Test func geneactivCalibration() {
    expectClose(
      GENEActivBinReader.acceleration(raw: 196, gain: 25875, offset: 439), (19600.0 - 439) / 25875,
      tolerance: 1e-15)
  }

  @Test func detectsByContent() {
    #expect(DeviceFileFormat.detect(head: [0x4D, 0x44, 0xFC, 0x03]) == .axivityCWA)
    #expect(DeviceFileFormat.detect(head: Array("PK\u{3}\u{4}".utf8)) == .actigraphGT3X)
    #expect(DeviceFileFormat.detect(head: Array("Device Identity\r\n".utf8)) == .geneactivBin)
    #expect(DeviceFileFormat.detect(head: Array("time,x,y,z\n".utf8)) == nil)
  }
}

/// Broken input: each a clear error naming the file and byte offset, or a
/// diagnostic naming what was lost; never a crash.
struct BrokenDeviceFileTests {
  let folder: String

  init() throws {
    folder =
      FileManager.default.temporaryDirectory.appendingPathComponent("energylab-device-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  func write(_ bytes: [UInt8], _ name: String) throws -> String {
    let path = folder + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  func bytes(of name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: deviceFolder + "/" + name)))
  }

  func readError(_ path: String, as format: DeviceFileFormat) -> InputError? {
    do {
      _ = try DeviceFileReader.read(path: path, format: format) { _ in }
      return nil
    } catch let error as InputError {
      return error
    } catch {
      Issue.record("not an InputError: \(error)")
      return nil
    }
  }

  /// A CWA cut 100 bytes into its fourth data block: three blocks read,
  /// the cut one reported with its offset.
  @Test func truncatedCWA() throws {
    let path = try write(Array(try bytes(of: "ax3_testfile.cwa").prefix(1024 + 3 * 512 + 100)), "cut.cwa")
    let read = try DeviceReading("", path: path)
    #expect(read.time.count == 3 * 120)
    let cut = try #require(read.summary?.diagnostics.first { $0.code == "truncated-block" })
    #expect(cut.location == "\(path) at byte \(1024 + 3 * 512)")
  }

  @Test func cwaHeaderOnlyOrCutInside() throws {
    let all = try bytes(of: "ax3_testfile.cwa")
    let headerOnly = try write(Array(all.prefix(1024)), "header.cwa")
    let empty = try #require(readError(headerOnly, as: .axivityCWA))
    #expect(empty.kind == .empty)
    #expect(empty.location.byteOffset == 1024)
    let inside = try write(Array(all.prefix(600)), "inside.cwa")
    let error = try #require(readError(inside, as: .axivityCWA))
    #expect(error.description.contains("at byte 600: the file ends inside its header"))
  }

  @Test func wrongMagic() throws {
    var all = try bytes(of: "ax3_testfile.cwa")
    all[0] = 0x58
    let path = try write(all, "magic.cwa")
    #expect(DeviceFileReader.format(ofFileAt: path) == nil)
    let error = try #require(readError(path, as: .axivityCWA))
    #expect(
      error.description == "\(path) at byte 0: no CWA header; expected an Axivity .cwa file starting \"MD\"")
  }

  /// A block whose checksum holds but whose rate code says 0.1 Hz.
  @Test func impossibleCWARate() throws {
    var all = try bytes(of: "ax3_testfile.cwa")
    let block = 1024
    let old = all[block + 24]
    all[block + 24] = 0x41
    // Keep the word sum at zero: the rate byte is the low byte of word 12.
    let delta = Int(old) - 0x41
    var checksum = Int(all[block + 510]) | Int(all[block + 511]) << 8
    checksum = (checksum + delta) & 0xFFFF
    all[block + 510] = UInt8(checksum & 0xFF)
    all[block + 511] = UInt8(checksum >> 8)
    let path = try write(all, "rate.cwa")
    let error = try #require(readError(path, as: .axivityCWA))
    #expect(error.location.byteOffset == block + 24)
    #expect(error.problem.contains("rate code 65"))
  }

  @Test func impossibleGENEActivRate() throws {
    var all = try bytes(of: "GENEActiv_testfile.bin")
    let key = Array("Measurement Frequency:85.7 Hz".utf8)
    let at = try #require((0..<(all.count - key.count)).first { Array(all[$0..<($0 + key.count)]) == key })
    // Same length: "85.7" becomes "00.0".
    all.replaceSubrange((at + 22)..<(at + 26), with: Array("00.0".utf8))
    let path = try write(all, "rate.bin")
    let error = try #require(readError(path, as: .geneactivBin))
    #expect(error.problem == "measurement frequency 0 Hz")
    #expect(error.location.byteOffset == at)
  }

  @Test func truncatedGT3X() throws {
    let path = try write(Array(try bytes(of: "actigraph_testfile.gt3x").prefix(40_000)), "cut.gt3x")
    let error = try #require(readError(path, as: .actigraphGT3X))
    #expect(error.problem.hasPrefix("no end of central directory"))
    #expect(error.location.byteOffset == 40_000)
  }

  /// A ZIP holding info.txt alone, built here by the APPNOTE layout.
  @Test func zipWithoutLogBin() throws {
    let info = Array("Serial Number: MOS2E39180594\r\nSample Rate: 30\r\n".utf8)
    let path = try write(Self.storedZip(["info.txt": info]), "nolog.gt3x")
    let error = try #require(readError(path, as: .actigraphGT3X))
    #expect(error.problem == "no log.bin (nor a legacy activity.bin) in the ZIP archive")
    #expect(error.location.byteOffset == 30 + 8 + info.count)
  }

  /// A GT3X with an impossible sample rate in info.txt.
  @Test func impossibleGT3XRate() throws {
    let info = Array("Serial Number: MOS2E39180594\r\nSample Rate: 0\r\n".utf8)
    let path = try write(Self.storedZip(["info.txt": info, "log.bin": [0x1E]]), "rate.gt3x")
    let error = try #require(readError(path, as: .actigraphGT3X))
    #expect(error.description.hasPrefix("\(path) (info.txt):2: sample rate \"0\""))
  }

  /// Stored (uncompressed) entries: local headers, then the central
  /// directory and its end record (PKWARE APPNOTE 4.3.7, 4.3.12, 4.3.16).
  static func storedZip(_ entries: [String: [UInt8]]) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
    var out: [UInt8] = []
    var directory: [UInt8] = []
    for (name, data) in entries.sorted(by: { $0.key < $1.key }) {
      let offset = out.count
      let nameBytes = Array(name.utf8)
      out += u32(0x0403_4B50) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0)
      out += u32(data.count) + u32(data.count) + u16(nameBytes.count) + u16(0) + nameBytes + data
      directory += u32(0x0201_4B50) + u16(20) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0)
      directory +=
        u32(data.count) + u32(data.count) + u16(nameBytes.count) + u16(0) + u16(0) + u16(0) + u16(0)
      directory += u32(0) + u32(offset) + nameBytes
    }
    let directoryOffset = out.count
    out += directory
    out += u32(0x0605_4B50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count)
    out += u32(directory.count) + u32(directoryOffset) + u16(0)
    return out
  }
}

/// A device file is the same format under every name: the format was
/// looked up with `resolvingSymlinksInPath`, which fails for a relative
/// path or a relative link target, so a linked `.bin` was "not text".
struct DeviceFormatThroughLinksTests {
  @Test func relativeLinksAreFollowed() throws {
    let fm = FileManager.default
    let folder = fm.temporaryDirectory.appendingPathComponent("energylab-links-\(UUID().uuidString)").path
    try fm.createDirectory(atPath: folder + "/raw", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: folder + "/p01", withIntermediateDirectories: true)
    defer { try? fm.removeItem(atPath: folder) }
    try fm.copyItem(
      atPath: packageRoot + "/Datasets/device-files/GENEActiv_testfile.bin", toPath: folder + "/raw/g.bin")
    try fm.createSymbolicLink(atPath: folder + "/p01/g.bin", withDestinationPath: "../raw/g.bin")
    try fm.createSymbolicLink(atPath: folder + "/p01/dir", withDestinationPath: "../raw")
    #expect(DeviceFileReader.format(ofFileAt: folder + "/p01/g.bin") == .geneactivBin)
    #expect(DeviceFileReader.format(ofFileAt: folder + "/p01/dir/g.bin") == .geneactivBin)
    #expect(DeviceFileReader.format(ofFileAt: folder + "/p01/dir") == nil)
  }
}

/// `--fill-idle-sleep` filled any gap between ACTIVITY records: one time
/// stamp shifted by 2^31 s grew memory without end (probe S4-5). A gap
/// longer than the fill limit stays a gap, with a warning.
struct IdleSleepFillLimitTests {
  /// A GT3X of three one-second ACTIVITY2 records at 30 Hz, the last
  /// `gap` seconds after the second.
  static func gt3x(gap: Int) throws -> String {
    let start = 1_600_000_000
    return try gt3x(seconds: [start, start + 1, start + 1 + gap])
  }

  /// A GT3X of one-second ACTIVITY2 records at 30 Hz stamped `seconds`.
  static func gt3x(seconds: [Int]) throws -> String {
    func record(second: Int) -> [UInt8] {
      var bytes: [UInt8] = [0x1E, 0x1A]
      for k in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: second >> (8 * k))) }
      let payload = (0..<30).flatMap { _ in [UInt8](arrayLiteral: 0, 1, 0, 0, 0, 0) }
      bytes += [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
      bytes.append(~bytes.reduce(0, ^))
      return bytes
    }
    let log = seconds.flatMap(record(second:))
    let info = Array("Serial Number: MOS2E39180594\r\nSample Rate: 30\r\nAcceleration Scale: 256\r\n".utf8)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-sleep-\(UUID().uuidString).gt3x"
    ).path
    try Data(BrokenDeviceFileTests.storedZip(["info.txt": info, "log.bin": log]))
      .write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A step of 2^31 s (68.05 years of 365.25 days) is no idle sleep: the
  /// record's 30 samples are left out with a warning naming the step, and
  /// nothing is filled.
  @Test func aGapBeyondTheLimitIsNotFilled() throws {
    let path = try Self.gt3x(gap: 1 << 31)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let read = try DeviceReading("", options: DeviceReadOptions(fillIdleSleep: true), path: path)
    #expect(read.time.count == 60)
    #expect(read.summary?.diagnostics.contains { $0.code == "idle-sleep" } == false)
    let warning = try #require(read.summary?.diagnostics.first { $0.code == "time-jump" })
    #expect(
      warning.message.hasPrefix(
        "30 sample(s) lie more than 14 days after the sample before them, the first 68.0 years ahead (2020-09-13T12:26:4"
      ))
  }

  /// The probe's file: one record in the middle shifted by 2^31 s. The
  /// records after it follow the last good one, so the recording ends one
  /// second after the fourth record's start (2020-09-13T12:26:43Z, the
  /// start 1,600,000,000 being 2020-09-13T12:26:40Z), not in 2088.
  @Test func oneShiftedRecordInTheMiddleIsLeftOut() throws {
    let start = 1_600_000_000
    let path = try Self.gt3x(seconds: [start, start + 1, start + 2 + (1 << 31), start + 3])
    defer { try? FileManager.default.removeItem(atPath: path) }
    for fill in [false, true] {
      let read = try DeviceReading("", options: DeviceReadOptions(fillIdleSleep: fill), path: path)
      // Records 1, 2 and 4: 90 samples; second 2 is a one-second gap
      // (filled with 30 samples when asked).
      #expect(read.time.count == (fill ? 120 : 90))
      expectClose(read.time.last, Double(start + 3) + 29.0 / 30, tolerance: 1e-6)
      // Each record is 8 header bytes, 180 of samples and a checksum: the
      // shifted third starts at byte 2 x 189 = 378 of log.bin.
      let jump = try #require(read.summary?.diagnostics.first { $0.code == "time-jump" })
      #expect(jump.location == "\(path) (log.bin) at byte 378")
      #expect(read.summary?.diagnostics.contains { $0.code == "time-backwards" } == false)
    }
  }

  @Test func aGapWithinTheLimitIsFilled() throws {
    let path = try Self.gt3x(gap: 3600)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let read = try DeviceReading("", options: DeviceReadOptions(fillIdleSleep: true), path: path)
    // 3599 missing seconds of 30 samples between the second and third.
    #expect(read.time.count == 90 + 3599 * 30)
    #expect(read.summary?.diagnostics.contains { $0.code == "idle-sleep-not-filled" } == false)
  }
}

/// GENEActiv pages are hex text: a byte found to be a hex digit
/// (`hexValue`) is read by `nibble` without a second check; the two agree
/// on all 22 hex digits ('0'-'9', 'A'-'F', 'a'-'f').
struct GENEActivHexTests {
  @Test func nibbleEqualsTheHexDigitsValue() {
    let digits = Array("0123456789ABCDEFabcdef".utf8)
    let values: [UInt8] = Array(0...15) + Array(10...15)
    #expect(digits.map(GENEActivBinReader.nibble) == values)
    #expect(digits.map { GENEActivBinReader.hexValue($0) } == values.map { Optional($0) })
  }
}
