import EnergyLabCore
import Foundation
import Store
import Testing

struct ResultsStoreTests {
  func temporaryPath() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-store-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("results.sqlite").path
  }

  func run(_ value: Double, parameter: String = "65") -> RunRecord {
    RunRecord(
      command: "energy --model acsm-walking", recordedAt: nil,
      inputs: [InputFingerprint(path: "walk.gpx", sizeBytes: 10, sha256: String(repeating: "a", count: 64))],
      parameters: [NamedParameter(name: "body_mass_kg", value: parameter, meaning: "mass")],
      results: [ResultRow(subject: "walk.gpx", metric: "energy", value: value, unit: "kcal")],
      predictions: [
        PredictionRow(
          model: "acsm-walking", reference: "t", caseKey: "k", predicted: 1, referenceValue: 2, unit: "kcal")
      ],
      errorSummaries: [ErrorSummaryRow(model: "acsm-walking", reference: "t", statistic: "bias", value: .nan)]
    )
  }

  @Test func storesRunsWithInputsParametersAndNumbers() throws {
    let store = try ResultsStore(path: temporaryPath())
    try store.record(run(45.76))
    let info = try store.info()
    #expect(info.schemaMigrations == ["v1-runs-inputs-results"])
    #expect(info.rowCounts.map(\.rows) == [1, 1, 1, 1, 1, 1])
    let results = try store.rows(of: "results")
    #expect(results.columns == ["run_id", "subject", "metric", "value", "unit"])
    #expect(results.rows.first?[3] == "45.76")
    // A NaN statistic is stored as NULL, not as a number.
    #expect(try store.rows(of: "error_summaries").rows.first?[4] == nil)
    #expect(try store.integrityCheck() == "ok")
  }

  @Test func rerunningTheSameInputsAndParametersAddsNoDuplicates() throws {
    let path = temporaryPath()
    try ResultsStore(path: path).record(run(45.76))
    try ResultsStore(path: path).record(run(45.76))
    #expect(try ResultsStore(path: path).info().rowCounts.map(\.rows) == [1, 1, 1, 1, 1, 1])
    try ResultsStore(path: path).record(run(50, parameter: "70"))
    #expect(try ResultsStore(path: path).info().rowCounts.first?.rows == 2)
  }

  @Test func unknownTableIsAUsageError() throws {
    let store = try ResultsStore(path: temporaryPath())
    #expect(throws: UsageError.self) { try store.rows(of: "runs; DROP TABLE runs") }
  }

  @Test func unopenableDatabaseIsARuntimeError() {
    #expect(throws: RuntimeError.self) { try ResultsStore(path: "/proc/no/such/dir/results.sqlite") }
  }
}
