import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

/// Messages the reliability probe found naming the wrong thing.
struct ProbeMessageTests {
  /// The architecture error interpolated the function `what` and printed
  /// "(Function)"; it names the definition message now.
  @Test func aBadArchitectureByteNamesTheDefinition() throws {
    var data: [UInt8] = [0x40, 0, 7, 20, 0, 0]  // definition, local 0, architecture 7, record, 0 fields
    data += [0]
    let size = UInt32(data.count)
    var header: [UInt8] = [14, 0x20, 0x34, 0x08] + (0..<4).map { UInt8(size >> (8 * $0) & 0xFF) }
    header += Array(".FIT".utf8)
    let headerCRC = FITCRC.of(header)
    header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
    let all = header + data
    let crc = FITCRC.of(all)
    let bytes = Data(all + [UInt8(crc & 0xFF), UInt8(crc >> 8)])
    let error = #expect(throws: InputError.self) {
      try FITReader().stream(data: bytes, source: "arch.fit") { _ in }
    }
    let text = error?.description ?? ""
    #expect(!text.contains("(Function)"))
    #expect(
      text.contains("architecture byte 7 in the definition message for local type 0 at byte 14"), "\(text)")
  }

  /// E4 `ACC.csv` header values that are not an E4's were all reported as
  /// "3 columns; expected a time column and x, y, z".
  @Test(arguments: [
    ("0,0,0\n", 2, "an Empatica E4 ACC.csv with sample rate 0 Hz"),
    ("-32,-32,-32\n", 2, "an Empatica E4 ACC.csv with sample rate -32 Hz"),
    ("nan,nan,nan\n", 2, "an Empatica E4 ACC.csv with sample rate nan Hz"),
    ("1e9,1e9,1e9\n", 2, "an Empatica E4 ACC.csv with sample rate 1000000000 Hz"),
    ("32, 64, 32\n", 2, "an Empatica E4 ACC.csv whose sample rates differ (32, 64, 32)"),
  ])
  func e4RatesAreNamed(rate: String, line: Int, message: String) throws {
    let text = "1495734066,1495734066,1495734066\n" + rate + "-2,30,55\n-1,31,54\n0,30,56\n"
    let error = #expect(throws: InputError.self) {
      try AccelDetector().detect(head: Array(text.utf8), file: "ACC.csv")
    }
    #expect(
      error?.description.hasPrefix("ACC.csv:\(line): \(message)") == true, "\(error?.description ?? "")")
  }

  @Test(arguments: [
    ("1e300,1e300,1e300", "an Empatica E4 ACC.csv with start time 1e+300"),
    (
      "1495734066000,1495734066000,1495734066000",
      "an Empatica E4 ACC.csv with start time 1495734066000 (milliseconds?"
    ),
    ("1495734066,1495734067,1495734066", "an Empatica E4 ACC.csv whose start times differ"),
  ])
  func e4StartsAreNamed(start: String, message: String) throws {
    let text = start + "\n32,32,32\n-2,30,55\n-1,31,54\n0,30,56\n"
    let error = #expect(throws: InputError.self) {
      try AccelDetector().detect(head: Array(text.utf8), file: "ACC.csv")
    }
    #expect(error?.description.hasPrefix("ACC.csv:1: \(message)") == true, "\(error?.description ?? "")")
  }

  /// AndroSensor can write UTF-16; it was called "binary data, not text".
  @Test(arguments: [
    ([0xFF, 0xFE] as [UInt8], false, "little-endian, with a byte-order mark"),
    ([], false, "little-endian, without a byte-order mark"),
    ([0xFE, 0xFF], true, "big-endian, with a byte-order mark"),
    ([], true, "big-endian, without a byte-order mark"),
  ])
  func utf16IsNamed(bom: [UInt8], bigEndian: Bool, form: String) throws {
    let text = "Time since start in ms ;ACCELEROMETER X (m/s²)\n0;0.1\n10;0.2\n"
    let units = Array(text.utf16)
    let bytes =
      bom
      + units.flatMap { u in bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)] }
    let error = #expect(throws: InputError.self) {
      try AccelDetector().detect(head: bytes, file: "andro.csv")
    }
    #expect(
      error?.description.hasPrefix("andro.csv:1: UTF-16 text (\(form)), not UTF-8") == true,
      "\(error?.description ?? "")")
  }

  /// `printf 'a,b\n1,2\n3'`: the short row is on line 3, with or without a
  /// newline at the end (it was reported on line 4 without one).
  @Test(arguments: ["a,b\n1,2\n3", "a,b\n1,2\n3\n", "a,b\r\n1,2\r\n3"])
  func aShortLastRowIsOnItsLine(text: String) throws {
    let rows = try CSVTokenizer.rows(text, source: "short.csv")
    #expect(rows.map(\.line) == [1, 2, 3])
    #expect(rows.last?.fields == ["3"])
  }
}
