import EnergyLabCore
import Foundation
import Ingest
import TestSupport
import Testing

struct SubjectsReaderTests {
  @Test func readsColumnsInAnyOrderWithUnits() throws {
    let subjects = try SubjectsReader.parse(
      "sex,id,body_mass_lb,height_cm,age_years,vo2max_ml_kg_min\nf,s1,143,165,30,42.5\nmale,s2,,,45,\n",
      source: "s.csv")
    #expect(subjects.count == 2)
    #expect(subjects[0].id == "s1")
    #expect(subjects[0].sex == .female)
    expectClose(subjects[0].bodyMassKilograms, 143 * 0.45359237, tolerance: 1e-12)
    #expect(subjects[0].heightMeters == 1.65)
    #expect(subjects[0].vo2MaxMillilitersPerKilogramPerMinute == 42.5)
    #expect(subjects[1].bodyMassKilograms == nil)
    #expect(subjects[1].ageYears == 45)
  }

  @Test(arguments: [
    ("id,weight\ns1,70\n", "s.csv:1:2: unknown column \"weight\""),
    (
      "id,body_mass_kg\ns1,\"72,5\"\n",
      "s.csv:2:2: cannot read body_mass_kg \"72,5\" as a positive number (a ',' decimal separator is not accepted)"
    ),
    ("id,sex\ns1,x\n", "s.csv:2:2: cannot read sex \"x\""),
    ("body_mass_kg\n70\n", "s.csv:1: no id column"),
  ])
  func badSubjectsNameLineAndColumn(text: String, prefix: String) {
    do {
      _ = try SubjectsReader.parse(text, source: "s.csv")
      Issue.record("read without error")
    } catch let error as InputError {
      #expect(error.description.hasPrefix(prefix), "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}

struct METTableTests {
  /// Spot values of the 2011 Compendium (Ainsworth et al. 2011): 17190
  /// walking 2.8-3.2 mph 3.5 MET; 12050 running 6 mph 9.8; 01010 bicycling
  /// <10 mph 4.0; 16016 bus or train 1.3.
  @Test func shippedTableSpotValues() throws {
    let table = try METTableReader.read(path: "\(packageRoot)/Datasets/met/compendium-2011.csv")
    func met(_ code: String) -> Double? { table.first(where: { $0.code == code })?.metabolicEquivalent }
    #expect(met("17190") == 3.5)
    #expect(met("12050") == 9.8)
    #expect(met("01010") == 4.0)
    #expect(met("16016") == 1.3)
    #expect(Set(table.map(\.code)).count == table.count)
    // Walking METs rise with speed.
    let walking = table.filter { $0.group == "walking" && $0.speedMilesPerHour != nil }
      .sorted { $0.speedMilesPerHour! < $1.speedMilesPerHour! }
    #expect(zip(walking, walking.dropFirst()).allSatisfy { $0.metabolicEquivalent < $1.metabolicEquivalent })
  }

  @Test func missingLicenceIsAnError() {
    #expect(throws: InputError.self) {
      try METTableReader.parse("# source: x\ncode,met,speed_mph,group,activity\n1,2,,a,b\n", source: "m.csv")
    }
  }
}
