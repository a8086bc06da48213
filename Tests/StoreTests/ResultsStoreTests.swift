import EnergyLabCore
import Foundation
import GRDB
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
    run.accelEpochs = [
      AccelEpochRow(
        epochStart: "2012-05-08T09:00:00Z", epochSeconds: 60, enmoMilliG: 12.5, madMilliG: nil, steps: 61,
        countsAxis1: 1713)
    ]
    run.referenceValues = [ReferenceValueRow(reference: "t", caseKey: "k", value: 2, unit: "kcal")]
    run.surveyResults = [
      SurveyResultRow(survey: "s", question: "q", answer: "yes", count: 46, percentage: nil)
    ]
    run.diagnostics = [
      DiagnosticRow(
        location: "walk.gpx:12", severity: "warning", code: "impossible-fix", message: "left out 1 fix")
    ]
    run.trips = [
      TripRow(
        trackPath: "walk.gpx", index: 1, startTime: "2012-05-08T09:00:00Z", endTime: "2012-05-08T09:10:00Z",
        modes: "walk", distanceMeters: 777.85, durationSeconds: 600, pauses: 0)
    ]
    run.places = [
      PlaceRow(
        index: 1, latitudeDegrees: 50.8671, longitudeDegrees: -0.0873, visits: 2, durationSeconds: 3600)
    ]
    return run
  }

  @Test func storesRunsWithInputsParametersAndNumbers() throws {
    let store = try ResultsStore(path: temporaryPath())
    try store.record(run(45.76))
    let info = try store.info()
    #expect(
      info.schemaMigrations == [
        "v1-runs-inputs-results", "v2-tracks-activities-epochs-references-surveys", "v3-diagnostics",
        "v4-error-summary-units", "v5-error-summary-text", "v6-trips-places", "v7-accel-epochs",
        "v8-metric-names", "v9-result-names",
      ])
    #expect(info.rowCounts.map(\.rows) == Array(repeating: 1, count: 15))
    // Trips and places come back as stored.
    #expect(try store.allRuns().map(\.trips) == [run(45.76).trips])
    #expect(try store.allRuns().map(\.places) == [run(45.76).places])
    // Diagnostics come back as stored, with their run.
    #expect(try store.allRuns().map(\.diagnostics) == [run(45.76).diagnostics])
    #expect(
      try store.rows(of: "diagnostics").rows == [
        ["1", "walk.gpx:12", "warning", "impossible-fix", "left out 1 fix"]
      ])
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
    #expect(try ResultsStore(path: path).info().rowCounts.map(\.rows) == Array(repeating: 1, count: 15))
    try ResultsStore(path: path).record(run(50, parameter: "70"))
    #expect(try ResultsStore(path: path).info().rowCounts.first?.rows == 2)
  }

  @Test func unknownTableIsRefusedWithTheName() throws {
    let store = try ResultsStore(path: temporaryPath())
    do {
      _ = try store.rows(of: "runs; DROP TABLE runs")
      Issue.record("expected a refusal")
    } catch let error as StoreError {
      #expect(error.kind == .unknownTable && error.tables == ["runs; DROP TABLE runs"])
    }
    #expect(try store.info().rowCounts.first?.table == "runs", "nothing dropped")
  }

  /// A table gone under an open store: SQLite's own error, with the
  /// statement that failed, reaches the caller.
  @Test func storeErrorsKeepTheStatement() throws {
    let path = temporaryPath()
    _ = try ResultsStore(path: path)
    let store = try ResultsStore.reading(path)
    try DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP TABLE tracks") }
    let error = #expect(throws: StoreError.self) { try store.rows(of: "tracks") }
    #expect(error?.kind == .cannotRead)
    #expect(error?.message?.contains("no such table: tracks") == true, "\(String(describing: error))")
    #expect(error?.sql?.contains("tracks") == true, "\(String(describing: error))")
    #expect(error?.description.contains("(SQL: ") == true, "\(String(describing: error))")
  }

  @Test func unopenableDatabaseIsAStoreError() {
    let error = #expect(throws: StoreError.self) {
      try ResultsStore(path: "/proc/no/such/dir/results.sqlite")
    }
    #expect(error?.path == "/proc/no/such/dir/results.sqlite")
    #expect(error?.kind == .cannotWrite)
  }
}

/// Opening for reading or writing: what the store accepts, refuses and
/// leaves untouched.
struct StoreAccessTests {
  func folder() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-access-\(UUID().uuidString)"
    ).path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  func message(_ body: () throws -> Void) -> String {
    do {
      try body()
      return "(no error)"
    } catch {
      return "\(error)"
    }
  }

  func journalMode(_ path: String) throws -> String? {
    var configuration = Configuration()
    configuration.readonly = true
    return try DatabaseQueue(path: path, configuration: configuration).read {
      try String.fetchOne($0, sql: "PRAGMA journal_mode")
    }
  }

  /// The schema of EnergyLab's first store version, as it wrote it, with
  /// one run.
  func versionOneDatabase(at path: String) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
          INSERT INTO grdb_migrations VALUES ('v1-runs-inputs-results');
          CREATE TABLE runs (id INTEGER PRIMARY KEY, run_key TEXT NOT NULL UNIQUE, command TEXT NOT NULL,
            energylab_version TEXT NOT NULL, recorded_at TEXT);
          CREATE TABLE inputs (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            path TEXT NOT NULL, size_bytes INTEGER NOT NULL, sha256 TEXT NOT NULL);
          CREATE TABLE parameters (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            name TEXT NOT NULL, value TEXT NOT NULL, meaning TEXT NOT NULL);
          CREATE TABLE results (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            subject TEXT NOT NULL, metric TEXT NOT NULL, value REAL, unit TEXT NOT NULL);
          CREATE TABLE predictions (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            model TEXT NOT NULL, reference TEXT NOT NULL, case_key TEXT NOT NULL, predicted REAL NOT NULL,
            reference_value REAL NOT NULL, unit TEXT NOT NULL);
          CREATE TABLE error_summaries (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            model TEXT NOT NULL, reference TEXT NOT NULL, statistic TEXT NOT NULL, value REAL);
          INSERT INTO runs VALUES (1, 'k1', 'energy --model acsm-walking', '0.0.9', NULL);
          INSERT INTO inputs VALUES (1, 'walk.gpx', 10, 'aa');
          INSERT INTO parameters VALUES (1, 'body_mass_kg', '70', 'mass');
          INSERT INTO results VALUES (1, 'walk.gpx', 'energy', 49.28, 'kcal');
          """)
    }
  }

  @Test func versionOneDatabaseIsReadAsItIsAndMigratedForwardByAWriter() throws {
    let path = folder() + "/v1.sqlite"
    try versionOneDatabase(at: path)
    // Read-only: the old file is read as it is, its later tables absent.
    let old = try ResultsStore.reading(path)
    #expect(try old.info().schemaMigrations == ["v1-runs-inputs-results"])
    #expect(try old.info().rowCounts.map(\.table) == Array(ResultsStore.tables.prefix(6)))
    #expect(try old.allRuns().map(\.command) == ["energy --model acsm-walking"])
    #expect(throws: StoreError.self) { try old.rows(of: "tracks") }
    #expect(try journalMode(path) == "delete")
    // A writer migrates it forward, keeping the old run, and stores a new one.
    let store = try ResultsStore(path: path)
    #expect(
      try store.info().schemaMigrations == [
        "v1-runs-inputs-results", "v2-tracks-activities-epochs-references-surveys", "v3-diagnostics",
        "v4-error-summary-units", "v5-error-summary-text", "v6-trips-places", "v7-accel-epochs",
        "v8-metric-names", "v9-result-names",
      ])
    try store.record(ResultsStoreTests().run(45.76))
    let runs = try store.allRuns()
    #expect(runs.map(\.command) == ["energy --model acsm-walking", "energy --model acsm-walking"])
    #expect(runs[0].runKey == "k1" && runs[0].energyLabVersion == "0.0.9" && runs[0].recordedAt == nil)
    #expect(runs[0].inputs == [InputFingerprint(path: "walk.gpx", sizeBytes: 10, sha256: "aa")])
    #expect(runs[0].parameters == [NamedParameter(name: "body_mass_kg", value: "70", meaning: "mass")])
    #expect(runs[0].results == [ResultRow(subject: "walk.gpx", metric: "energy", value: 49.28, unit: "kcal")])
    #expect(runs[0].tracks.isEmpty && runs[0].predictions.isEmpty)
    #expect(runs[1].tracks.count == 1)
    #expect(try store.integrityCheck() == "ok")
    #expect(try journalMode(path) == "wal")
  }

  /// An error summary stored before units had their own column keeps its
  /// name (unit in it) and reads with an empty unit from a reader that
  /// does not migrate; a writer's migration (v8) moves the unit out of the
  /// name into its column; new rows keep their unit.
  @Test func errorSummariesStoredBeforeTheUnitColumnStayReadable() throws {
    let path = folder() + "/v1-errors.sqlite"
    try versionOneDatabase(at: path)
    try DatabaseQueue(path: path).write {
      try $0.execute(
        sql: "INSERT INTO error_summaries VALUES (1, 'acsm-walking', 'stanford', 'bias_kcal', -3.2)")
    }
    let old = ErrorSummaryRow(
      model: "acsm-walking", reference: "stanford", statistic: "bias_kcal", value: -3.2, unit: "")
    #expect(try ResultsStore.reading(path).allRuns().first?.errorSummaries == [old])
    let store = try ResultsStore(path: path)
    var run = ResultsStoreTests().run(45.76)
    run.errorSummaries = [
      ErrorSummaryRow(
        model: "acsm-walking", reference: "stanford", statistic: "bias", value: -3.2, unit: "kcal")
    ]
    try store.record(run)
    let runs = try store.allRuns()
    #expect(runs.first?.errorSummaries == run.errorSummaries)
    #expect(runs.last?.errorSummaries == run.errorSummaries)
    #expect(try store.rows(of: "error_summaries").columns.suffix(2) == ["unit", "text"])
  }

  /// A statistic in words (the form of the limits) is stored beside the
  /// numbers and comes back as it was.
  @Test func errorSummariesKeepTheirText() throws {
    let store = try ResultsStore(path: folder() + "/text.sqlite")
    var run = ResultsStoreTests().run(45.76)
    run.errorSummaries = [
      ErrorSummaryRow(model: "m", reference: "measured", statistic: "limits_form", value: nil, text: "ratio"),
      ErrorSummaryRow(model: "m", reference: "measured", statistic: "bias", value: 0.5, unit: "kcal/min"),
    ]
    try store.record(run)
    #expect(try store.allRuns().first?.errorSummaries == run.errorSummaries)
  }

  @Test func readingRefusesWhatIsNotAnEnergyLabStoreAndChangesNothing() throws {
    let dir = folder()
    let other = dir + "/other.sqlite"
    try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE people (name TEXT)") }
    let before = try Data(contentsOf: URL(fileURLWithPath: other))
    #expect(message { _ = try ResultsStore.reading(other) }.contains("not an EnergyLab results database"))
    // A writer refuses it too, before adding a table or switching it to WAL.
    #expect(message { _ = try ResultsStore(path: other) }.contains("nothing was written to it"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
    #expect(try journalMode(other) == "delete")

    let empty = dir + "/empty.sqlite"
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    #expect(message { _ = try ResultsStore.reading(empty) }.contains("empty file"))
    let text = dir + "/text.sqlite"
    _ = FileManager.default.createFile(atPath: text, contents: Data("runs,inputs\n".utf8))
    #expect(message { _ = try ResultsStore.reading(text) }.contains("not an SQLite database"))
    #expect(message { _ = try ResultsStore.reading(dir + "/none.sqlite") }.contains("no such database"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/none.sqlite"))
  }

  @Test func newerSchemaIsRefusedByReadersAndWriters() throws {
    let path = folder() + "/newer.sqlite"
    try ResultsStore(path: path).record(ResultsStoreTests().run(1))
    try DatabaseQueue(path: path).write {
      try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')")
    }
    #expect(message { _ = try ResultsStore.reading(path) }.contains("written by a newer EnergyLab"))
    #expect(message { _ = try ResultsStore(path: path) }.contains("nothing was written to it"))
    // The refusal carries its evidence: the kind and the unknown migration.
    do {
      _ = try ResultsStore(path: path)
      Issue.record("expected a refusal")
    } catch let error as StoreError {
      #expect(error.kind == .newer && error.migrations == ["v99-from-the-future"] && error.nothingWritten)
    }
    let runs = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM runs") }
    #expect(runs == 1)
  }

  @Test func manyWritersInOneProcessAllStore() async throws {
    // Separate connections, as separate processes have: each waits for the
    // others' write locks instead of failing with "database is locked".
    let path = folder() + "/shared.sqlite"
    try await withThrowingTaskGroup(of: Void.self) { group in
      for k in 0..<16 {
        group.addTask {
          try ResultsStore(path: path).record(ResultsStoreTests().run(Double(k), parameter: "\(60 + k)"))
        }
      }
      try await group.waitForAll()
    }
    #expect(try ResultsStore.reading(path).info().rowCounts.first?.rows == 16)
  }
}

/// A store written before `accel_epochs` (long epoch rows: file, start,
/// length, metric, value, unit) migrated forward: an accelerometer run's
/// rows become one row per epoch, values in their columns; every other
/// epoch row stays where it was.
struct AccelEpochMigrationTests {
  @Test func longAccelerometerEpochRowsBecomeOneRowPerEpochAndNothingElseMoves() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-v7-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/v6.sqlite"
    // A store as version 6 left it: made now, then the new table and its
    // migration taken away and long rows written as the accelerometer
    // commands wrote them.
    _ = try ResultsStore(path: path)
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: """
          DROP TABLE accel_epochs;
          DELETE FROM grdb_migrations WHERE identifier = 'v7-accel-epochs';
          INSERT INTO runs VALUES (1, 'k1', 'batch accelerometer /s/P1/wrist.cwa', '0.1.0', NULL);
          INSERT INTO runs VALUES (2, 'k2', 'track segments /s/walk.gpx', '0.1.0', NULL);
          INSERT INTO runs VALUES (3, 'k3', 'accel epochs /s/a.csv', '0.1.0', NULL);
          INSERT INTO epochs VALUES
            (1, '/s/P1/wrist.cwa', '2024-03-01T08:00:00Z', 60, 'enmo', 21.5, 'mg'),
            (1, '/s/P1/wrist.cwa', '2024-03-01T08:00:00Z', 60, 'mad', 30.25, 'mg'),
            (1, '/s/P1/wrist.cwa', '2024-03-01T08:00:00Z', 60, 'steps', 64, 'steps'),
            (1, '/s/P1/wrist.cwa', '2024-03-01T08:00:00Z', 60, 'counts_axis1', 1713, 'counts'),
            (1, '/s/P1/wrist.cwa', '2024-03-01T08:01:00Z', 60, 'enmo', 0, 'mg'),
            (1, '/s/P1/wrist.cwa', '2024-03-01T08:01:00Z', 60, 'steps', 0, 'steps'),
            (2, '/s/walk.gpx', '2024-03-01T08:00:00Z', 30, 'mode', 1, 'mode'),
            (3, '/s/a.csv', '2024-03-01T08:00:00Z', 60, 'enmo', 5, 'mg'),
            (3, '/s/b.csv', '2024-03-01T08:00:00Z', 60, 'enmo', 6, 'mg');
          """)
    }
    let store = try ResultsStore(path: path)
    #expect(try store.info().schemaMigrations.contains("v7-accel-epochs"))
    let runs = try store.allRuns()
    // Two epochs of run 1, the second without MAD or counts (never stored).
    #expect(
      runs[0].accelEpochs == [
        AccelEpochRow(
          epochStart: "2024-03-01T08:00:00Z", epochSeconds: 60, enmoMilliG: 21.5, madMilliG: 30.25, steps: 64,
          countsAxis1: 1713),
        AccelEpochRow(
          epochStart: "2024-03-01T08:01:00Z", epochSeconds: 60, enmoMilliG: 0, madMilliG: nil, steps: 0,
          countsAxis1: nil),
      ])
    #expect(runs[0].epochs.isEmpty)
    // A track's epochs are not the accelerometer's: left as they were.
    #expect(runs[1].accelEpochs.isEmpty && runs[1].epochs.map(\.metric) == ["mode"])
    // Epochs of two files in one run would lose their file: left long.
    #expect(runs[2].accelEpochs.isEmpty && runs[2].epochs.map(\.source) == ["/s/a.csv", "/s/b.csv"])
    #expect(try store.schemaCheck().isEmpty && store.integrityCheck() == "ok")
  }
}

/// A store written before one naming rule for stored metrics migrated
/// forward: every name that ended in its unit's suffix loses it; names
/// that had no unit in them, every value and every unit stay as they were.
/// The rows are copied from a store the previous `energylab` wrote for
/// `track summary`, `accel summary`, `accel days`, `energy`, `track power`
/// and `balance` on the shipped files; the calibration rows (the shipped
/// GENEActiv file is too short to fit one), the W' balance row of `power
/// curve` and the error statistics of a store older than v4 are written
/// in the naming those versions used.
struct MetricNameMigrationTests {
  @Test func metricNamesLoseTheirUnitSuffixAndNothingElseChanges() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-v8-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/v7.sqlite"
    _ = try ResultsStore(path: path)
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: """
          DELETE FROM grdb_migrations WHERE identifier IN ('v8-metric-names', 'v9-result-names');
          INSERT INTO runs VALUES (1, 'k1', 'track summary', '0.1.0', NULL);
          INSERT INTO runs VALUES (2, 'k2', 'accel summary', '0.1.0', NULL);
          INSERT INTO runs VALUES (3, 'k3', 'accel days /d/GENEActiv_testfile.bin', '0.1.0', NULL);
          INSERT INTO runs VALUES (4, 'k4', 'energy --model acsm-walking', '0.1.0', NULL);
          INSERT INTO runs VALUES (5, 'k5', 'track power', '0.1.0', NULL);
          INSERT INTO runs VALUES (6, 'k6', 'balance --user ann:2000:8000:2500', '0.1.0', NULL);
          INSERT INTO runs VALUES (7, 'k7', 'evaluate', '0.1.0', NULL);
          INSERT INTO runs VALUES (8, 'k8', 'accel energy /d/GENEActiv_testfile.bin', '0.1.0', NULL);
          INSERT INTO runs VALUES (9, 'k9', 'power curve', '0.1.0', NULL);
          INSERT INTO runs VALUES (10, 'k10', 'survey sus --items Q1,Q2,Q3,Q4,Q5,Q6,Q7,Q8,Q9,Q10', '0.1.0', NULL);
          INSERT INTO runs VALUES (11, 'k11', 'survey asq --task T1=Ease,Time,Support', '0.1.0', NULL);
          INSERT INTO runs VALUES (12, 'k12', 'batch accelerometer', '0.1.0', NULL);
          INSERT INTO results VALUES
            (1, '/d/edge810-vector-ride.fit', 'points', 4700.0, 'count'),
            (1, '/d/edge810-vector-ride.fit', 'duration_s', 4699.0, 's'),
            (1, '/d/edge810-vector-ride.fit', 'distance_2d_m', 41438.96733673306, 'm'),
            (1, '/d/edge810-vector-ride.fit', 'elevation_reversal_share', 0.26476849387972323, 'fraction'),
            (1, '/d/edge810-vector-ride.fit', 'average_speed_mps', 8.81867787544862, 'm/s'),
            (1, '/d/edge810-vector-ride.fit', 'grade_mean_pct', -0.009652750194028724, '%'),
            (1, '/d/edge810-vector-ride.fit', 'heart_rate_mean_bpm', 153.86148576321986, 'bpm'),
            (1, '/d/edge810-vector-ride.fit', 'work_kj', 1294.783, 'kJ'),
            (1, '/d/edge810-vector-ride.fit', 'mean_power_w', 275.54437114279636, 'W'),
            (1, '/d/edge810-vector-ride.fit', 'device_calories_kcal', 1293.0, 'kcal'),
            (1, '/d/edge810-vector-ride.fit', 'laps', 8.0, 'count'),
            (2, '/d/GENEActiv_testfile.bin', 'sample_rate_hz', 85.7, 'Hz'),
            (2, '/d/GENEActiv_testfile.bin', 'steps', 20.0, 'steps'),
            (2, '/d/GENEActiv_testfile.bin', 'enmo_mean_mg', 40.49350015542117, 'mg'),
            (2, '/d/GENEActiv_testfile.bin', 'sedentary_min', 0.6362310385064177, 'min'),
            (2, '/d/GENEActiv_testfile.bin', 'sedentary_breaks', 1.0, 'breaks'),
            (2, '/d/GENEActiv_testfile.bin', 'non_wear_h', 0.0, 'h'),
            (2, '/d/GENEActiv_testfile.bin', 'calibration_offset_x_g', 0.00125, 'g'),
            (2, '/d/GENEActiv_testfile.bin', 'calibration_scale_x', 1.002, ''),
            (2, '/d/GENEActiv_testfile.bin', 'calibration_temperature_x_g_per_c', -0.0004, 'g/C'),
            (3, '/d/GENEActiv_testfile.bin 2013-05-30', 'recorded_h', 0.016295539997406978, 'h'),
            (3, '/d/GENEActiv_testfile.bin 2013-05-30', 'energy_steps-stepmyhealth', 8.0, 'kcal'),
            (4, '/d/k5-hilly-walk-synthetic.csv', 'duration', 1200.0, 's'),
            (4, '/d/k5-hilly-walk-synthetic.csv', 'energy_rate', 4.717987434070219, 'kcal/min'),
            (4, '/d/k5-hilly-walk-synthetic.csv', 'measured_energy', 87.86510833333332, 'kcal'),
            (4, '/d/hilly-trip.gpx', 'measured_energy', NULL, 'kcal'),
            (5, '/d/edge810-vector-ride.fit', 'np', 301.05210302131866, 'W'),
            (5, '/d/edge810-vector-ride.fit', 'tss', 118.51398179067006, 'tss'),
            (5, '/d/edge810-vector-ride.fit', 'w_prime_balance_integral_min', -512.5, 'J'),
            (6, 'ann', 'burned', 3200.0, 'kcal'),
            (6, 'ann', 'progress', -0.48, 'fraction'),
            (8, '/d/GENEActiv_testfile.bin', 'energy_met-intensity', 1.7617869181900685, 'kcal'),
            (8, '/d/GENEActiv_testfile.bin', 'energy_steps-birdsley-2005', 1.014, 'kcal'),
            (9, '60 s', 'mean_maximal_power', 416.56666666666666, 'W'),
            (9, '/d/edge810-vector-ride.fit', 'w_prime_balance_integral_min', -8394.781384196844, 'J'),
            (9, '/d/edge810-vector-ride.fit', 'w_prime_balance_differential_min', -5463.5265072516095, 'J'),
            (10, 'sus', 'sus_n', 4.0, 'count'),
            (10, 'sus', 'sus_mean', 63.75, 'points'),
            (10, 'sus respondent 1', 'sus_score', 50.0, 'points'),
            (11, 'asq T1', 'asq_ci95_upper', 6.709305455643362, 'points'),
            (11, 'asq T1', 'asq_skipped', 0.0, 'count'),
            (12, '/d/day.csv', 'energy_freedson-1998', 3047.4546, 'kcal');
          INSERT INTO error_summaries VALUES
            (7, 'acsm-walking', 'pem', 'bias_kcal_per_min', 0.25, '', NULL),
            (7, 'acsm-walking', 'pem', 'mape_pct', 12.5, '', NULL),
            (7, 'acsm-walking', 'pem', 'within_20pct_share', 0.75, '', NULL),
            (7, 'acsm-walking', 'pem', 'rmse', 0.5, 'kcal/min', NULL);
          """)
    }
    let store = try ResultsStore(path: path)
    #expect(try store.info().schemaMigrations.suffix(2) == ["v8-metric-names", "v9-result-names"])
    let runs = try store.allRuns()
    func names(_ run: Int) -> [String] { runs[run].results.map(\.metric) }
    #expect(
      names(0) == [
        "points", "duration", "distance_2d", "elevation_reversal_share", "average_speed", "grade_mean",
        "heart_rate_mean", "work", "mean_power", "device_calories", "laps",
      ])
    #expect(
      names(1) == [
        "sample_rate", "steps", "enmo_mean", "sedentary", "sedentary_breaks", "non_wear",
        "calibration_offset_x", "calibration_scale_x", "calibration_temperature_x",
      ])
    // A model's energy takes the printed spelling of its identifier (v9).
    #expect(names(2) == ["recorded", "energy_steps_stepmyhealth"])
    #expect(names(7) == ["energy_met_intensity", "energy_steps_birdsley_2005"])
    #expect(runs[7].results.map(\.value) == [1.7617869181900685, 1.014])
    // `power curve` stores what it prints (`power_w`, `integral_min_j`);
    // `track power`'s row of the same name (run 5) is not its.
    #expect(names(8) == ["power", "integral_min", "differential_min"])
    #expect(runs[8].results.map(\.value) == [416.56666666666666, -8394.781384196844, -5463.5265072516095])
    // The questionnaires' statistics lose the prefix they did not print.
    #expect(names(9) == ["n", "mean", "score"])
    #expect(names(10) == ["ci95_upper", "skipped"])
    #expect(runs[9].results.map(\.value) == [4, 63.75, 50])
    #expect(names(11) == ["energy_freedson_1998"])
    // Names that had no unit in them stay; a `_min` that is a minimum (in J) too.
    #expect(names(3) == ["duration", "energy_rate", "measured_energy", "measured_energy"])
    #expect(names(4) == ["np", "tss", "w_prime_balance_integral_min"])
    #expect(names(5) == ["burned", "progress"])
    // Values and units untouched, row for row.
    #expect(
      runs[0].results.map(\.value) == [
        4700.0, 4699.0, 41438.96733673306, 0.26476849387972323, 8.81867787544862, -0.009652750194028724,
        153.86148576321986, 1294.783, 275.54437114279636, 1293.0, 8.0,
      ])
    #expect(
      runs[0].results.map(\.unit) == [
        "count", "s", "m", "fraction", "m/s", "%", "bpm", "kJ", "W", "kcal", "count",
      ])
    #expect(runs[1].results.map(\.unit) == ["Hz", "steps", "mg", "min", "breaks", "h", "g", "", "g/C"])
    #expect(runs[3].results.map(\.value) == [1200.0, 4.717987434070219, 87.86510833333332, nil])
    // Statistics stored before v4 take their unit from their name.
    #expect(
      runs[6].errorSummaries.map { "\($0.statistic) \($0.unit)" } == [
        "bias kcal/min", "mape %", "within_20pct_share ", "rmse kcal/min",
      ])
    #expect(runs[6].errorSummaries.map(\.value) == [0.25, 12.5, 0.75, 0.5])
    #expect(try store.schemaCheck().isEmpty && store.integrityCheck() == "ok")
  }
}
