import EnergyLabCore
import GRDB

// One GRDB record type per table. Each declares its columns once, as the
// cases of its `Field`: reading a row and writing one go through those
// cases (a column declared but not written does not compile), and a test
// holds the declarations to the tables the migrations make.

/// A row of a table that belongs to a run: every column but `run_id`.
protocol RunChildRecord: FetchableRecord, TableRecord {
  associatedtype Field: ColumnExpression, CaseIterable, RawRepresentable where Field.RawValue == String
  /// The value stored in `column`.
  func value(of column: Field) -> (any DatabaseValueConvertible)?
}

extension RunChildRecord {
  /// The columns' names, in declaration order.
  static var columnNames: [String] { Field.allCases.map(\.rawValue) }
}

/// A run's rows as statements and their arguments, made before the write
/// lock is taken: under it only the statements run (each prepared once per
/// connection, each row's arguments bound as they are), so the workers of
/// `batch` wait for each other only as long as SQLite writes.
struct PreparedRun {
  var runKey: String
  /// The run's columns, `StoredRun.written`.
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
    guard !rows.isEmpty else { return }
    let columns = Array(Row.Field.allCases)
    let sql =
      "INSERT INTO \(Row.databaseTableName) (run_id, \(Row.columnNames.joined(separator: ", "))) VALUES ((SELECT id FROM runs WHERE run_key = ?)\(String(repeating: ", ?", count: columns.count)))"
    let key = runKey.databaseValue
    tables.append((sql, rows.map { row in StatementArguments([key] + columns.map { row.value(of: $0) }) }))
  }

  /// Replaces the run with the same key by this one; returns its row id.
  func insert(into db: Database) throws -> Int64 {
    try db.cachedStatement(sql: "DELETE FROM runs WHERE run_key = ?").execute(arguments: [runKey])
    try db.cachedStatement(
      sql:
        "INSERT INTO runs (\(StoredRun.written.map(\.rawValue).joined(separator: ", "))) VALUES (?, ?, ?, ?)"
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

/// The `runs` table, as read back (a run is written by `PreparedRun`).
struct StoredRun: FetchableRecord, TableRecord {
  static let databaseTableName = "runs"
  enum Field: String, ColumnExpression, CaseIterable {
    case id, runKey = "run_key", command, energyLabVersion = "energylab_version", recordedAt = "recorded_at"
  }
  /// The columns a new run writes (the id is SQLite's), in the order of
  /// `PreparedRun.run`.
  static let written: [Field] = [.runKey, .command, .energyLabVersion, .recordedAt]
  var id: Int64
  var runKey: String
  var command: String
  var energyLabVersion: String
  var recordedAt: String?

  init(row: Row) throws {
    id = row[Field.id]
    runKey = row[Field.runKey]
    command = row[Field.command]
    energyLabVersion = row[Field.energyLabVersion]
    recordedAt = row[Field.recordedAt]
  }
}

/// The `inputs` table.
struct InputRecord: RunChildRecord {
  static let databaseTableName = "inputs"
  enum Field: String, ColumnExpression, CaseIterable { case path, sizeBytes = "size_bytes", sha256 }
  var fingerprint: InputFingerprint
  init(_ fingerprint: InputFingerprint) { self.fingerprint = fingerprint }
  init(row: Row) throws {
    fingerprint = InputFingerprint(
      path: row[Field.path], sizeBytes: row[Field.sizeBytes], sha256: row[Field.sha256])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .path: fingerprint.path
    case .sizeBytes: fingerprint.sizeBytes
    case .sha256: fingerprint.sha256
    }
  }
}

/// The `parameters` table.
struct ParameterRecord: RunChildRecord {
  static let databaseTableName = "parameters"
  enum Field: String, ColumnExpression, CaseIterable { case name, value, meaning }
  var parameter: NamedParameter
  init(_ parameter: NamedParameter) { self.parameter = parameter }
  init(row: Row) throws {
    parameter = NamedParameter(name: row[Field.name], value: row[Field.value], meaning: row[Field.meaning])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .name: parameter.name
    case .value: parameter.value
    case .meaning: parameter.meaning
    }
  }
}

extension ResultRow: RunChildRecord {
  package static let databaseTableName = "results"
  enum Field: String, ColumnExpression, CaseIterable { case subject, metric, value, unit }
  package init(row: Row) throws {
    self.init(
      subject: row[Field.subject], metric: row[Field.metric], value: row[Field.value],
      unit: row[Field.unit])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .subject: subject
    case .metric: metric
    case .value: finite(value)
    case .unit: unit
    }
  }
}

extension PredictionRow: RunChildRecord {
  package static let databaseTableName = "predictions"
  enum Field: String, ColumnExpression, CaseIterable {
    case model, reference, caseKey = "case_key", predicted, referenceValue = "reference_value", unit
  }
  package init(row: Row) throws {
    self.init(
      model: row[Field.model], reference: row[Field.reference], caseKey: row[Field.caseKey],
      predicted: row[Field.predicted], referenceValue: row[Field.referenceValue], unit: row[Field.unit])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .model: model
    case .reference: reference
    case .caseKey: caseKey
    case .predicted: predicted
    case .referenceValue: referenceValue
    case .unit: unit
    }
  }
}

extension ErrorSummaryRow: RunChildRecord {
  package static let databaseTableName = "error_summaries"
  enum Field: String, ColumnExpression, CaseIterable { case model, reference, statistic, value, unit, text }
  package init(row: Row) throws {
    self.init(
      model: row[Field.model], reference: row[Field.reference], statistic: row[Field.statistic],
      value: row[Field.value],
      // A database opened read-only before its migration has no unit or
      // text column.
      unit: row.hasColumn(Field.unit.rawValue) ? row[Field.unit] : "",
      text: row.hasColumn(Field.text.rawValue) ? row[Field.text] : nil)
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .model: model
    case .reference: reference
    case .statistic: statistic
    case .value: finite(value)
    case .unit: unit
    case .text: text
    }
  }
}

extension TrackRow: RunChildRecord {
  package static let databaseTableName = "tracks"
  enum Field: String, ColumnExpression, CaseIterable {
    case path, points, startTime = "start_time", endTime = "end_time", durationSeconds = "duration_s"
    case distanceMeters = "distance_m"
  }
  package init(row: Row) throws {
    self.init(
      path: row[Field.path], points: row[Field.points], startTime: row[Field.startTime],
      endTime: row[Field.endTime], durationSeconds: row[Field.durationSeconds],
      distanceMeters: row[Field.distanceMeters])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .path: path
    case .points: points
    case .startTime: startTime
    case .endTime: endTime
    case .durationSeconds: finite(durationSeconds)
    case .distanceMeters: distanceMeters
    }
  }
}

extension ActivityRow: RunChildRecord {
  package static let databaseTableName = "activities"
  enum Field: String, ColumnExpression, CaseIterable {
    case trackPath = "track_path", index = "activity", mode, startTime = "start_time", endTime = "end_time"
    case distanceMeters = "distance_m", durationSeconds = "duration_s", model
    case energyKilocalories = "energy_kcal", co2Kilograms = "co2_kg"
  }
  package init(row: Row) throws {
    self.init(
      trackPath: row[Field.trackPath], index: row[Field.index], mode: row[Field.mode],
      startTime: row[Field.startTime], endTime: row[Field.endTime],
      distanceMeters: row[Field.distanceMeters], durationSeconds: row[Field.durationSeconds],
      model: row[Field.model], energyKilocalories: row[Field.energyKilocalories],
      co2Kilograms: row[Field.co2Kilograms])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .trackPath: trackPath
    case .index: index
    case .mode: mode
    case .startTime: startTime
    case .endTime: endTime
    case .distanceMeters: distanceMeters
    case .durationSeconds: durationSeconds
    case .model: model
    case .energyKilocalories: finite(energyKilocalories)
    case .co2Kilograms: finite(co2Kilograms)
    }
  }
}

extension TripRow: RunChildRecord {
  package static let databaseTableName = "trips"
  enum Field: String, ColumnExpression, CaseIterable {
    case trackPath = "track_path", index = "trip", startTime = "start_time", endTime = "end_time", modes
    case distanceMeters = "distance_m", durationSeconds = "duration_s", pauses
  }
  package init(row: Row) throws {
    self.init(
      trackPath: row[Field.trackPath], index: row[Field.index], startTime: row[Field.startTime],
      endTime: row[Field.endTime], modes: row[Field.modes], distanceMeters: row[Field.distanceMeters],
      durationSeconds: row[Field.durationSeconds], pauses: row[Field.pauses])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .trackPath: trackPath
    case .index: index
    case .startTime: startTime
    case .endTime: endTime
    case .modes: modes
    case .distanceMeters: distanceMeters
    case .durationSeconds: durationSeconds
    case .pauses: pauses
    }
  }
}

extension PlaceRow: RunChildRecord {
  package static let databaseTableName = "places"
  enum Field: String, ColumnExpression, CaseIterable {
    case index = "place", latitudeDegrees = "latitude_deg", longitudeDegrees = "longitude_deg", visits
    case durationSeconds = "duration_s"
  }
  package init(row: Row) throws {
    self.init(
      index: row[Field.index], latitudeDegrees: row[Field.latitudeDegrees],
      longitudeDegrees: row[Field.longitudeDegrees], visits: row[Field.visits],
      durationSeconds: row[Field.durationSeconds])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .index: index
    case .latitudeDegrees: latitudeDegrees
    case .longitudeDegrees: longitudeDegrees
    case .visits: visits
    case .durationSeconds: durationSeconds
    }
  }
}

extension EpochRow: RunChildRecord {
  package static let databaseTableName = "epochs"
  enum Field: String, ColumnExpression, CaseIterable {
    case source, epochStart = "epoch_start", epochSeconds = "epoch_s", metric, value, unit
  }
  package init(row: Row) throws {
    self.init(
      source: row[Field.source], epochStart: row[Field.epochStart], epochSeconds: row[Field.epochSeconds],
      metric: row[Field.metric], value: row[Field.value], unit: row[Field.unit])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .source: source
    case .epochStart: epochStart
    case .epochSeconds: epochSeconds
    case .metric: metric
    case .value: finite(value)
    case .unit: unit
    }
  }
}

extension AccelEpochRow: RunChildRecord {
  package static let databaseTableName = "accel_epochs"
  enum Field: String, ColumnExpression, CaseIterable {
    case epochStart = "epoch_start", epochSeconds = "epoch_s", enmoMilliG = "enmo_mg", madMilliG = "mad_mg"
    case steps, countsAxis1 = "counts_axis1"
  }
  package init(row: Row) throws {
    self.init(
      epochStart: row[Field.epochStart], epochSeconds: row[Field.epochSeconds],
      enmoMilliG: row[Field.enmoMilliG], madMilliG: row[Field.madMilliG], steps: row[Field.steps],
      countsAxis1: row[Field.countsAxis1])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .epochStart: epochStart
    case .epochSeconds: epochSeconds
    case .enmoMilliG: finite(enmoMilliG)
    case .madMilliG: finite(madMilliG)
    case .steps: steps
    case .countsAxis1: finite(countsAxis1)
    }
  }
}

extension ReferenceValueRow: RunChildRecord {
  package static let databaseTableName = "reference_values"
  enum Field: String, ColumnExpression, CaseIterable { case reference, caseKey = "case_key", value, unit }
  package init(row: Row) throws {
    self.init(
      reference: row[Field.reference], caseKey: row[Field.caseKey], value: row[Field.value],
      unit: row[Field.unit])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .reference: reference
    case .caseKey: caseKey
    case .value: value
    case .unit: unit
    }
  }
}

extension SurveyResultRow: RunChildRecord {
  package static let databaseTableName = "survey_results"
  enum Field: String, ColumnExpression, CaseIterable {
    case survey, question, answer, count, percentage, note
  }
  package init(row: Row) throws {
    self.init(
      survey: row[Field.survey], question: row[Field.question], answer: row[Field.answer],
      count: row[Field.count], percentage: row[Field.percentage], note: row[Field.note])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .survey: survey
    case .question: question
    case .answer: answer
    case .count: finite(count)
    case .percentage: finite(percentage)
    case .note: note
    }
  }
}

extension DiagnosticRow: RunChildRecord {
  package static let databaseTableName = "diagnostics"
  enum Field: String, ColumnExpression, CaseIterable { case location, severity, code, message }
  package init(row: Row) throws {
    self.init(
      location: row[Field.location], severity: row[Field.severity], code: row[Field.code],
      message: row[Field.message])
  }
  func value(of column: Field) -> (any DatabaseValueConvertible)? {
    switch column {
    case .location: location
    case .severity: severity
    case .code: code
    case .message: message
    }
  }
}
