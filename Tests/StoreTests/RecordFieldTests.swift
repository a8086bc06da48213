import EnergyLabCore
import Foundation
import GRDB
import Testing

@testable import Store

/// Each record declares its columns once (`Field`); the tables are made by
/// the migrations, written as SQL of their time. The two must name the same
/// columns: a field the migrations never made would fail every insert, a
/// column no field names would be left NULL (or fail NOT NULL) silently.
struct RecordFieldTests {
  /// The columns of `table` in a store migrated from nothing, without the
  /// run's key column.
  func migratedColumns(_ table: String) throws -> [String] {
    let queue = try DatabaseQueue()
    try ResultsStore.migrator.migrate(queue)
    return try queue.read { db in try db.columns(in: table).map(\.name).filter { $0 != "run_id" } }
  }

  func check<Row: RunChildRecord>(_: Row.Type) throws {
    #expect(
      Set(Row.columnNames) == Set(try migratedColumns(Row.databaseTableName)),
      "\(Row.databaseTableName): fields \(Row.columnNames)")
    #expect(Set(Row.columnNames).count == Row.columnNames.count)
  }

  @Test func everyRecordDeclaresItsTablesColumns() throws {
    try check(InputRecord.self)
    try check(ParameterRecord.self)
    try check(ResultRow.self)
    try check(PredictionRow.self)
    try check(ErrorSummaryRow.self)
    try check(TrackRow.self)
    try check(ActivityRow.self)
    try check(EpochRow.self)
    try check(AccelEpochRow.self)
    try check(ReferenceValueRow.self)
    try check(SurveyResultRow.self)
    try check(DiagnosticRow.self)
    try check(TripRow.self)
    try check(PlaceRow.self)
    #expect(Set(StoredRun.Field.allCases.map(\.rawValue)) == Set(try migratedColumns("runs")))
    #expect(Set(StoredRun.written.map(\.rawValue)) == Set(try migratedColumns("runs")).subtracting(["id"]))
  }

  /// Every table of the store has a record, so no table is written by
  /// hand-spelled columns elsewhere.
  @Test func everyTableHasARecord() throws {
    let recorded: Set<String> = [
      InputRecord.databaseTableName, ParameterRecord.databaseTableName, ResultRow.databaseTableName,
      PredictionRow.databaseTableName, ErrorSummaryRow.databaseTableName, TrackRow.databaseTableName,
      ActivityRow.databaseTableName, EpochRow.databaseTableName, AccelEpochRow.databaseTableName,
      ReferenceValueRow.databaseTableName, SurveyResultRow.databaseTableName, DiagnosticRow.databaseTableName,
      TripRow.databaseTableName, PlaceRow.databaseTableName, StoredRun.databaseTableName,
    ]
    #expect(recorded == Set(ResultsStore.tables))
  }

  /// A run written and read back through the fields is the run: every
  /// column written is read into the same member (a hand-built run with a
  /// row in every table, values distinct per column).
  @Test func aRunRoundTripsThroughTheFields() throws {
    let path = ResultsStoreTests().temporaryPath()
    defer {
      try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
    var run = RunRecord(
      command: "batch", recordedAt: "2026-01-02T03:04:05Z",
      inputs: [InputFingerprint(path: "a.gpx", sizeBytes: 11, sha256: String(repeating: "b", count: 64))],
      parameters: [NamedParameter(name: "body_mass_kg", value: "70", meaning: "mass")],
      results: [ResultRow(subject: "a.gpx", metric: "distance_2d", value: 12.5, unit: "m")])
    run.predictions = [
      PredictionRow(
        model: "m", reference: "r", caseKey: "c", predicted: 1.5, referenceValue: 2.5, unit: "kcal")
    ]
    run.errorSummaries = [
      ErrorSummaryRow(model: "m", reference: "r", statistic: "bias", value: -0.25, unit: "kcal", text: "t")
    ]
    run.tracks = [
      TrackRow(
        path: "a.gpx", points: 3, startTime: "s", endTime: "e", durationSeconds: 4.5, distanceMeters: 5.5)
    ]
    run.activities = [
      ActivityRow(
        trackPath: "a.gpx", index: 2, mode: "walk", startTime: "s", endTime: "e", distanceMeters: 6.5,
        durationSeconds: 7.5, model: "acsm", energyKilocalories: 8.5, co2Kilograms: 0.5)
    ]
    run.epochs = [
      EpochRow(source: "x", epochStart: "t", epochSeconds: 60, metric: "enmo", value: 9.5, unit: "mg")
    ]
    run.accelEpochs = [
      AccelEpochRow(
        epochStart: "t", epochSeconds: 5, enmoMilliG: 10.5, madMilliG: 11.5, steps: 12, countsAxis1: 13.5)
    ]
    run.referenceValues = [ReferenceValueRow(reference: "r", caseKey: "c", value: 14.5, unit: "kcal")]
    run.surveyResults = [
      SurveyResultRow(survey: "s", question: "q", answer: "a", count: 3, percentage: 15.5, note: "n")
    ]
    run.diagnostics = [DiagnosticRow(location: "a.gpx:3", severity: "warning", code: "c", message: "m")]
    run.trips = [
      TripRow(
        trackPath: "a.gpx", index: 1, startTime: "s", endTime: "e", modes: "walk", distanceMeters: 16.5,
        durationSeconds: 17.5, pauses: 1)
    ]
    run.places = [
      PlaceRow(index: 1, latitudeDegrees: 48.5, longitudeDegrees: 9.5, visits: 2, durationSeconds: 18.5)
    ]
    try ResultsStore(path: path).record(run)
    let back = try ResultsStore.reading(path).allRuns()
    #expect(back.count == 1)
    #expect(back.first == run.withStoredPaths())
  }
}
