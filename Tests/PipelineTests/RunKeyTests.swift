import EnergyLabCore
import EnergyModels
import Foundation
import Store
import Testing

@testable import Pipeline

/// Runs that differ only in a subject value are two runs; the same run
/// again replaces itself.
struct RunKeyTests {
  @Test func subjectValuesAreInTheRunKey() throws {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent(
      "runkey-\(UUID().uuidString).sqlite"
    ).path
    let track = StructureCorpus.path("komoot-waypoints-before-and-after.gpx")
    func energy(age: Double, sex: Sex) throws {
      var subject = ModelInput(bodyMassKilograms: 72)
      subject.ageYears = age
      subject.sex = sex
      var options = EnergyCommand.Options(files: [track], modelID: "acsm-walking", subject: subject)
      options.databasePath = db
      let (driver, _) = Driver.buffered()
      try EnergyCommand.run(options, driver: driver)
    }
    try energy(age: 34, sex: .female)
    try energy(age: 50, sex: .male)
    try energy(age: 50, sex: .male)
    let store = try ResultsStore(path: db)
    #expect(try store.info().rowCounts.first { $0.table == "runs" }?.rows == 2)
    let parameters = try store.rows(of: "parameters")
    let nameColumn = try #require(parameters.columns.firstIndex(of: "name"))
    let valueColumn = try #require(parameters.columns.firstIndex(of: "value"))
    let ages = parameters.rows.filter { $0[nameColumn] == "age_years" }.compactMap { $0[valueColumn] }
    let sexes = parameters.rows.filter { $0[nameColumn] == "sex" }.compactMap { $0[valueColumn] }
    #expect(ages.sorted() == ["34", "50"])
    #expect(sexes.sorted() == ["female", "male"])
  }
}
