import EnergyLabCore
import Foundation
import Ingest
import TestSupport
import Testing

struct StanfordWalkingTableTests {
  let table: ReferenceTable

  init() throws {
    table = try ReferenceTableReader.read(path: "\(packageRoot)/Datasets/reference/stanford-walking.csv")
  }

  @Test func shapeAndProvenance() {
    // PEM thesis Fig 7.2: 120-240 lb in 5 lb steps (25 rows), 5-75 minutes in 5 min steps (15 columns).
    #expect(table.rowKeys == Array(stride(from: 120.0, through: 240, by: 5)))
    #expect(table.columnKeys == Array(stride(from: 5.0, through: 75, by: 5)))
    #expect(table.rowVariable == "body_mass_lb")
    #expect(table.columnVariable == "duration_min")
    #expect(table.valueVariable == "energy_kcal")
    #expect(table.provenanceValue("source")?.contains("Stanford") == true)
  }

  /// Spot values read off the thesis table (L1301-1324).
  @Test(arguments: [
    (120.0, 5.0, 25.0), (120, 75, 378), (145, 5, 30), (145, 75, 457), (150, 5, 32), (200, 40, 336),
    (240, 5, 50), (240, 75, 756), (205, 50, 431), (210, 25, 221),
  ])
  func spotValues(pounds: Double, minutes: Double, kcal: Double) throws {
    let r = try #require(table.rowKeys.firstIndex(of: pounds))
    let c = try #require(table.columnKeys.firstIndex(of: minutes))
    #expect(table.values[r][c] == kcal)
  }

  /// The thesis reads 145 lb -> 30 kcal per 5 min, about 6 kcal/min: the
  /// table is energy = c x weight x minutes with c = 0.042 kcal/lb/min
  /// (30 / (145 x 5) = 0.0414; 756 / (240 x 75) = 0.0420). Every cell must
  /// equal c x W x t rounded to a whole kcal, so within 0.5 kcal of it; a
  /// mistyped cell would break this.
  @Test func everyCellIsProportionalToWeightTimesMinutesWithinRounding() {
    var numerator = 0.0
    var denominator = 0.0
    for cell in table.cells {
      let x = cell.rowKey * cell.columnKey
      numerator += cell.value * x
      denominator += x * x
    }
    let fitted = numerator / denominator
    expectClose(fitted, 0.042, tolerance: 0.0001)
    for cell in table.cells {
      #expect(abs(cell.value - 0.042 * cell.rowKey * cell.columnKey) <= 0.5 + 1e-9, "cell \(cell)")
    }
  }
}

struct ReferenceTableReaderTests {
  @Test(arguments: [
    ("reference-missing-licence.csv", "reference-missing-licence.csv:6: provenance header lacks \"licence\""),
    (
      "reference-short-row.csv",
      "reference-short-row.csv:10: row has 2 fields; expected 3 fields like the header"
    ),
    (
      "reference-decimal-comma.csv",
      "reference-decimal-comma.csv:10:2: cannot read \"26,5\" as a number (a ',' decimal separator is not accepted)"
    ),
  ])
  func malformedTablesNameFileAndLine(file: String, prefix: String) {
    do {
      _ = try ReferenceTableReader.read(path: "\(fixtures)/\(file)")
      Issue.record("\(file) was read without error")
    } catch let error as InputError {
      let text = error.description.replacingOccurrences(of: fixtures + "/", with: "")
      #expect(text.hasPrefix(prefix), "\(text)")
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test func quotedFieldsAndLineNumbersThroughLibcsv() throws {
    let rows = try CSVTokenizer.rows("a,b\n\"x, \"\"y\"\"\",2\n3,4\n", source: "t.csv")
    #expect(rows.map(\.fields) == [["a", "b"], ["x, \"y\"", "2"], ["3", "4"]])
    #expect(rows.map(\.line) == [1, 2, 3])
  }

  @Test func strayQuoteIsAnErrorWithItsLine() {
    #expect(throws: InputError.self) { try CSVTokenizer.rows("a,b\n1,2\nx\"y,3\n", source: "t.csv") }
  }
}

struct OtherReferenceTablesTests {
  /// Fenton (USA Today 2006): 150 lb for 30 min at 2.5-5 mph: 110, 129, 154,
  /// 187, 231, 293 kcal; the table holds duration fixed at 30 min.
  @Test func fentonBySpeed() throws {
    let table = try ReferenceTableReader.read(
      path: "\(packageRoot)/Datasets/reference/fenton-walking-speed.csv")
    #expect(table.rowKeys == [2.5, 3, 3.5, 4, 4.5, 5])
    #expect(table.values.map { $0[0] } == [110, 129, 154, 187, 231, 293])
    #expect(table.fixed == [.init(variable: "duration_min", value: 30)])
  }

  /// The two Fenton tables meet at 150 lb and 3 mph: 129 kcal in both.
  @Test func fentonTablesAgreeWhereTheyMeet() throws {
    let bySpeed = try ReferenceTableReader.read(
      path: "\(packageRoot)/Datasets/reference/fenton-walking-speed.csv")
    let byWeight = try ReferenceTableReader.read(
      path: "\(packageRoot)/Datasets/reference/fenton-walking-weight.csv")
    #expect(bySpeed.values[1][0] == byWeight.values[2][0])
  }

  /// Compendium 2011 walking METs: 2.8, 3.0, 3.5, 4.3, 5.0, 7.0 at 2.0-4.5 mph.
  @Test func compendiumWalking() throws {
    let table = try ReferenceTableReader.read(
      path: "\(packageRoot)/Datasets/reference/compendium-walking-met.csv")
    #expect(table.values.map { $0[0] } == [2.8, 3.0, 3.5, 4.3, 5.0, 7.0])
    #expect(table.valueVariable == "met")
  }
}
