import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

/// Every table read whole has a row limit and a size limit, checked block
/// by block as it is read (`FileInput.Limits`): a file with a longer row or
/// a larger size is refused naming the file and the row's line, before
/// anything is parsed. The limits are set small here (64-byte rows,
/// 4,096-byte files), so a "too long" row is 200 bytes.
struct ReaderLimitTests {
  /// Each reader of a whole table, as the commands call it.
  static let readers: [(String, @Sendable (String) throws -> Void)] = [
    ("subjects", { _ = try SubjectsReader.read(path: $0) }),
    ("MET table", { _ = try METTableReader.read(path: $0) }),
    ("emission factor set", { _ = try FactorReaders.emissionFactorSet(path: $0) }),
    ("factor table", { _ = try FactorReaders.factorTable(path: $0) }),
    ("airports", { _ = try FactorReaders.airports(path: $0) }),
    ("regions", { _ = try FactorReaders.regions(path: $0) }),
    ("reference table", { _ = try ReferenceTableReader.read(path: $0) }),
    (
      "mode truth",
      { _ = try ModeTruthReader.observedSeconds(path: $0, timeZone: TimeZone(identifier: "UTC")!) }
    ),
    (
      "PALMS epochs",
      { _ = try ModeTruthReader.palmsEpochs(path: $0, timeZone: TimeZone(identifier: "UTC")!) }
    ),
    ("paired columns", { _ = try PairedColumns.pairs(path: $0, a: "a", b: "b") }),
    ("survey", { _ = try SurveyReader().read(path: $0) }),
    ("COSMED K5", { _ = try MeasuredExpenditureReader().readCOSMED(path: $0) }),
    (
      "measured CSV",
      {
        _ = try MeasuredExpenditureReader().readGeneric(
          path: $0, timeColumn: "t", energyColumn: "e", energyUnit: .kilocaloriesPerMinute)
      }
    ),
  ]

  static let small = FileInput.Limits(maximumRowBytes: 64, maximumBytes: 4096)

  static func file(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(UUID().uuidString).csv")
      .path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: 0..<readers.count)
  func aRowOverTheLimitIsRefusedNamingItsLine(reader: Int) throws {
    let (name, read) = Self.readers[reader]
    let path = try Self.file("a,b\n1,2\n3," + String(repeating: "9", count: 200) + "\n4,5\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let error = FileInput.$limits.withValue(Self.small) {
      #expect(throws: InputError.self, "\(name)") { try read(path) }
    }
    #expect(error?.location.file == path, "\(name)")
    #expect(error?.location.line == 3, "\(name): \(String(describing: error))")
    #expect(
      error?.problem.hasPrefix("a ") == true && error?.problem.hasSuffix(" longer than 64 bytes") == true,
      "\(name)")
  }

  @Test(arguments: 0..<readers.count)
  func aFileOverTheLimitIsRefused(reader: Int) throws {
    let (name, read) = Self.readers[reader]
    // 1,000 rows of 8 bytes: 8,004 bytes, each row within the limit.
    let path = try Self.file("a,b\n" + String(repeating: "1,2,3,4\n", count: 1000))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let error = FileInput.$limits.withValue(Self.small) {
      #expect(throws: InputError.self, "\(name)") { try read(path) }
    }
    #expect(error?.location.file == path, "\(name)")
    #expect(error?.problem == "a file longer than 4096 bytes", "\(name): \(String(describing: error))")
  }

  /// The defaults: rows as long as the accelerometer reader's lines, files
  /// of 1 GiB.
  @Test func theDefaults() {
    #expect(FileInput.limits.maximumRowBytes == 4 << 20)
    #expect(FileInput.limits.maximumBytes == 1 << 30)
  }
}
