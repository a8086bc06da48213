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
    var run = RunRecord(
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
    run.tracks = [
      TrackRow(
        path: "walk.gpx", points: 601, startTime: nil, endTime: nil, durationSeconds: 600,
        distanceMeters: 777.85)
    ]
    run.activities = [
      ActivityRow(
        trackPath: "walk.gpx", index: 1, mode: "walk", startTime: nil, endTime: nil, distanceMeters: 777.85,
        durationSeconds: 600,
        model: "acsm-walking", energyKilocalories: value, co2Kilograms: 0)
    ]
    run.epochs = [
      EpochRow(
        source: "walk.gpx", epochStart: "2012-05-08T09:00:00Z", epochSeconds: 60, metric: "m", value: 1,
        unit: "u")
    ]
    run.referenceValues = [ReferenceValueRow(reference: "t", caseKey: "k", value: 2, unit: "kcal")]
    run.surveyResults = [
      SurveyResultRow(survey: "s", question: "q", answer: "yes", count: 46, percentage: nil)
    ]
    return run
  }

  @Test func storesRunsWithInputsParametersAndNumbers() throws {
    let store = try ResultsStore(path: temporaryPath())
    try store.record(run(45.76))
    let info = try store.info()
    #expect(
      info.schemaMigrations == ["v1-runs-inputs-results", "v2-tracks-activities-epochs-references-surveys"])
    #expect(info.rowCounts.map(\.rows) == Array(repeating: 1, count: 11))
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
    #expect(try ResultsStore(path: path).info().rowCounts.map(\.rows) == Array(repeating: 1, count: 11))
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
