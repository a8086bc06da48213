import EnergyLabCore
import Foundation
import Ingest
import TestSupport
import Testing

struct EmissionFactorTests {
  /// PEM thesis: petrol car 0.3358 kg CO2 per mile = 0.3358 / 1.609344 =
  /// 0.208657 kg per km; national rail 0.0565 kg per passenger-km.
  @Test func pemCarbonTrustSet() throws {
    let set = try FactorReaders.emissionFactorSet(
      path: "\(packageRoot)/Datasets/factors/pem-carbon-trust-2012.csv")
    expectClose(try set.kilograms(mode: "car", distanceMeters: 1609.344), 0.3358, tolerance: 1e-12)
    expectClose(try set.kilograms(mode: "train", distanceMeters: 10_000), 0.565, tolerance: 1e-12)
    #expect(try set.kilograms(mode: "walk", distanceMeters: 5000) == 0)
    // The thesis gives no bus value: an error, not a zero.
    let error = #expect(throws: ValueError.self) { try set.kilograms(mode: "bus", distanceMeters: 1000) }
    #expect(error?.value == "bus" && error?.remedy == Remedy(.factorSet))
    #expect(error?.expected == "a mode of factor set pem-carbon-trust-2012: walk, run, cycle, car, train")
  }

  /// Alter Eco app: car 0.175, train 0.030, plane 0.200 kg CO2e per km.
  @Test func alterEcoSet() throws {
    let set = try FactorReaders.emissionFactorSet(path: "\(packageRoot)/Datasets/factors/alter-eco-2020.csv")
    #expect(try set.kilograms(mode: "car", distanceMeters: 1000) == 0.175)
    #expect(try set.kilograms(mode: "train", distanceMeters: 1000) == 0.030)
    #expect(try set.kilograms(mode: "plane", distanceMeters: 1000) == 0.200)
  }

  /// Fig 7.5 of the carbon gamification thesis: spot values, both coal rows,
  /// and 15 suppliers (Bord Gais, Electric Ireland, eleven at 0, Glow Power,
  /// Prepay Power) plus the all-island mix: 16 rows.
  @Test func gamificationTable() throws {
    let table = try FactorReaders.factorTable(
      path: "\(packageRoot)/Datasets/factors/carbon-gamification-2022.csv")
    #expect(try table.value("fuel-petrol") == 2.35)
    #expect(try table.value("fuel-diesel") == 2.65)
    #expect(try table.value("flight") == 0.09)
    #expect(try table.value("heating-coal-1") == 0.354)
    #expect(try table.value("heating-coal-2") == 0.395)
    #expect(try table.value("irish-average-annual") == 12.6)
    #expect(table.keys(withPrefix: "diet-").count == 6)
    #expect(table.keys(withPrefix: "supplier-").count == 16)
  }

  @Test func airports() throws {
    let airports = try FactorReaders.airports(path: "\(packageRoot)/Datasets/airports/airports.csv")
    #expect(Set(["STN", "CAG", "TFS"]).isSubset(of: Set(airports.map(\.code))))
  }

  @Test func unknownUnitNamesTheCell() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-f-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = "\(folder)/x.csv"
    try
      "# source: s\n# version: v\n# units: u\n# transcribed: t\n# licence: l\nmode,factor,unit,note\ncar,0.2,g/km,x\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    let error = #expect(throws: InputError.self) { try FactorReaders.emissionFactorSet(path: path) }
    #expect(
      error?.description.hasSuffix(
        "x.csv:7:3: unknown unit \"g/km\"; expected kgCO2/km, kgCO2e/km, kgCO2/pkm or kgCO2/mile") == true)
  }
}

struct ModeTruthReaderTests {
  /// Local San Diego times: 9:00:00 on 7 March 2011 is PST (UTC-8),
  /// 17:00:00Z; 9:00:00 on 6 April 2011 is PDT (UTC-7), 16:00:00Z.
  @Test func localTimesBecomeUTCAcrossTheChangeToDaylightTime() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("Record.csv").path
    // Latin-1 bytes in a place name (0xE9, "é") must not stop the reader.
    var bytes = Array("Date,Time,Event,Mode,LocName_S\n3/7/2011,9:00:00,Trip,Walk,Caf".utf8)
    bytes += [0xE9] + Array("\n4/6/2011,9:00:00,Pause,Some Movement/Walk,\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let rows = try ModeTruthReader.observedSeconds(
      path: path, timeZone: TimeZone(identifier: "America/Los_Angeles")!)
    #expect(rows.map(\.secondsSince1970) == [1_299_517_200, 1_302_105_600])
    #expect(rows.map(\.label) == ["Walk", "Some Movement/Walk"])
  }

  @Test func aMissingModeColumnIsNamed() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString).csv")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try "Date,Time\n3/7/2011,9:00:00\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect {
      try ModeTruthReader.observedSeconds(path: path, timeZone: TimeZone(identifier: "UTC")!)
    } throws: { error in
      "\(error)".contains("no Mode column") && "\(error)".contains(":1")
    }
  }
}
