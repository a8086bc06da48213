import EnergyLabCore
import Foundation
import GRDB
import Store
import Testing

/// `db check` sees a store that lost a table or a column; a write that
/// cannot happen says why from the file system.
struct StoreHealthTests {
  func storeWithOneRun() throws -> String {
    let path = ResultsStoreTests().temporaryPath()
    try ResultsStore(path: path).record(ResultsStoreTests().run(1))
    return path
  }

  @Test func aWholeStoreHasNoSchemaProblem() throws {
    let path = try storeWithOneRun()
    #expect(try ResultsStore.reading(path).schemaCheck().isEmpty)
  }

  /// The probe dropped `diagnostics` and `db check` said ok; the next run
  /// with a diagnostic failed on "no such table".
  @Test func aDroppedTableAndADroppedColumnAreNamed() throws {
    let path = try storeWithOneRun()
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "DROP TABLE diagnostics")
      try db.execute(sql: "ALTER TABLE tracks DROP COLUMN end_time")
    }
    try queue.close()
    let problems = try ResultsStore.reading(path).schemaCheck()
    #expect(problems == ["table tracks has no column end_time", "table diagnostics is missing"])
  }

  /// A store written before v4 has no `unit` column in `error_summaries`:
  /// that is its schema, not a problem (a writing command migrates it).
  @Test func anOlderStoreIsCheckedAgainstItsOwnMigrations() throws {
    let path = ResultsStoreTests().temporaryPath()
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
          INSERT INTO grdb_migrations VALUES ('v1-runs-inputs-results');
          CREATE TABLE runs (id INTEGER PRIMARY KEY, run_key TEXT NOT NULL UNIQUE, command TEXT NOT NULL,
            energylab_version TEXT NOT NULL, recorded_at TEXT);
          CREATE TABLE inputs (run_id INTEGER NOT NULL, path TEXT NOT NULL, size_bytes INTEGER NOT NULL,
            sha256 TEXT NOT NULL);
          CREATE TABLE parameters (run_id INTEGER NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL,
            meaning TEXT NOT NULL);
          CREATE TABLE results (run_id INTEGER NOT NULL, subject TEXT NOT NULL, metric TEXT NOT NULL, value REAL,
            unit TEXT NOT NULL);
          CREATE TABLE predictions (run_id INTEGER NOT NULL, model TEXT NOT NULL, reference TEXT NOT NULL,
            case_key TEXT NOT NULL, predicted REAL NOT NULL, reference_value REAL NOT NULL, unit TEXT NOT NULL);
          """)
    }
    try queue.close()
    #expect(try ResultsStore.reading(path).schemaCheck() == ["table error_summaries is missing"])
  }

  /// A store in a folder that does not exist says so, instead of SQLite's
  /// "unable to open database file", and nothing is created.
  @Test func aMissingFolderIsNamed() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-absent-\(UUID().uuidString)"
    ).path
    let error = #expect(throws: StoreError.self) { try ResultsStore(path: folder + "/x.sqlite") }
    #expect(
      error?.description
        == "\(folder)/x.sqlite: cannot open results database: the folder \(folder) does not exist; nothing was written to it"
    )
    #expect(!FileManager.default.fileExists(atPath: folder))
  }
}
