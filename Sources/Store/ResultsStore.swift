import EnergyLabCore
import Foundation
import GRDB

/// A run as the store records it.
package struct RunRecord: Sendable, Hashable {
  /// Identifies a run by what determines its results: the command, the
  /// inputs' sha256 and the parameters. Storing a run with a key already
  /// present replaces that run, so re-running adds no duplicate rows.
  package var runKey: String
  package var command: String
  package var energyLabVersion: String
  /// ISO-8601 UTC; nil in reproducible mode.
  package var recordedAt: String?
  package var inputs: [InputFingerprint]
  package var parameters: [NamedParameter]
  package var results: [ResultRow]
  package var predictions: [PredictionRow]
  package var errorSummaries: [ErrorSummaryRow]
  package var tracks: [TrackRow] = []
  package var activities: [ActivityRow] = []
  package var epochs: [EpochRow] = []
  /// A recording's epochs, one row each (`accel_epochs`).
  package var accelEpochs: [AccelEpochRow] = []
  package var referenceValues: [ReferenceValueRow] = []
  package var surveyResults: [SurveyResultRow] = []
  /// Trips and the places of stays between them (`track trips`).
  package var trips: [TripRow] = []
  package var places: [PlaceRow] = []
  /// What the readers and models noticed about the inputs (not part of
  /// the key: the same inputs and parameters give the same diagnostics).
  package var diagnostics: [DiagnosticRow] = []

  package init(
    command: String, energyLabVersion: String = EnergyLabVersion.current, recordedAt: String?,
    inputs: [InputFingerprint], parameters: [NamedParameter], results: [ResultRow] = [],
    predictions: [PredictionRow] = [], errorSummaries: [ErrorSummaryRow] = []
  ) {
    self.command = command
    self.energyLabVersion = energyLabVersion
    self.recordedAt = recordedAt
    self.inputs = inputs
    self.parameters = parameters
    self.results = results
    self.predictions = predictions
    self.errorSummaries = errorSummaries
    runKey = Self.key(command: command, inputs: inputs, parameters: parameters)
  }

  /// The SHA-256 of the command, each input's name and digest, and each
  /// parameter's name and value.
  package static func key(command: String, inputs: [InputFingerprint], parameters: [NamedParameter]) -> String
  {
    var key = "\(command)\n"
    for input in inputs { key += "input \(input.path) \(input.sha256)\n" }
    for parameter in parameters { key += "param \(parameter.name)=\(parameter.value)\n" }
    return SHA256.hex(Array(key.utf8))
  }

  /// The run with every file named the one way the store names it
  /// (`CanonicalPath.stored`: shipped data by `shipped:` name, anything
  /// else by its absolute real path), in every table: the inputs, and the
  /// tracks, activities, epochs, results, predictions, reference values,
  /// survey results and diagnostics that name a file as typed (`walk.gpx`,
  /// `walk.gpx#2 walk`, `walk.gpx:118:7`). Text that names no file here
  /// is kept. When an input's name changes, so does the key: the same files
  /// and parameters give the same key from whatever folder they were named.
  package func withStoredPaths() -> RunRecord {
    var names = StoredNames()
    var out = self
    out.inputs = inputs.map { input in
      var stored = input
      stored.path = names.input(input.path)
      return stored
    }
    if out.inputs != inputs {
      out.runKey = Self.key(command: command, inputs: out.inputs, parameters: parameters)
    }
    for i in out.results.indices { out.results[i].subject = names.rename(out.results[i].subject) }
    for i in out.predictions.indices {
      out.predictions[i].reference = names.rename(out.predictions[i].reference)
    }
    for i in out.errorSummaries.indices {
      out.errorSummaries[i].reference = names.rename(out.errorSummaries[i].reference)
    }
    for i in out.tracks.indices { out.tracks[i].path = names.rename(out.tracks[i].path) }
    for i in out.activities.indices {
      out.activities[i].trackPath = names.rename(out.activities[i].trackPath)
    }
    for i in out.epochs.indices { out.epochs[i].source = names.rename(out.epochs[i].source) }
    for i in out.trips.indices { out.trips[i].trackPath = names.rename(out.trips[i].trackPath) }
    for i in out.referenceValues.indices {
      out.referenceValues[i].reference = names.rename(out.referenceValues[i].reference)
    }
    for i in out.surveyResults.indices {
      out.surveyResults[i].survey = names.rename(out.surveyResults[i].survey)
    }
    for i in out.diagnostics.indices {
      if let location = out.diagnostics[i].location { out.diagnostics[i].location = names.rename(location) }
    }
    return out
  }
}

/// Stored names of the files a run names, each looked up once.
struct StoredNames {
  /// Text as found in a row -> the stored name of the file it names, or
  /// nil when it names none.
  private var known: [String: String?] = [:]

  /// An input's stored name; as given when it names no file here (a run
  /// read back from another store).
  mutating func input(_ path: String) -> String {
    file(path) ?? path
  }

  /// The stored name of the regular file `text` names, nil when it names none.
  private mutating func file(_ text: String) -> String? {
    if let found = known[text] { return found }
    var name: String? = nil
    if text.hasPrefix(ShippedDataRoots.namePrefix) {
      name = text
    } else if !text.isEmpty, let status = FileStatus.of(text), !status.isDirectory {
      name = CanonicalPath.stored(text)
    }
    known[text] = name
    return name
  }

  /// `text` with the file it names, whole or before `#` (an activity of
  /// a file), before a last space (a day of a file) or before `:line` or `:line:column` (a place in it), given
  /// its stored name; unchanged when it names no file.
  mutating func rename(_ text: String) -> String {
    if let whole = file(text) { return whole }
    if let hash = text.firstIndex(of: "#"), let name = file(String(text[..<hash])) {
      return name + text[hash...]
    }
    // A day of a recording: `file 2024-03-01`.
    if let space = text.lastIndex(of: " "), let name = file(String(text[..<space])) {
      return name + text[space...]
    }
    // Up to two trailing `:digits` (line, then column).
    var end = text.endIndex
    for _ in 0..<2 {
      guard let colon = text[..<end].lastIndex(of: ":") else { break }
      let digits = text[text.index(after: colon)..<end]
      guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { break }
      end = colon
      if let name = file(String(text[..<end])) { return name + text[end...] }
    }
    return text
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// A number a run produced, for a subject (a file, an activity, a model).
package struct ResultRow: Sendable, Hashable {
  package var subject: String
  package var metric: String
  package var value: Double?
  package var unit: String
  package init(subject: String, metric: String, value: Double?, unit: String) {
    self.subject = subject
    self.metric = metric
    self.value = value
    self.unit = unit
  }
}

/// A model's prediction for one case of a reference table.
package struct PredictionRow: Sendable, Hashable {
  package var model: String
  package var reference: String
  package var caseKey: String
  package var predicted: Double
  package var referenceValue: Double
  package var unit: String
  package init(
    model: String, reference: String, caseKey: String, predicted: Double, referenceValue: Double, unit: String
  ) {
    self.model = model
    self.reference = reference
    self.caseKey = caseKey
    self.predicted = predicted
    self.referenceValue = referenceValue
    self.unit = unit
  }
}

/// One statistic of a model against a reference: the statistic's name
/// without a unit (`bias`, `rmse`, `pearson_r`), the unit in its own field
/// (`kcal`, `kcal/min`, `W`, `%`; empty for a pure number). Runs stored
/// before units had their column keep the unit in the name
/// (`bias_kcal_per_min`) and an empty unit.
package struct ErrorSummaryRow: Sendable, Hashable {
  package var model: String
  package var reference: String
  package var statistic: String
  package var value: Double?
  package var unit: String
  /// A statistic in words (the form of the limits, how an interval was
  /// computed, why a value is unknown); `nil` for numbers.
  package var text: String?
  package init(
    model: String, reference: String, statistic: String, value: Double?, unit: String = "",
    text: String? = nil
  ) {
    self.model = model
    self.reference = reference
    self.statistic = statistic
    self.value = value
    self.unit = unit
    self.text = text
  }
}

/// A track a run read, summarised.
package struct TrackRow: Sendable, Hashable {
  package var path: String
  package var points: Int
  package var startTime: String?
  package var endTime: String?
  package var durationSeconds: Double?
  package var distanceMeters: Double
  package init(
    path: String, points: Int, startTime: String?, endTime: String?, durationSeconds: Double?,
    distanceMeters: Double
  ) {
    self.path = path
    self.points = points
    self.startTime = startTime
    self.endTime = endTime
    self.durationSeconds = durationSeconds
    self.distanceMeters = distanceMeters
  }
}

/// An activity of a track: mode, times, distance, energy and CO2.
package struct ActivityRow: Sendable, Hashable {
  package var trackPath: String
  package var index: Int
  package var mode: String
  package var startTime: String?
  package var endTime: String?
  package var distanceMeters: Double
  package var durationSeconds: Double
  package var model: String
  package var energyKilocalories: Double?
  package var co2Kilograms: Double?
  package init(
    trackPath: String, index: Int, mode: String, startTime: String?, endTime: String?, distanceMeters: Double,
    durationSeconds: Double, model: String, energyKilocalories: Double?, co2Kilograms: Double?
  ) {
    self.trackPath = trackPath
    self.index = index
    self.mode = mode
    self.startTime = startTime
    self.endTime = endTime
    self.distanceMeters = distanceMeters
    self.durationSeconds = durationSeconds
    self.model = model
    self.energyKilocalories = energyKilocalories
    self.co2Kilograms = co2Kilograms
  }
}

/// A value of a fixed-length epoch (a model's energy rate, an accelerometer
/// summary).
package struct EpochRow: Sendable, Hashable {
  package var source: String
  package var epochStart: String
  package var epochSeconds: Double
  package var metric: String
  package var value: Double?
  package var unit: String
  package init(
    source: String, epochStart: String, epochSeconds: Double, metric: String, value: Double?, unit: String
  ) {
    self.source = source
    self.epochStart = epochStart
    self.epochSeconds = epochSeconds
    self.metric = metric
    self.value = value
    self.unit = unit
  }
}

/// One epoch of the run's accelerometer recording, every value in a
/// column of its own (table `accel_epochs`): ENMO and MAD (mg), steps and
/// ActiGraph axis-1 counts; nil where unknown. The recording is the run's
/// (its command and first input), so no row repeats the file's name: a
/// week of minutes is 10,080 rows of a few numbers each.
package struct AccelEpochRow: Sendable, Hashable {
  package var epochStart: String
  package var epochSeconds: Double
  package var enmoMilliG: Double?
  package var madMilliG: Double?
  package var steps: Int?
  package var countsAxis1: Double?
  package init(
    epochStart: String, epochSeconds: Double, enmoMilliG: Double?, madMilliG: Double?, steps: Int?,
    countsAxis1: Double?
  ) {
    self.epochStart = epochStart
    self.epochSeconds = epochSeconds
    self.enmoMilliG = enmoMilliG
    self.madMilliG = madMilliG
    self.steps = steps
    self.countsAxis1 = countsAxis1
  }
}

/// A trip of a track: start, end, its modes in order (`walk>vehicle>walk`),
/// distance, duration and pauses.
package struct TripRow: Sendable, Hashable {
  package var trackPath: String
  package var index: Int
  package var startTime: String
  package var endTime: String
  package var modes: String
  package var distanceMeters: Double
  package var durationSeconds: Double
  package var pauses: Int
  package init(
    trackPath: String, index: Int, startTime: String, endTime: String, modes: String, distanceMeters: Double,
    durationSeconds: Double, pauses: Int
  ) {
    self.trackPath = trackPath
    self.index = index
    self.startTime = startTime
    self.endTime = endTime
    self.modes = modes
    self.distanceMeters = distanceMeters
    self.durationSeconds = durationSeconds
    self.pauses = pauses
  }
}

/// A place where the person stays: its centre, visits and time there.
package struct PlaceRow: Sendable, Hashable {
  package var index: Int
  package var latitudeDegrees: Double
  package var longitudeDegrees: Double
  package var visits: Int
  package var durationSeconds: Double
  package init(
    index: Int, latitudeDegrees: Double, longitudeDegrees: Double, visits: Int, durationSeconds: Double
  ) {
    self.index = index
    self.latitudeDegrees = latitudeDegrees
    self.longitudeDegrees = longitudeDegrees
    self.visits = visits
    self.durationSeconds = durationSeconds
  }
}

/// A cell of a reference table as a run used it.
package struct ReferenceValueRow: Sendable, Hashable {
  package var reference: String
  package var caseKey: String
  package var value: Double
  package var unit: String
  package init(reference: String, caseKey: String, value: Double, unit: String) {
    self.reference = reference
    self.caseKey = caseKey
    self.value = value
    self.unit = unit
  }
}

/// A count (or statistic) of a survey question's answer.
package struct SurveyResultRow: Sendable, Hashable {
  package var survey: String
  package var question: String
  package var answer: String
  package var count: Double?
  package var percentage: Double?
  /// Set for partial data: the options a count is shared by ("somewhat or extremely likely").
  package var note: String
  package init(
    survey: String, question: String, answer: String, count: Double?, percentage: Double?, note: String = ""
  ) {
    self.survey = survey
    self.question = question
    self.answer = answer
    self.count = count
    self.percentage = percentage
    self.note = note
  }
}

/// A note or warning about a run's inputs or models, worded as the command
/// line says it.
package struct DiagnosticRow: Sendable, Hashable {
  /// The file, or `file:line`, it concerns; nil for a run as a whole.
  package var location: String?
  /// `note` or `warning`.
  package var severity: String
  /// The stable identifier, as `impossible-fix`.
  package var code: String
  package var message: String
  package init(location: String?, severity: String, code: String, message: String) {
    self.location = location
    self.severity = severity
    self.code = code
    self.message = message
  }
  package init(_ diagnostic: Diagnostic) {
    self.init(
      location: diagnostic.location, severity: diagnostic.severity.rawValue, code: diagnostic.code,
      message: diagnostic.text)
  }
}

/// Counts of rows per table, for `db info`.
package struct StoreInfo: Sendable, Hashable {
  package var path: String
  package var schemaMigrations: [String]
  package var rowCounts: [(table: String, rows: Int)]

  package static func == (lhs: StoreInfo, rhs: StoreInfo) -> Bool {
    lhs.path == rhs.path && lhs.schemaMigrations == rhs.schemaMigrations
      && lhs.rowCounts.map(\.table) == rhs.rowCounts.map(\.table)
      && lhs.rowCounts.map(\.rows) == rhs.rowCounts.map(\.rows)
  }
  package func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(schemaMigrations)
  }
}

/// The SQLite results store. Every run is written in one transaction:
/// a failed or killed run leaves the previous contents intact.
///
/// Opened for writing, the store waits for other writers (a busy timeout,
/// then retries), migrates an older EnergyLab database forward and refuses
/// a file that is not EnergyLab's or that a newer EnergyLab has migrated.
/// Opened for reading, it never migrates, never changes the journal mode
/// and works on files the user may only read.
package final class ResultsStore: Sendable {
  package enum Access: Sendable {
    case write
    case read
  }

  package let path: String
  package let access: Access
  private let queue: DatabaseQueue
  /// The EnergyLab tables this file holds: all of them once migrated; an
  /// older file opened for reading may lack the later ones.
  private let presentTables: Set<String>

  package static let tables = [
    "runs", "inputs", "parameters", "results", "predictions", "error_summaries", "tracks", "activities",
    "epochs", "accel_epochs",
    "reference_values", "survey_results", "diagnostics", "trips", "places",
  ]

  /// How long a statement waits for another process's lock before SQLite
  /// reports the database busy, s.
  static let busyTimeoutSeconds = 30.0
  /// Attempts at opening or writing when the database stays busy (or a
  /// concurrent first migration got there first).
  static let attempts = 8

  package convenience init(path: String, access: Access = .write) throws {
    try self.init(path: path, access: access, maximumPages: nil)
  }

  /// A store whose file may not grow past `maximumPages` pages (SQLite's
  /// `max_page_count`): a write beyond fails as on a full disk, so tests
  /// reach that failure without filling one.
  init(path: String, access: Access = .write, maximumPages: Int?) throws {
    self.path = path
    self.access = access
    switch access {
    case .write:
      (queue, presentTables) = try Self.retrying(path: path, doing: "open results database") {
        try Self.openForWriting(path, maximumPages: maximumPages)
      }
    case .read:
      (queue, presentTables) = try Self.openForReading(path)
    }
  }

  /// Opens a store for reading only: `db info`, `check`, `export`,
  /// `compare` and the shards of `merge`.
  package static func reading(_ path: String) throws -> ResultsStore {
    try ResultsStore(path: path, access: .read)
  }

  private static func openForWriting(_ path: String, maximumPages: Int?) throws -> (
    DatabaseQueue, Set<String>
  ) {
    // A store this user cannot write is refused before SQLite opens it:
    // opening would leave -wal and -shm files with the store's read-only
    // permissions, owned by this user, that keep everyone else from
    // writing once the store is made writable again.
    if let blocker = StoreError.writeBlocker(path: path) {
      throw StoreError(cannotWrite: path, action: "open results database", cause: blocker)
    }
    var configuration = Configuration()
    configuration.foreignKeysEnabled = true
    configuration.busyMode = .timeout(busyTimeoutSeconds)
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
      if let maximumPages { try db.execute(sql: "PRAGMA max_page_count = \(maximumPages)") }
    }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    // Checked before anything is changed: another program's file keeps
    // its journal mode and tables.
    try queue.read { db in _ = try schema(of: db, path: path, forWriting: true) }
    // WAL lets readers go on while a writer writes; the mode stays with
    // the file, so it is set once.
    try queue.writeWithoutTransaction { db in
      if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
    }
    try migrator.migrate(queue)
    return (queue, Set(tables))
  }

  private static func openForReading(_ path: String) throws -> (DatabaseQueue, Set<String>) {
    guard FileManager.default.fileExists(atPath: path) else {
      throw StoreError(.missing, path: path, action: "read results database")
    }
    guard FileStatus.size(path) > 0 else {
      throw StoreError(.emptyFile, path: path, action: "read results database")
    }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(busyTimeoutSeconds)
    func open(_ name: String) throws -> (DatabaseQueue, Set<String>) {
      let queue = try DatabaseQueue(path: name, configuration: configuration)
      let present = try queue.read { db in try schema(of: db, path: path, forWriting: false) }
      return (queue, present)
    }
    do {
      do {
        return try open(path)
      } catch let error as DatabaseError
        where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
      {
        // A WAL database in a folder the user may not write has no shared
        // memory file to read through; nobody can be writing it there, so
        // it is read as immutable.
        guard let immutable = immutableURI(path) else { throw error }
        do { return try open(immutable) } catch is DatabaseError { throw error }
      }
    } catch let error as DatabaseError {
      throw StoreError(
        error.resultCode == .SQLITE_NOTADB ? .notADatabase : .cannotRead, path: path,
        action: "read results database", error: error)
    }
  }

  /// `file:PATH?immutable=1`, the path percent-encoded.
  private static func immutableURI(_ path: String) -> String? {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    return absolute.addingPercentEncoding(withAllowedCharacters: allowed).map { "file:\($0)?immutable=1" }
  }

  /// Checks that `db` is an EnergyLab store this version understands;
  /// returns its EnergyLab tables. A new, empty file passes for writing.
  private static func schema(of db: Database, path: String, forWriting: Bool) throws -> Set<String> {
    let names = try String.fetchAll(
      db,
      sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    // A file another writer is creating holds the migrations table alone.
    if names.allSatisfy({ $0 == "grdb_migrations" }) {
      if forWriting { return [] }
      throw StoreError(.noTables, path: path, action: "read results database")
    }
    guard names.contains("grdb_migrations"), names.contains("runs") else {
      throw StoreError(
        .foreign, path: path, action: "open results database", tables: names, nothingWritten: forWriting)
    }
    let known = migrator.migrations
    let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    let unknown = applied.filter { !known.contains($0) }
    guard unknown.isEmpty else {
      throw StoreError(
        .newer, path: path, action: "open results database", migrations: unknown, nothingWritten: forWriting)
    }
    return Set(names).intersection(tables)
  }

  /// Runs `body`, again after a pause when the database stays busy or a
  /// concurrent process migrated it first, up to `attempts` times.
  static func retrying<T>(path: String, doing what: String, _ body: () throws -> T) throws -> T {
    var attempt = 0
    while true {
      attempt += 1
      do {
        return try body()
      } catch let error as DatabaseError {
        let busy = error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        // A table created, or a column added, by a concurrent migration;
        // or a migration that changes rows only, which another process
        // applied and recorded first (its transaction is rolled back, and
        // the retry finds it applied).
        let message = error.message ?? ""
        let raced =
          (error.resultCode == .SQLITE_ERROR
            && ["already exists", "duplicate column name"].contains { message.contains($0) })
          || (error.resultCode == .SQLITE_CONSTRAINT && message.contains("grdb_migrations.identifier"))
        if (busy || raced) && attempt < attempts {
          usleep(UInt32(min(2.0, 0.05 * pow(2, Double(attempt - 1))) * Double.random(in: 0.5...1.5) * 1e6))
          continue
        }
        throw StoreError(
          busy ? .busy : error.resultCode == .SQLITE_NOTADB ? .notADatabase : .cannotWrite, path: path,
          action: what, error: error, attempts: busy ? attempt : nil)
      }
    }
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1-runs-inputs-results") { db in
      try db.execute(
        sql: """
          CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            run_key TEXT NOT NULL UNIQUE,
            command TEXT NOT NULL,
            energylab_version TEXT NOT NULL,
            recorded_at TEXT
          );
          CREATE TABLE inputs (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            size_bytes INTEGER NOT NULL,
            sha256 TEXT NOT NULL
          );
          CREATE TABLE parameters (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            meaning TEXT NOT NULL
          );
          CREATE TABLE results (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            subject TEXT NOT NULL,
            metric TEXT NOT NULL,
            value REAL,
            unit TEXT NOT NULL
          );
          CREATE TABLE predictions (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            model TEXT NOT NULL,
            reference TEXT NOT NULL,
            case_key TEXT NOT NULL,
            predicted REAL NOT NULL,
            reference_value REAL NOT NULL,
            unit TEXT NOT NULL
          );
          CREATE TABLE error_summaries (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            model TEXT NOT NULL,
            reference TEXT NOT NULL,
            statistic TEXT NOT NULL,
            value REAL
          );
          CREATE INDEX inputs_run ON inputs(run_id);
          CREATE INDEX parameters_run ON parameters(run_id);
          CREATE INDEX results_run ON results(run_id);
          CREATE INDEX predictions_run ON predictions(run_id);
          CREATE INDEX error_summaries_run ON error_summaries(run_id);
          """)
    }
    migrator.registerMigration("v2-tracks-activities-epochs-references-surveys") { db in
      try db.execute(
        sql: """
          CREATE TABLE tracks (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            path TEXT NOT NULL, points INTEGER NOT NULL, start_time TEXT, end_time TEXT,
            duration_s REAL, distance_m REAL NOT NULL
          );
          CREATE TABLE activities (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            track_path TEXT NOT NULL, activity INTEGER NOT NULL, mode TEXT NOT NULL, start_time TEXT, end_time TEXT,
            distance_m REAL NOT NULL, duration_s REAL NOT NULL, model TEXT NOT NULL, energy_kcal REAL, co2_kg REAL
          );
          CREATE TABLE epochs (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            source TEXT NOT NULL, epoch_start TEXT NOT NULL, epoch_s REAL NOT NULL, metric TEXT NOT NULL,
            value REAL, unit TEXT NOT NULL
          );
          CREATE TABLE reference_values (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            reference TEXT NOT NULL, case_key TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL
          );
          CREATE TABLE survey_results (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            survey TEXT NOT NULL, question TEXT NOT NULL, answer TEXT NOT NULL, count REAL, percentage REAL,
            note TEXT NOT NULL
          );
          CREATE INDEX tracks_run ON tracks(run_id);
          CREATE INDEX activities_run ON activities(run_id);
          CREATE INDEX epochs_run ON epochs(run_id);
          CREATE INDEX reference_values_run ON reference_values(run_id);
          CREATE INDEX survey_results_run ON survey_results(run_id);
          """)
    }
    migrator.registerMigration("v3-diagnostics") { db in
      try db.execute(
        sql: """
          CREATE TABLE diagnostics (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            location TEXT, severity TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL
          );
          CREATE INDEX diagnostics_run ON diagnostics(run_id);
          """)
    }
    // Error statistics name the statistic alone; the unit has its column.
    // Older rows keep their names (unit in the name) and an empty unit.
    migrator.registerMigration("v4-error-summary-units") { db in
      try db.execute(sql: "ALTER TABLE error_summaries ADD COLUMN unit TEXT NOT NULL DEFAULT ''")
    }
    // Statistics in words (the form of the limits of agreement, how each
    // interval was computed) beside the numbers.
    migrator.registerMigration("v5-error-summary-text") { db in
      try db.execute(sql: "ALTER TABLE error_summaries ADD COLUMN text TEXT")
    }
    // Trips (start, end, modes in order, distance, pauses) and the places
    // of the stays between them, as PALMS defines both.
    migrator.registerMigration("v6-trips-places") { db in
      try db.execute(
        sql: """
          CREATE TABLE trips (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            track_path TEXT NOT NULL, trip INTEGER NOT NULL, start_time TEXT NOT NULL, end_time TEXT NOT NULL,
            modes TEXT NOT NULL, distance_m REAL NOT NULL, duration_s REAL NOT NULL, pauses INTEGER NOT NULL
          );
          CREATE TABLE places (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            place INTEGER NOT NULL, latitude_deg REAL NOT NULL, longitude_deg REAL NOT NULL,
            visits INTEGER NOT NULL, duration_s REAL NOT NULL
          );
          CREATE INDEX trips_run ON trips(run_id);
          CREATE INDEX places_run ON places(run_id);
          """)
    }
    // A recording's epochs one row each, with a column per value and no
    // file name (its run names it): the long rows (file, start, length,
    // metric, value, unit) took 3 MB a week of minutes. Earlier rows of
    // the accelerometer commands move here, one row per epoch; a run whose
    // epochs name more than one file keeps its long rows.
    migrator.registerMigration("v7-accel-epochs") { db in
      let accelRuns = """
        run_id IN (SELECT e.run_id FROM epochs e JOIN runs r ON r.id = e.run_id
          WHERE r.command LIKE 'accel %' OR r.command LIKE 'batch accelerometer %'
          GROUP BY e.run_id HAVING COUNT(DISTINCT e.source) = 1)
        AND metric IN ('enmo', 'mad', 'steps', 'counts_axis1')
        """
      try db.execute(
        sql: """
          CREATE TABLE accel_epochs (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            epoch_start TEXT NOT NULL, epoch_s REAL NOT NULL,
            enmo_mg REAL, mad_mg REAL, steps INTEGER, counts_axis1 REAL
          );
          CREATE INDEX accel_epochs_run ON accel_epochs(run_id);
          INSERT INTO accel_epochs (run_id, epoch_start, epoch_s, enmo_mg, mad_mg, steps, counts_axis1)
            SELECT run_id, epoch_start, epoch_s,
              MAX(CASE metric WHEN 'enmo' THEN value END), MAX(CASE metric WHEN 'mad' THEN value END),
              CAST(MAX(CASE metric WHEN 'steps' THEN value END) AS INTEGER),
              MAX(CASE metric WHEN 'counts_axis1' THEN value END)
            FROM epochs WHERE \(accelRuns)
            GROUP BY run_id, epoch_start, epoch_s ORDER BY MIN(rowid);
          DELETE FROM epochs WHERE \(accelRuns);
          """)
    }
    // One naming rule for stored metrics: the name without its unit, the
    // unit in its own column (`duration_s` in `s` becomes `duration`,
    // `grade_mean_pct` in `%` becomes `grade_mean`). A result or epoch row
    // whose name ends in its own unit's printed suffix loses the suffix;
    // values and units are untouched. Error statistics stored before v4
    // (the unit in the name, an empty unit) take their unit from the
    // suffix (`bias_kcal_per_min` becomes `bias` in `kcal/min`). The pairs
    // are written out as they stood when the rule was applied, so the
    // migration does not change when the units do.
    migrator.registerMigration("v8-metric-names") { db in
      let suffixes: [(unit: String, suffix: String)] = [
        ("m", "_m"), ("s", "_s"), ("min", "_min"), ("h", "_h"), ("kcal", "_kcal"), ("kJ", "_kj"), ("W", "_w"),
        ("kg", "_kg"), ("m/s", "_mps"), ("%", "_pct"), ("bpm", "_bpm"), ("Hz", "_hz"), ("mg", "_mg"),
        ("g", "_g"), ("g/C", "_g_per_c"), ("kcal/min", "_kcal_per_min"), ("mL/kg/min", "_ml_kg_min"),
      ]
      for (unit, suffix) in suffixes {
        for table in ["results", "epochs"] {
          try db.execute(
            sql: """
              UPDATE \(table) SET metric = substr(metric, 1, length(metric) - ?)
              WHERE unit = ? AND length(metric) > ? AND substr(metric, -?) = ?
              """, arguments: [suffix.count, unit, suffix.count, suffix.count, suffix])
        }
      }
      let statisticSuffixes: [(unit: String, suffix: String)] = [
        ("kcal/min", "_kcal_per_min"), ("kcal", "_kcal"), ("W", "_w"), ("%", "_pct"),
      ]
      for (unit, suffix) in statisticSuffixes {
        try db.execute(
          sql: """
            UPDATE error_summaries SET statistic = substr(statistic, 1, length(statistic) - ?), unit = ?
            WHERE unit = '' AND length(statistic) > ? AND substr(statistic, -?) = ?
            """, arguments: [suffix.count, unit, suffix.count, suffix.count, suffix])
      }
    }
    // Names that v8's rule could not reach, now that printed and stored
    // come from one declaration. A model's energy of `accel days`, `batch` and
    // `accel energy` was stored under the model's identifier
    // (`energy_met-intensity`) and printed with underscores
    // (`met_intensity_kcal`): now `energy_met_intensity` stored,
    // `energy_met_intensity_kcal` printed. `power curve` stored its curve
    // and W' balance minima under other names than it printed (`power_w`,
    // `integral_min_j`). The questionnaires of `survey` stored their
    // statistics under a prefix they did not print.
    migrator.registerMigration("v9-result-names") { db in
      // `survey sus` and `survey asq` printed `mean` and stored `sus_mean`
      // (`asq_mean`): the command says which questionnaire.
      for (command, prefix) in [("survey sus", "sus_"), ("survey asq", "asq_")] {
        try db.execute(
          sql: """
            UPDATE results SET metric = substr(metric, ?)
            WHERE substr(metric, 1, ?) = ? AND run_id IN (SELECT id FROM runs WHERE command LIKE ?)
            """, arguments: [prefix.count + 1, prefix.count, prefix, command + "%"])
      }
      for (old, new) in [
        ("mean_maximal_power", "power"), ("w_prime_balance_integral_min", "integral_min"),
        ("w_prime_balance_differential_min", "differential_min"),
      ] {
        try db.execute(
          sql: """
            UPDATE results SET metric = ?
            WHERE metric = ? AND run_id IN (SELECT id FROM runs WHERE command LIKE 'power curve%')
            """, arguments: [new, old])
      }
      try db.execute(
        sql: """
          UPDATE results SET metric = replace(metric, '-', '_')
          WHERE unit = 'kcal' AND metric LIKE 'energy!_%' ESCAPE '!' AND instr(metric, '-') > 0
            AND run_id IN (
              SELECT id FROM runs
              WHERE command LIKE 'accel days%' OR command LIKE 'accel energy%'
                OR command LIKE 'batch accelerometer%')
          """)
    }
    return migrator
  }

  /// Stores a run, replacing an earlier run with the same key, in one
  /// transaction. Returns the run's row id. Every file the run names is
  /// stored under its one name (`RunRecord.withStoredPaths`).
  @discardableResult
  package func record(_ run: RunRecord) throws -> Int64 {
    // Named and laid out as rows before the write lock is taken.
    let prepared = try PreparedRun(run.withStoredPaths())
    return try Self.retrying(path: path, doing: "store run") {
      try queue.write { db in try prepared.insert(into: db) }
    }
  }

  /// Copies every run of `others` into this store in one transaction,
  /// replacing runs with the same key: merging twice changes nothing, and a
  /// failed merge leaves the store as it was. Returns the runs copied.
  @discardableResult
  package func merge(_ others: [ResultsStore]) throws -> Int {
    // One run at a time from each store, so the merge of a study's shards
    // holds one run, never the study.
    try Self.retrying(path: path, doing: "merge") {
      try queue.write { db in
        var copied = 0
        for other in others {
          try other.forEachRun { run in
            _ = try PreparedRun(run).insert(into: db)
            copied += 1
          }
        }
        return copied
      }
    }
  }

  /// A stored run of one file: a run whose command ends with the name of
  /// one of its inputs (`batch track /study/a.gpx`), that input's size
  /// and digest, and the value of one named parameter of the run.
  package struct FileRun: Sendable, Hashable {
    package var command: String
    package var input: InputFingerprint
    package var parameter: String?
  }

  /// The runs of one file whose command is one of `commands` followed by
  /// the file's stored name, with the value of `parameter` (nil where the
  /// run has none), by stored name. One query, however many runs.
  package func fileRuns(commands: [String], parameter: String) throws -> [String: [FileRun]] {
    guard !commands.isEmpty else { return [:] }
    let matches = commands.map { _ in "r.command = ? || ' ' || i.path" }.joined(separator: " OR ")
    return try reading { db in
      var found: [String: [FileRun]] = [:]
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT r.command, i.path, i.size_bytes, i.sha256,
            (SELECT p.value FROM parameters p WHERE p.run_id = r.id AND p.name = ?) AS parameter
          FROM runs r JOIN inputs i ON i.run_id = r.id
          WHERE \(matches)
          """, arguments: StatementArguments([parameter] + commands))
      while let row = try rows.next() {
        let input = InputFingerprint(path: row["path"], sizeBytes: row["size_bytes"], sha256: row["sha256"])
        found[input.path, default: []].append(
          FileRun(command: row["command"], input: input, parameter: row["parameter"]))
      }
      return found
    }
  }

  /// Every run with all its rows, in the order stored.
  package func allRuns() throws -> [RunRecord] {
    var runs: [RunRecord] = []
    try forEachRun { runs.append($0) }
    return runs
  }

  /// Each run with all its rows, in the order stored, read one at a time.
  package func forEachRun(_ body: (RunRecord) throws -> Void) throws {
    try reading { db in
      for stored in try StoredRun.order(StoredRun.Field.id).fetchAll(db) {
        let id = stored.id
        func rows<Row: RunChildRecord>(_: Row.Type) throws -> [Row] {
          guard presentTables.contains(Row.databaseTableName) else { return [] }
          return try Row.filter(Column("run_id") == id).order(Column.rowID).fetchAll(db)
        }
        var run = RunRecord(
          command: stored.command, energyLabVersion: stored.energyLabVersion, recordedAt: stored.recordedAt,
          inputs: try rows(InputRecord.self).map(\.fingerprint),
          parameters: try rows(ParameterRecord.self).map(\.parameter))
        run.runKey = stored.runKey
        run.results = try rows(ResultRow.self)
        run.predictions = try rows(PredictionRow.self)
        run.errorSummaries = try rows(ErrorSummaryRow.self)
        run.tracks = try rows(TrackRow.self)
        run.activities = try rows(ActivityRow.self)
        run.epochs = try rows(EpochRow.self)
        run.accelEpochs = try rows(AccelEpochRow.self)
        run.referenceValues = try rows(ReferenceValueRow.self)
        run.surveyResults = try rows(SurveyResultRow.self)
        run.diagnostics = try rows(DiagnosticRow.self)
        run.trips = try rows(TripRow.self)
        run.places = try rows(PlaceRow.self)
        try body(run)
      }
    }
  }

  /// The stored results as text lines, runs in key order and every row of
  /// each in order, without row ids or recording times: two stores with
  /// the same lines hold the same results, however they were filled.
  package func canonicalLines() throws -> [String] {
    let tables = Self.tables.filter { $0 != "runs" && presentTables.contains($0) }
    return try reading { db in
      var lines: [String] = []
      for run in try Row.fetchAll(
        db, sql: "SELECT id, run_key, command, energylab_version FROM runs ORDER BY run_key")
      {
        let id: Int64 = run["id"]
        lines.append(
          "run \(run["run_key"] as String) \(run["command"] as String) \(run["energylab_version"] as String)")
        for table in tables {
          let columns = try db.columns(in: table).map(\.name).filter { $0 != "run_id" }
          for row in try Row.fetchAll(
            db,
            sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE run_id = ? ORDER BY rowid",
            arguments: [id])
          {
            lines.append(
              "  \(table) "
                + columns.map { c -> String in
                  let value: DatabaseValue = row[c]
                  switch value.storage {
                  case .null: return "NULL"
                  case .int64(let i): return String(i)
                  case .double(let d): return String(d)
                  case .string(let text): return text.debugDescription
                  case .blob(let b): return "<\(b.count) bytes>"
                  }
                }.joined(separator: " | "))
          }
        }
      }
      return lines
    }
  }

  /// Row counts per table (the tables this file holds) and the applied
  /// migrations.
  package func info() throws -> StoreInfo {
    try reading { db in
      let migrations = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
      var counts: [(String, Int)] = []
      for table in Self.tables where presentTables.contains(table) {
        counts.append((table, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0))
      }
      return StoreInfo(path: path, schemaMigrations: migrations, rowCounts: counts)
    }
  }

  /// Every row of `table` as column name -> value text (nil for NULL), in
  /// insertion order.
  package func rows(of table: String) throws -> (columns: [String], rows: [[String?]]) {
    guard Self.tables.contains(table) else {
      throw StoreError(.unknownTable, path: path, action: "export a table", tables: [table])
    }
    guard presentTables.contains(table) else {
      throw StoreError(.tableAbsent, path: path, action: "export a table", tables: [table])
    }
    return try reading { db in
      let statement = try db.makeStatement(sql: "SELECT * FROM \(table) ORDER BY rowid")
      let columns = statement.columnNames
      let rows = try Row.fetchAll(statement).map { row in
        columns.map { column -> String? in
          let value: DatabaseValue = row[column]
          switch value.storage {
          case .null: return nil
          case .int64(let i): return String(i)
          case .double(let d): return Fixed.shortest(d)
          case .string(let s): return s
          case .blob(let b): return "<\(b.count) bytes>"
          }
        }
      }
      return (columns, rows)
    }
  }

  /// Runs `PRAGMA integrity_check`; "ok" when the file is sound.
  package func integrityCheck() throws -> String {
    try reading { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
  }

  /// What the store lacks of the schema its applied migrations make: each
  /// table missing, and each column missing from a table, named; empty
  /// when the store holds them all. The expected schema is made by running
  /// the same migrations on an empty database in memory, so it is stated
  /// once, in the migrations.
  package func schemaCheck() throws -> [String] {
    let (applied, present) = try reading { db -> ([String], [String: [String]]) in
      let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
      var present: [String: [String]] = [:]
      for table in Self.tables where try db.tableExists(table) {
        present[table] = try db.columns(in: table).map(\.name)
      }
      return (applied, present)
    }
    guard let last = Self.migrator.migrations.last(where: applied.contains) else { return [] }
    let expected = try DatabaseQueue()
    try Self.migrator.migrate(expected, upTo: last)
    var problems: [String] = []
    try expected.read { db in
      for table in Self.tables where try db.tableExists(table) {
        guard let columns = present[table] else {
          problems.append("table \(table) is missing")
          continue
        }
        for column in try db.columns(in: table).map(\.name) where !columns.contains(column) {
          problems.append("table \(table) has no column \(column)")
        }
      }
    }
    return problems
  }

  /// A read of the store, its database errors told with the file's name.
  private func reading<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try queue.read(body)
    } catch let error as DatabaseError {
      throw StoreError(.cannotRead, path: path, action: "read results database", error: error)
    }
  }
}
