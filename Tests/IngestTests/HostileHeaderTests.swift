import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

/// Header values that would overflow the readers' arithmetic, each made
/// here from the shipped GENEActiv test file by changing one value (the
/// reliability probe of 66c7865 crashed the process with the first two):
/// every one is an error naming the file, the byte and the value.
struct HostileHeaderTests {
  static let shipped = packageRoot + "/Datasets/device-files/GENEActiv_testfile.bin"
  let folder: String

  init() throws {
    folder =
      FileManager.default.temporaryDirectory.appendingPathComponent("energylab-hostile-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  /// The shipped file with the first `old` replaced by `new`, written to
  /// `name`; its path and the offset of the line that now holds `new`.
  func mutated(_ old: String, _ new: String, _ name: String) throws -> (path: String, lineOffset: Int) {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.shipped)))
    let from = Array(old.utf8)
    let at = try #require(
      (0...(bytes.count - from.count)).first { Array(bytes[$0..<($0 + from.count)]) == from })
    var out = bytes
    out.replaceSubrange(at..<(at + from.count), with: Array(new.utf8))
    let path = folder + "/" + name
    try Data(out).write(to: URL(fileURLWithPath: path))
    let lineStart = (bytes[..<at].lastIndex(of: 0x0A)).map { $0 + 1 } ?? 0
    return (path, lineStart)
  }

  func readError(_ path: String) throws -> InputError {
    do {
      _ = try GENEActivBinReader().read(path: path) { _ in }
    } catch let error as InputError {
      return error
    }
    Issue.record("\(path) was read")
    throw CancellationError()
  }

  @Test(arguments: [
    "9223372036854775807", "30744573456182585", "10000001", "-1", "99999999999999999999", "1e6",
  ])
  func numberOfPagesOutOfRange(_ pages: String) throws {
    let (path, offset) = try mutated("Number of Pages:222048", "Number of Pages:\(pages)", "pages.bin")
    let error = try readError(path)
    #expect(
      error.description
        == "\(path) at byte \(offset): Number of Pages \"\(pages)\"; expected a whole number of pages from 0 to 10000000"
    )
    #expect(error.kind == .value)
  }

  /// The shipped file is cut at 64 KiB of the 222,048 pages its header
  /// announces: 222,048 x 300 = 66,614,400 samples.
  @Test func announcedPagesStillCheckTheLength() throws {
    let read = try DeviceReading("", path: Self.shipped)
    let note = try #require(read.summary?.diagnostics.first { $0.code == "file-shorter-than-header" })
    #expect(
      note.message.hasPrefix("the header announces 222048 pages (66614400 samples); the file holds 17 "))
  }

  @Test(arguments: [
    "999999999999999", "-999999999999999", "9223372036854775807", "99999", "999", "0000", "+2013",
  ])
  func pageYearOutOfRange(_ year: String) throws {
    let (path, offset) = try mutated("Page Time:2013-", "Page Time:\(year)-", "year.bin")
    let error = try readError(path)
    #expect(
      error.description
        == "\(path) at byte \(offset): page time \"\(year)-05-30 10:12:54:500\"; expected a time such as 2013-05-30 10:12:54:500, its year from 1000 to 9999"
    )
  }

  /// A sign before the year was once dropped by the split, so
  /// `-2013-05-30` read as 2013.
  @Test func pageTimesAreReadWhole() throws {
    #expect(GENEActivBinReader.pageTime("2013-05-30 10:12:54:500") == 1_369_908_774.5)
    #expect(GENEActivBinReader.pageTime("-2013-05-30 10:12:54:500") == nil)
    #expect(GENEActivBinReader.pageTime("2013--05-30 10:12:54:500") == nil)
    let last = try #require(GENEActivBinReader.pageTime("9999-12-31 23:59:59:999"))
    #expect(abs(last - 253_402_300_799.999) < 1e-4)
  }

  /// A gain of `inf` made every x value 0 (ENMO 8.86 mg against 40.49);
  /// `nan` made them all NaN.
  @Test(arguments: ["x gain:inf", "x gain:nan", "x gain:-inf", "x offset:inf", "z gain:1e999"])
  func calibrationMustBeFinite(_ line: String) throws {
    let key = String(line[..<line.firstIndex(of: ":")!])
    let original = ["x gain": "x gain:25875", "x offset": "x offset:439", "z gain": "z gain:25538"][key]!
    let (path, offset) = try mutated(original, line, "gain.bin")
    let error = try readError(path)
    let value = String(line[line.index(after: line.firstIndex(of: ":")!)...])
    #expect(error.description == "\(path) at byte \(offset): \(key) \"\(value)\"; expected a finite number")
  }

  /// A sign after the sign once gave hours of -10^17, and `hours * 3600`
  /// overflowed.
  @Test(arguments: ["GMT +-99999999999999999", "GMT +-1", "GMT +15", "GMT +01:60", "GMT +99:99"])
  func impossibleOffsetsAreNone(_ text: String) {
    #expect(AccelDetector.gmtOffset(text) == nil)
  }

  /// `GMT +99:99` was read as UTC with a note saying no zone was given;
  /// now it is refused as GENEActiv's CSV export's is, unless a zone is
  /// given instead.
  @Test func unreadableTimeZone() throws {
    let (path, offset) = try mutated("Time Zone:GMT +01:00", "Time Zone:GMT +99:99", "zone.bin")
    let error = try readError(path)
    #expect(
      error.description
        == "\(path) at byte \(offset): time zone \"GMT +99:99\"; expected GMT +hh:mm, or the time zone")
    let given = try DeviceReading(
      "", options: DeviceReadOptions(timeZone: TimeZone(secondsFromGMT: 3600)), path: path)
    #expect(given.time.first == 1_369_908_774.5 - 3600)
  }
}

/// Lines of a GENEActiv file are limited as the CSV readers' are.
struct GENEActivLineLimitTests {
  /// 300 MB of one line took 97 s and 1.26 GB; 8 MiB now stops at the
  /// limit, naming the byte where the line starts.
  @Test func aLineOverTheLimitIsRefused() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-long-\(UUID().uuidString).bin"
    ).path
    let head = "Device Identity\nDevice Type:GENEActiv\nMeasurement Frequency:100 Hz\n"
    var bytes = Array(head.utf8)
    bytes += [UInt8](repeating: 0x41, count: 8 << 20)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try GENEActivBinReader().read(path: path) { _ in }
      Issue.record("read")
    } catch let error as InputError {
      #expect(
        error.description
          == "\(path) at byte \(head.utf8.count): a line longer than 4194304 bytes; expected lines of at most 4194304 bytes (the reader's limit)"
      )
    }
  }

  /// A line ending in the same chunk as it starts is held to the limit too.
  @Test func theLimitHoldsWithALineBreak() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-long-\(UUID().uuidString).bin"
    ).path
    try Data(Array("Device Identity\n\(String(repeating: "A", count: 1000))\nDevice Type:GENEActiv\n".utf8))
      .write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    var lines = try LineStream(path: path, maximumLineBytes: 999)
    #expect(try lines.next()?.bytes == Array("Device Identity".utf8))
    #expect(throws: InputError.self) { try lines.next() }
  }
}
