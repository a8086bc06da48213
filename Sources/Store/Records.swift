import EnergyLabCore
import GRDB

// One GRDB record type per table: each knows its table and its columns, so
// inserting and reading a row name every column once, here.

/// A row of a table that belongs to a run: every column but `run_id`.
protocol RunChildRecord: FetchableRecord, TableRecord {
  func encode(to container: inout PersistenceContainer)
}

/// A row's columns, for `PreparedRun`.
private struct ChildColumns<Row: RunChildRecord>: EncodableRecord {
  let row: Row
  func encode(to container: inout PersistenceContainer) { row.encode(to: &container) }
}

/// A run's rows as statements and their arguments, made before the write
/// lock is taken: under it only the statements run (each prepared once per
/// connection, each row's arguments bound as they are), so the workers of
/// `batch` wait for each other only as long as SQLite writes.
struct PreparedRun {
  var runKey: String
  /// `run_key`, `command`, `energylab_version`, `recorded_at`.
  var run: StatementArguments
  /// Per table with rows, in the order stored: the insert, and each row's
  /// arguments (the run's key, which finds its `run_id`, then the columns).
  var tables: [(sql: String, rows: [StatementArguments])] = []

  init(_ run: RunRecord) throws {
    runKey = run.runKey
    self.run = [run.runKey, run.command, run.energyLabVersion, run.recordedAt]
    try add(run.inputs.map(InputRecord.init))
    try add(run.parameters.map(ParameterRecord.init))
    try add(run.results)
    try add(run.predictions)
    try add(run.tracks)
    try add(run.activities)
    try add(run.epochs)
    try add(run.accelEpochs)
    try add(run.referenceValues)
    try add(run.surveyResults)
    try add(run.errorSummaries)
    try add(run.diagnostics)
    try add(run.trips)
    try add(run.places)
  }

  private mutating func add<Row: RunChildRecord>(_ rows: [Row]) throws {
    guard let first = rows.first else { return }
    let columns = try ChildColumns(row: first).databaseDictionary.keys.sorted()
    let sql =
      "INSERT INTO \(Row.databaseTableName) (run_id, \(columns.joined(separator: ", "))) VALUES ((SELECT id FROM runs WHERE run_key = ?)\(String(repeating: ", ?", count: columns.count)))"
    let key = runKey.databaseValue
    tables.append(
      (
        sql,
        try rows.map { row in
          let values = try ChildColumns(row: row).databaseDictionary
          return StatementArguments([key] + columns.map { values[$0] ?? .null })
        }
      ))
  }

  /// Replaces the run with the same key by this one; returns its row id.
  func insert(into db: Database) throws -> Int64 {
    try db.cachedStatement(sql: "DELETE FROM runs WHERE run_key = ?").execute(arguments: [runKey])
    try db.cachedStatement(
      sql: "INSERT INTO runs (run_key, command, energylab_version, recorded_at) VALUES (?, ?, ?, ?)"
    ).execute(arguments: run)
    let id = db.lastInsertedRowID
    for (sql, rows) in tables {
      let statement = try db.cachedStatement(sql: sql)
      for arguments in rows {
        // Made to the statement's own count of arguments above.
        statement.setUncheckedArguments(arguments)
        try statement.execute()
      }
    }
    return id
  }
}

/// NULL for a value that is not a finite number: SQLite has no NaN.
private func finite(_ x: Double?) -> Double? { x.flatMap { $0.isFinite ? $0 : nil } }

/// The `runs` table.
struct StoredRun: FetchableRecord, MutablePersistableRecord {
  static let databaseTableName = "runs"
  var id: Int64?
  var runKey: String
  var command: String
  var energyLabVersion: String
  var recordedAt: String?

  init(_ run: RunRecord) {
    runKey = run.runKey
    command = run.command
    energyLabVersion = run.energyLabVersion
    recordedAt = run.recordedAt
  }

  init(row: Row) throws {
    id = row["id"]
    runKey = row["run_key"]
    command = row["command"]
    energyLabVersion = row["energylab_version"]
    recordedAt = row["recorded_at"]
  }

  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["run_key"] = runKey
    container["command"] = command
    container["energylab_version"] = energyLabVersion
    container["recorded_at"] = recordedAt
  }

  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The `inputs` table.
struct InputRecord: RunChildRecord {
  static let databaseTableName = "inputs"
  var fingerprint: InputFingerprint
  init(_ fingerprint: InputFingerprint) { self.fingerprint = fingerprint }
  init(row: Row) throws {
    fingerprint = InputFingerprint(path: row["path"], sizeBytes: row["size_bytes"], sha256: row["sha256"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["path"] = fingerprint.path
    container["size_bytes"] = fingerprint.sizeBytes
    container["sha256"] = fingerprint.sha256
  }
}

/// The `parameters` table.
struct ParameterRecord: RunChildRecord {
  static let databaseTableName = "parameters"
  var parameter: NamedParameter
  init(_ parameter: NamedParameter) { self.parameter = parameter }
  init(row: Row) throws {
    parameter = NamedParameter(name: row["name"], value: row["value"], meaning: row["meaning"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["name"] = parameter.name
    container["value"] = parameter.value
    container["meaning"] = parameter.meaning
  }
}

extension ResultRow: RunChildRecord {
  public static let databaseTableName = "results"
  public init(row: Row) throws {
    self.init(subject: row["subject"], metric: row["metric"], value: row["value"], unit: row["unit"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["subject"] = subject
    container["metric"] = metric
    container["value"] = finite(value)
    container["unit"] = unit
  }
}

extension PredictionRow: RunChildRecord {
  public static let databaseTableName = "predictions"
  public init(row: Row) throws {
    self.init(
      model: row["model"], reference: row["reference"], caseKey: row["case_key"], predicted: row["predicted"],
      referenceValue: row["reference_value"], unit: row["unit"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["model"] = model
    container["reference"] = reference
    container["case_key"] = caseKey
    container["predicted"] = predicted
    container["reference_value"] = referenceValue
    container["unit"] = unit
  }
}

extension ErrorSummaryRow: RunChildRecord {
  public static let databaseTableName = "error_summaries"
  public init(row: Row) throws {
    self.init(
      model: row["model"], reference: row["reference"], statistic: row["statistic"], value: row["value"],
      // A database opened read-only before its migration has no unit column.
      unit: row.hasColumn("unit") ? row["unit"] : "", text: row.hasColumn("text") ? row["text"] : nil)
  }
  func encode(to container: inout PersistenceContainer) {
    container["model"] = model
    container["reference"] = reference
    container["statistic"] = statistic
    container["value"] = finite(value)
    container["unit"] = unit
    container["text"] = text
  }
}

extension TrackRow: RunChildRecord {
  public static let databaseTableName = "tracks"
  public init(row: Row) throws {
    self.init(
      path: row["path"], points: row["points"], startTime: row["start_time"], endTime: row["end_time"],
      durationSeconds: row["duration_s"], distanceMeters: row["distance_m"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["path"] = path
    container["points"] = points
    container["start_time"] = startTime
    container["end_time"] = endTime
    container["duration_s"] = finite(durationSeconds)
    container["distance_m"] = distanceMeters
  }
}

extension ActivityRow: RunChildRecord {
  public static let databaseTableName = "activities"
  public init(row: Row) throws {
    self.init(
      trackPath: row["track_path"], index: row["activity"], mode: row["mode"], startTime: row["start_time"],
      endTime: row["end_time"], distanceMeters: row["distance_m"], durationSeconds: row["duration_s"],
      model: row["model"], energyKilocalories: row["energy_kcal"], co2Kilograms: row["co2_kg"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["track_path"] = trackPath
    container["activity"] = index
    container["mode"] = mode
    container["start_time"] = startTime
    container["end_time"] = endTime
    container["distance_m"] = distanceMeters
    container["duration_s"] = durationSeconds
    container["model"] = model
    container["energy_kcal"] = finite(energyKilocalories)
    container["co2_kg"] = finite(co2Kilograms)
  }
}

extension TripRow: RunChildRecord {
  public static let databaseTableName = "trips"
  public init(row: Row) throws {
    self.init(
      trackPath: row["track_path"], index: row["trip"], startTime: row["start_time"],
      endTime: row["end_time"],
      modes: row["modes"], distanceMeters: row["distance_m"], durationSeconds: row["duration_s"],
      pauses: row["pauses"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["track_path"] = trackPath
    container["trip"] = index
    container["start_time"] = startTime
    container["end_time"] = endTime
    container["modes"] = modes
    container["distance_m"] = distanceMeters
    container["duration_s"] = durationSeconds
    container["pauses"] = pauses
  }
}

extension PlaceRow: RunChildRecord {
  public static let databaseTableName = "places"
  public init(row: Row) throws {
    self.init(
      index: row["place"], latitudeDegrees: row["latitude_deg"], longitudeDegrees: row["longitude_deg"],
      visits: row["visits"], durationSeconds: row["duration_s"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["place"] = index
    container["latitude_deg"] = latitudeDegrees
    container["longitude_deg"] = longitudeDegrees
    container["visits"] = visits
    container["duration_s"] = durationSeconds
  }
}

extension EpochRow: RunChildRecord {
  public static let databaseTableName = "epochs"
  public init(row: Row) throws {
    self.init(
      source: row["source"], epochStart: row["epoch_start"], epochSeconds: row["epoch_s"],
      metric: row["metric"],
      value: row["value"], unit: row["unit"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["source"] = source
    container["epoch_start"] = epochStart
    container["epoch_s"] = epochSeconds
    container["metric"] = metric
    container["value"] = finite(value)
    container["unit"] = unit
  }
}

extension AccelEpochRow: RunChildRecord {
  public static let databaseTableName = "accel_epochs"
  public init(row: Row) throws {
    self.init(
      epochStart: row["epoch_start"], epochSeconds: row["epoch_s"], enmoMilliG: row["enmo_mg"],
      madMilliG: row["mad_mg"], steps: row["steps"], countsAxis1: row["counts_axis1"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["epoch_start"] = epochStart
    container["epoch_s"] = epochSeconds
    container["enmo_mg"] = finite(enmoMilliG)
    container["mad_mg"] = finite(madMilliG)
    container["steps"] = steps
    container["counts_axis1"] = finite(countsAxis1)
  }
}

extension ReferenceValueRow: RunChildRecord {
  public static let databaseTableName = "reference_values"
  public init(row: Row) throws {
    self.init(reference: row["reference"], caseKey: row["case_key"], value: row["value"], unit: row["unit"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["reference"] = reference
    container["case_key"] = caseKey
    container["value"] = value
    container["unit"] = unit
  }
}

extension SurveyResultRow: RunChildRecord {
  public static let databaseTableName = "survey_results"
  public init(row: Row) throws {
    self.init(
      survey: row["survey"], question: row["question"], answer: row["answer"], count: row["count"],
      percentage: row["percentage"], note: row["note"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["survey"] = survey
    container["question"] = question
    container["answer"] = answer
    container["count"] = finite(count)
    container["percentage"] = finite(percentage)
    container["note"] = note
  }
}

extension DiagnosticRow: RunChildRecord {
  public static let databaseTableName = "diagnostics"
  public init(row: Row) throws {
    self.init(
      location: row["location"], severity: row["severity"], code: row["code"], message: row["message"])
  }
  func encode(to container: inout PersistenceContainer) {
    container["location"] = location
    container["severity"] = severity
    container["code"] = code
    container["message"] = message
  }
}
