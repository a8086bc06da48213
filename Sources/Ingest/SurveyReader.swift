import EnergyLabCore
import Foundation

/// Reads survey exports: Google Forms, Microsoft Forms, Qualtrics (three
/// header rows), SurveyMonkey (two header rows), LimeSurvey, and EnergyLab's
/// aggregate format for published results. The format is detected from the
/// header; metadata columns (times, ids, e-mail, IP) are dropped.
public struct SurveyReader: Sendable {
  /// Questions (id or text, or a part of the text) whose answers are several
  /// options in one cell, for exports that join them with a separator
  /// (Google Forms ", ", Qualtrics ","). Microsoft Forms' "a;b;" is
  /// recognised by itself.
  public var multiSelect: [String]
  /// The export's dialect when named (`plain`, `qualtrics`, ...); nil
  /// detects it, a plain respondent-per-row CSV being the fallback.
  public var dialect: SurveyDialect?
  /// Cells that mean "no answer" in a plain CSV (compared trimmed and
  /// case-insensitively); the empty cell always does.
  public var missingCodes: [String]
  /// The respondent id column of a plain CSV (name); nil looks for id,
  /// respondent_id, participant_id and the like.
  public var idColumn: String?
  /// The longest row accepted, in bytes (a row is a line, or several when a
  /// quoted answer holds line breaks): a longer one is an `InputError`,
  /// found by a first pass that holds one block of the file at a time, so
  /// an export with a 2 GB line is refused without reading it into memory.
  public var maximumRowBytes: Int

  /// 4 MiB, the limit of the accelerometer reader's lines.
  public static let defaultMaximumRowBytes = LineChunks.defaultMaximumLineBytes
  public static let defaultMissingCodes = ["NA", "N/A", "-99"]
  public static let dialects = SurveyDialect.allCases.map(\.rawValue)

  public init(
    multiSelect: [String] = [], dialect: SurveyDialect? = nil, missingCodes: [String] = defaultMissingCodes,
    idColumn: String? = nil, maximumRowBytes: Int = SurveyReader.defaultMaximumRowBytes
  ) {
    self.maximumRowBytes = maximumRowBytes
    self.multiSelect = multiSelect
    self.dialect = dialect
    self.missingCodes = missingCodes
    self.idColumn = idColumn
  }

  /// Every column Qualtrics has written that is not a question: current
  /// exports and the legacy (V1, V2, ...) ones, embedded quality fields
  /// included.
  static let qualtricsMetadata: Set<String> = [
    "StartDate", "EndDate", "Status", "IPAddress", "Progress", "Duration (in seconds)", "Finished",
    "RecordedDate",
    "ResponseId", "ResponseID", "RecipientLastName", "RecipientFirstName", "RecipientEmail",
    "ExternalReference",
    "ExternalDataReference", "LocationLatitude", "LocationLongitude", "LocationAccuracy",
    "DistributionChannel",
    "UserLanguage", "ResponseSet", "Name", "EmailAddress", "Q_RecaptchaScore", "Q_RelevantIDDuplicate",
    "Q_RelevantIDDuplicateScore", "Q_RelevantIDFraudScore", "Q_RelevantIDLastStartDate",
    "Q_BallotBoxStuffing",
    "Q_DuplicateRespondent", "Q_TotalDuration", "Q_URL", "Q_Language", "Q_CHL", "Q_AmbiguousTextPresent",
    "Q_AmbiguousTextQuestions", "Q_UnansweredPercentage", "Q_UnansweredQuestions", "Q_StraightliningCount",
    "Q_StraightliningPercentage", "Q_StraightliningQuestions",
  ]

  public static let aggregateHeader = ["question_id", "question", "n", "kind", "answer", "value", "note"]

  public func read(path: String) throws -> Survey {
    let data = try FileInput.read(
      path, expected: "a survey export (CSV)",
      maximumRowBytes: min(maximumRowBytes, FileInput.limits.maximumRowBytes))
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    // UTF-8 is read from the file's bytes in place: a large export is held
    // once while it is read.
    let survey: Survey? = try data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard UTF8Validation.isValid(bytes) else { return nil }
      // FileInput has checked the rows against this limit or a lower one.
      return try parse(bytes: bytes, source: path, name: name, rowsChecked: true)
    }
    if let survey { return survey }
    // UTF-16 only with its byte-order mark (Excel's "Unicode text"): other
    // bytes, as Latin-1, would decode to nonsense.
    let bom = data.prefix(2)
    guard bom == Data([0xFF, 0xFE]) || bom == Data([0xFE, 0xFF]),
      let text = String(data: data, encoding: .utf16)
    else {
      throw InputError(
        .encoding,
        SourceLocation(file: path), "not UTF-8 (nor UTF-16 with a byte-order mark)",
        expected: "a CSV survey export in UTF-8; re-save it as CSV UTF-8")
    }
    return try parse(text, source: path, name: name)
  }

  public func parse(_ text: String, source: String, name: String) throws -> Survey {
    let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    return try Array(body.utf8).withUnsafeBufferPointer { try parse(bytes: $0, source: source, name: name) }
  }

  func parse(
    bytes: UnsafeBufferPointer<UInt8>, source: String, name: String, rowsChecked: Bool = false,
    rest: ExportWindows? = nil
  ) throws -> Survey {
    if !rowsChecked {
      var rows = RowLengthCheck(limit: maximumRowBytes, source: source)
      try rows.feed(bytes)
    }
    let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeBufferPointer(rebasing: bytes[3...]) : bytes
    let survey = try detect(text, source: source, name: name, rest: rest)
    // A named dialect must be what the file is.
    if let dialect = dialect?.rawValue, dialect != "plain", survey.format != dialect,
      survey.format != "\(dialect)-legacy"
    {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: 1), "not a \(dialect) export (it reads as \(survey.format))",
        expected: "a \(dialect) export, or another \(Remedy.slot)", remedy: Remedy(.surveyDialect))
    }
    return survey
  }

  /// `rest`: the windows of the file after `text` (which then holds its
  /// first rows), for a single-column dialect read for its counts only;
  /// any other dialect throws `NeedsWholeFile`.
  func detect(
    _ text: UnsafeBufferPointer<UInt8>, source: String, name: String, rest: ExportWindows? = nil
  ) throws -> Survey {
    let split = ProvenanceHeader.split(bytes: text)
    let provenance = split.fields
    let skipped = split.lines
    // The header rows decide the dialect; the body is then read once, row
    // by row, into codes per question (see `single`).
    let rows = try Self.headRows(
      split.body, count: 3, source: source, firstLine: skipped + 1, delimiter: 0x2C)
    guard let header = rows.first else {
      throw InputError(
        .empty,
        SourceLocation(file: source, line: skipped + 1), "empty file",
        expected: "a survey export with a header row")
    }
    let h = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
    let body = Body(bytes: split.body, firstLine: skipped + 1, fields: h.count, delimiter: 0x2C, rest: rest)
    // Every row of the whole file, for the dialects read from rows.
    func allRows() throws -> [CSVRow] {
      if rest != nil { throw NeedsWholeFile() }
      var rows: [CSVRow] = []
      try CSVTokenizer.forEachRow(bytes: split.body, source: source, firstLine: skipped + 1) {
        if !Self.isBlank($0) { rows.append($0) }
      }
      for row in rows.dropFirst() where row.fields.count != h.count {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: row.line), "row has \(row.fields.count) fields",
          expected: "\(h.count) fields like the header")
      }
      return rows
    }
    if dialect == .plain {
      return try plain(text, header: h, source: source, name: name, fallback: false, rest: rest)
    }
    if h == Self.aggregateHeader {
      return try aggregate(
        rows: Array(allRows().dropFirst()), provenance: provenance, source: source, name: name)
    }
    // Legacy Qualtrics: V1, V2, ... over the names, then the texts.
    if h.first == "V1", rows.count >= 2, rows[1].fields.contains("ResponseID") {
      let names = rows[1].fields
      let columns = h.indices.filter { !Self.qualtricsMetadata.contains(names[$0]) && !h[$0].hasPrefix("V") }
      var survey = try single(
        format: "qualtrics-legacy", ids: Self.unique(columns.map { h[$0] }), texts: columns.map { names[$0] },
        body: body, headerRows: 2, columns: columns, idColumn: names.firstIndex(of: "ResponseID"),
        separator: ",",
        source: source, name: name)
      survey.notes += renamedNotes(columns.map { h[$0] }, source: source)
      return survey
    }
    if h.contains("StartDate") && (h.contains("ResponseId") || h.contains("ResponseID")) {
      guard rows.count >= 3 else {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: header.line), "Qualtrics export without its three header rows",
          expected: "ids, question texts and import ids")
      }
      let columns = h.indices.filter { !Self.qualtricsMetadata.contains(h[$0]) }
      var survey = try single(
        format: "qualtrics", ids: Self.unique(columns.map { h[$0] }),
        texts: columns.map { rows[1].fields[$0] }, body: body, headerRows: 3, columns: columns,
        idColumn: h.firstIndex(of: "ResponseId") ?? h.firstIndex(of: "ResponseID"), separator: ",",
        source: source, name: name)
      survey.notes += renamedNotes(columns.map { h[$0] }, source: source)
      return survey
    }
    if h.first == "Respondent ID" && h.contains("Collector ID") {
      return try surveyMonkey(rows: allRows(), source: source, name: name)
    }
    if (h.contains("id") && h.contains("submitdate"))
      || (h.contains("Response ID") && h.contains("Date submitted"))
    {
      return try limeSurvey(rows: allRows(), source: source, name: name)
    }
    if h.count >= 3 && h[0] == "ID" && h[1] == "Start time" && h[2] == "Completion time" {
      let meta: Set<String> = ["ID", "Start time", "Completion time", "Email", "Name", "Last modified time"]
      let columns = h.indices.filter { !meta.contains(h[$0]) }
      return try single(
        format: "microsoft-forms", ids: columns.map { "Q\($0 - columns.first! + 1)" },
        texts: columns.map { h[$0] }, body: body, headerRows: 1, columns: columns, idColumn: nil,
        separator: ";", source: source, name: name)
    }
    if h.first == "Timestamp" || h.first == "Horodateur" || h.first == "Zeitstempel" {
      let meta: Set<String> = ["Timestamp", "Email Address", "Score"]
      let columns = h.indices.filter { !meta.contains(h[$0]) && $0 > 0 }
      return try single(
        format: "google-forms", ids: columns.indices.map { "Q\($0 + 1)" }, texts: columns.map { h[$0] },
        body: body, headerRows: 1, columns: columns, idColumn: nil, separator: ", ", source: source,
        name: name)
    }
    if dialect == nil {
      return try plain(text, header: h, source: source, name: name, fallback: true, rest: rest)
    }
    throw InputError(
      .malformed,
      SourceLocation(file: source, line: header.line),
      "not a \(dialect?.rawValue ?? "") export (header starts \"\(h.prefix(3).joined(separator: ","))\")",
      expected:
        "a Google Forms (Timestamp,...), Microsoft Forms (ID,Start time,Completion time,...), Qualtrics (StartDate,...,ResponseId), SurveyMonkey (Respondent ID,Collector ID,...) or LimeSurvey (id,submitdate,...) export, or an aggregate file (\(Self.aggregateHeader.joined(separator: ",")))"
    )
  }

  /// `cell` without surrounding white space; most cells have none, and are
  /// returned as they are without Foundation's character-set scan.
  static func trimmed(_ cell: String) -> String {
    guard let first = cell.utf8.first, let last = cell.utf8.last else { return cell }
    func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    guard space(first) || space(last) || first >= 0x80 || last >= 0x80 else { return cell }
    return cell.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Ids made unique in column order: a title that repeats becomes
  /// TITLE_1, TITLE_2, ... (skipping names already taken).
  static func unique(_ titles: [String]) -> [String] {
    var counts: [String: Int] = [:]
    for t in titles { counts[t, default: 0] += 1 }
    var taken = Set(titles)
    var seen: [String: Int] = [:]
    return titles.map { t in
      guard counts[t, default: 0] > 1 else { return t }
      var k = seen[t, default: 0]
      var id: String
      repeat {
        k += 1
        id = "\(t)_\(k)"
      } while taken.contains(id)
      seen[t] = k
      taken.insert(id)
      return id
    }
  }

  func renamedNotes(_ titles: [String], source: String) -> [Diagnostic] {
    let ids = Self.unique(titles)
    var repeated: [String: [String]] = [:]
    for (t, id) in zip(titles, ids) where t != id { repeated[t, default: []].append(id) }
    return repeated.keys.sorted().map { t in
      Diagnostic(
        code: "repeated-column", severity: .note,
        message:
          "column \"\(t)\" appears \(repeated[t]!.count) times; its questions are \(repeated[t]!.joined(separator: ", "))",
        location: source)
    }
  }

  /// A respondent-per-row CSV as R, SPSS, Excel or pandas write it: a
  /// header of question names, comma, semicolon or tab separated, an
  /// optional id column; missing-value codes are no answer.
  func plain(
    _ text: UnsafeBufferPointer<UInt8>, header: [String], source: String, name: String, fallback: Bool,
    rest: ExportWindows? = nil
  ) throws -> Survey {
    let split = ProvenanceHeader.split(bytes: text)
    let first = split.body.prefix { $0 != 0x0A }
    let delimiter: UInt8 = [UInt8(ascii: "\t"), UInt8(ascii: ";"), UInt8(ascii: ",")].max { a, b in
      first.filter { $0 == a }.count < first.filter { $0 == b }.count
    }!
    let rows = try Self.headRows(
      split.body, count: 1, source: source, firstLine: split.lines + 1, delimiter: delimiter)
    guard let head = rows.first else {
      throw InputError(
        .empty,
        SourceLocation(file: source), "empty file", expected: "a header row and one row per respondent")
    }
    let titles = head.fields.map { $0.trimmingCharacters(in: .whitespaces) }
    let idNames = [
      "id", "respondent", "respondent_id", "respondentid", "participant", "participant_id", "record_id",
      "subject", "subject_id",
    ]
    let idIndex: Int?
    if let idColumn {
      guard let k = titles.firstIndex(of: idColumn) else {
        throw ValueError(
          .matches(0), "column", value: idColumn,
          expected: "an id column of \(source): \(titles.prefix(12).joined(separator: ", "))")
      }
      idIndex = k
    } else {
      idIndex = titles.firstIndex { idNames.contains($0.lowercased()) }
    }
    let columns = titles.indices.filter { $0 != idIndex }
    let ids = Self.unique(columns.map { titles[$0] })
    var survey = try single(
      format: "plain", ids: ids, texts: columns.map { titles[$0] },
      body: Body(
        bytes: split.body, firstLine: split.lines + 1, fields: titles.count, delimiter: delimiter, rest: rest),
      headerRows: 1, columns: columns, idColumn: idIndex, separator: ";",
      missing: Set(missingCodes.map { $0.lowercased() }), source: source, name: name)
    if fallback {
      survey.notes.append(
        Diagnostic(
          code: "plain-survey", severity: .note,
          message:
            "no survey platform's header; read as a plain CSV, one row per respondent (\(survey.respondents ?? 0) rows, \(columns.count) questions\(idIndex.map { ", ids in \"\(titles[$0])\"" } ?? "")); name the dialect with \(Remedy.slot)",
          location: source, remedy: Remedy(.surveyDialect)))
    }
    survey.notes += renamedNotes(columns.map { titles[$0] }, source: source)
    return survey
  }

  func isMulti(id: String, text: String) -> Bool {
    multiSelect.contains { $0 == id || $0 == text || text.lowercased().contains($0.lowercased()) }
  }

  /// The body of a CSV export still to be read: its bytes after the
  /// provenance lines, the line it starts on, the fields every row has.
  struct Body {
    var bytes: UnsafeBufferPointer<UInt8>
    var firstLine: Int
    var fields: Int
    var delimiter: UInt8
    /// The rest of the file, when `bytes` holds only its first rows: the
    /// export is then read for its counts only (see `tally`).
    var rest: ExportWindows? = nil
  }

  /// Thrown by `detect` for a dialect read from all its rows at once, when
  /// only the first window of the file is at hand.
  struct NeedsWholeFile: Error {}

  /// A row whose fields are all blank (skipped, as spreadsheet exports end
  /// with them).
  static func isBlank(_ row: CSVRow) -> Bool {
    row.fields.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" } }
  }

  /// The first `count` non-blank rows, without reading further.
  static func headRows(
    _ bytes: UnsafeBufferPointer<UInt8>, count: Int, source: String, firstLine: Int, delimiter: UInt8
  ) throws
    -> [CSVRow]
  {
    struct Enough: Error {}
    var rows: [CSVRow] = []
    do {
      try CSVTokenizer.forEachRow(bytes: bytes, source: source, firstLine: firstLine, delimiter: delimiter) {
        row in
        guard !isBlank(row) else { return }
        rows.append(row)
        if rows.count == count { throw Enough() }
      }
    } catch is Enough {}
    return rows
  }

  /// One column per question, read in one pass: each cell is looked up in
  /// its question's table of distinct cells and stored as a code, so time
  /// and memory grow with respondents x questions in small integers. Cells
  /// are trimmed, matched against missing-value codes and split into
  /// options once per distinct cell.
  func single(
    format: String, ids: [String], texts: [String], body: Body, headerRows: Int, columns: [Int],
    idColumn: Int?, separator: String, missing: Set<String> = [], source: String, name: String
  ) throws -> Survey {
    var tables = [DistinctCells](repeating: DistinctCells(), count: columns.count)
    // Read for counts only (`tally`), a question keeps a count per distinct
    // cell; otherwise each respondent's code.
    let tallied = body.rest != nil
    var codes = [[Int32]](repeating: [], count: columns.count)
    var cellCounts = [[Int]](repeating: [], count: tallied ? columns.count : 0)
    var respondentIDs: [String] = []
    var seen = 0
    if !tallied {
      // Room for one code per line (rows seldom span lines), so the code
      // arrays are never copied while growing.
      var lines = 1
      if let base = body.bytes.baseAddress {
        var p = base
        let end = base + body.bytes.count
        while p < end, let hit = memchr(p, 0x0A, end - p) {
          lines += 1
          p = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
      }
      for k in codes.indices { codes[k].reserveCapacity(lines) }
    }
    func blank(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
      field.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    }
    /// The columns whose codes a tallied read keeps, in its second pass.
    var coded: [Int] = []
    func take(_ line: Int, _ fields: [UnsafeBufferPointer<UInt8>], pass: Int) throws {
      guard !fields.allSatisfy(blank) else { return }
      seen += 1
      guard seen > headerRows else { return }
      guard fields.count == body.fields else {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: line), "row has \(fields.count) fields",
          expected: "\(body.fields) fields like the header")
      }
      if !tallied {
        for (k, c) in columns.enumerated() {
          let cell = fields[c]
          codes[k].append(cell.isEmpty ? -1 : tables[k].code(of: cell))
        }
        if let idColumn { respondentIDs.append(String(decoding: fields[idColumn], as: UTF8.self)) }
      } else if pass == 1 {
        for (k, c) in columns.enumerated() {
          let cell = fields[c]
          guard !cell.isEmpty else { continue }
          let code = Int(tables[k].code(of: cell))
          if code == cellCounts[k].count {
            cellCounts[k].append(1)
          } else {
            cellCounts[k][code] += 1
          }
        }
      } else {
        for k in coded {
          let cell = fields[columns[k]]
          codes[k].append(cell.isEmpty ? -1 : tables[k].code(of: cell))
        }
      }
    }
    /// Every row of the body: the first window, then the rest of the file.
    func readRows(pass: Int) throws {
      seen = 0
      try CSVTokenizer.forEachRawRow(
        bytes: body.bytes, source: source, firstLine: body.firstLine, delimiter: body.delimiter
      ) { try take($0, $1, pass: pass) }
      guard let rest = body.rest else { return }
      var line = body.firstLine + Self.lineFeeds(body.bytes)
      try rest.forEachWindow { window in
        try CSVTokenizer.forEachRawRow(
          bytes: window, source: source, firstLine: line, delimiter: body.delimiter, skipByteOrderMark: false
        ) { try take($0, $1, pass: pass) }
        line += Self.lineFeeds(window)
      }
    }
    try readRows(pass: 1)
    // Cells were told apart by their bytes; as text, two that differ
    // only in Unicode normalisation are one cell (the first seen).
    var cells = [[String]](repeating: [], count: columns.count)
    var remaps: [[Int32]] = []
    for k in columns.indices {
      var index: [String: Int32] = [:]
      var remap: [Int32] = []
      for i in 0..<tables[k].count {
        let cell = tables[k].string(i)
        if let code = index[cell] {
          remap.append(code)
        } else {
          let code = Int32(cells[k].count)
          index[cell] = code
          cells[k].append(cell)
          remap.append(code)
        }
      }
      if cells[k].count < tables[k].count {
        for r in codes[k].indices where codes[k][r] >= 0 { codes[k][r] = remap[Int(codes[k][r])] }
      }
      if tallied {
        var merged = [Int](repeating: 0, count: cells[k].count)
        for (i, n) in cellCounts[k].enumerated() { merged[Int(remap[i])] += n }
        cellCounts[k] = merged
      }
      remaps.append(remap)
    }
    var questions: [SurveyQuestion] = []
    var notes: [Diagnostic] = []
    var tallyMulti = [Bool](repeating: false, count: tallied ? ids.count : 0)
    var tallyOptions = [[[String]]](repeating: [], count: tallied ? ids.count : 0)
    for (k, id) in ids.enumerated() {
      var withControls = 0
      let distinct = cells[k].map { cell -> String in
        let visible = Self.withoutControlCharacters(cell)
        if visible != cell { withControls += 1 }
        let trimmed = Self.trimmed(visible)
        return missing.contains(trimmed.lowercased()) ? "" : trimmed
      }
      if withControls > 0 {
        notes.append(
          Diagnostic(
            code: "control-characters-removed", severity: .note,
            message:
              "\(id): control characters removed from \(withControls) distinct answer\(withControls == 1 ? "" : "s"); answers that differ only by them count as one",
            location: source))
      }
      // Microsoft Forms writes multi-select answers as "a;b;".
      let autoMulti = format == "microsoft-forms" && distinct.contains { $0.hasSuffix(";") }
      let multi = autoMulti || isMulti(id: id, text: texts[k])
      let options: [[String]] = distinct.map { cell in
        if cell.isEmpty { return [] }
        if multi {
          return cell.components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        }
        return [cell]
      }
      // Distinct cells that read the same (after trimming) share a code.
      if tallied {
        let answered = zip(options, cellCounts[k]).reduce(0) { $0 + ($1.0.isEmpty ? 0 : $1.1) }
        // A question whose answers may be mostly distinct (so listed one
        // by one, in row order, as open answers) keeps its codes: the
        // open-answer rule of `SurveyStatistics.summary` counts distinct
        // answers, never more than the distinct cells here.
        if !multi && tables[k].count > max(10, answered / 2) { coded.append(k) }
        tallyMulti[k] = multi
        tallyOptions[k] = options
      } else {
        let column = ResponseColumn(options: options, codes: codes[k])
        questions.append(SurveyQuestion(id: id, text: texts[k], answers: column, isMultiSelect: multi))
      }
    }
    let respondents = max(0, seen - headerRows)
    if tallied {
      if !coded.isEmpty {
        try readRows(pass: 2)
        for k in coded where cells[k].count < tables[k].count {
          for r in codes[k].indices where codes[k][r] >= 0 { codes[k][r] = remaps[k][Int(codes[k][r])] }
        }
      }
      for (k, id) in ids.enumerated() {
        let column =
          coded.contains(k)
          ? ResponseColumn(options: tallyOptions[k], codes: codes[k])
          : ResponseColumn(options: tallyOptions[k], counts: cellCounts[k], respondents: respondents)
        codes[k] = []
        questions.append(
          SurveyQuestion(id: id, text: texts[k], answers: column, isMultiSelect: tallyMulti[k]))
      }
    }
    var survey = Survey(
      name: name, source: source, format: format, questions: questions, respondents: respondents)
    if idColumn != nil && !tallied { survey.respondentIDs = respondentIDs }
    survey.notes += notes
    return survey
  }

  /// `cell` with control characters (and invisible format characters
  /// such as bidirectional overrides and zero-width spaces) taken out; line
  /// breaks and tabs, which a multi-line answer may hold, stay. Two answers
  /// that print alike are one answer.
  static func withoutControlCharacters(_ cell: String) -> String {
    func invisible(_ s: Unicode.Scalar) -> Bool {
      switch s.properties.generalCategory {
      case .control: s != "\n" && s != "\r" && s != "\t"
      // The zero-width joiner holds emoji sequences together.
      case .format: s != "\u{200D}"
      default: false
      }
    }
    guard cell.unicodeScalars.contains(where: invisible) else { return cell }
    return String(String.UnicodeScalarView(cell.unicodeScalars.filter { !invisible($0) }))
  }

  /// SurveyMonkey: row 1 has the question over the first of its columns,
  /// row 2 the option of each column ("Response" for single answers).
  func surveyMonkey(rows: [CSVRow], source: String, name: String) throws -> Survey {
    guard rows.count >= 2 else {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: rows[0].line), "SurveyMonkey export without its second header row",
        expected: "a row of options")
    }
    let top = rows[0].fields
    let options = rows[1].fields
    let meta: Set<String> = [
      "Respondent ID", "Collector ID", "Start Date", "End Date", "IP Address", "Email Address", "First Name",
      "Last Name",
      "Custom Data 1",
    ]
    var groups: [(text: String, columns: [Int])] = []
    for (i, title) in top.enumerated() where !meta.contains(title) {
      if !title.isEmpty || groups.isEmpty {
        groups.append((title, [i]))
      } else {
        groups[groups.count - 1].columns.append(i)
      }
    }
    let body = rows.dropFirst(2)
    var questions: [SurveyQuestion] = []
    for (k, group) in groups.enumerated() {
      let multi = group.columns.count > 1
      let answers: [[String]] = body.map { row in
        if multi {
          return group.columns.compactMap { c in
            let cell = row.fields[c].trimmingCharacters(in: .whitespaces)
            return cell.isEmpty ? nil : (cell == "1" || cell.lowercased() == "yes" ? options[c] : cell)
          }
        }
        let cell = row.fields[group.columns[0]].trimmingCharacters(in: .whitespacesAndNewlines)
        return cell.isEmpty ? [] : [cell]
      }
      questions.append(
        SurveyQuestion(id: "Q\(k + 1)", text: group.text, responses: answers, isMultiSelect: multi))
    }
    return Survey(
      name: name, source: source, format: "surveymonkey", questions: questions, respondents: body.count)
  }

  /// LimeSurvey: one column per question, or one per option (`Q3[SQ001]`,
  /// `Q3 [Option]`) with "Y" for chosen options.
  func limeSurvey(rows: [CSVRow], source: String, name: String) throws -> Survey {
    let h = rows[0].fields
    let meta: Set<String> = [
      "id", "submitdate", "lastpage", "startlanguage", "seed", "startdate", "datestamp", "ipaddr", "refurl",
      "token",
      "Response ID", "Date submitted", "Last page", "Start language", "Seed", "Date started",
      "Date last action",
    ]
    var groups: [(id: String, columns: [Int], options: [String])] = []
    for (i, column) in h.enumerated() where !meta.contains(column) {
      if let open = column.firstIndex(of: "["), column.hasSuffix("]") {
        let base = column[..<open].trimmingCharacters(in: .whitespaces)
        let option = String(column[column.index(after: open)..<column.index(before: column.endIndex)])
        if let g = groups.lastIndex(where: { $0.id == base }) {
          groups[g].columns.append(i)
          groups[g].options.append(option)
        } else {
          groups.append((base, [i], [option]))
        }
      } else {
        groups.append((column, [i], []))
      }
    }
    let body = rows.dropFirst()
    let questions = groups.map { g -> SurveyQuestion in
      let multi = !g.options.isEmpty
      let answers: [[String]] = body.map { row in
        if multi {
          return zip(g.columns, g.options).compactMap { c, option in
            let cell = row.fields[c].trimmingCharacters(in: .whitespaces)
            return cell == "Y" || cell.lowercased() == "yes" ? option : nil
          }
        }
        let cell = row.fields[g.columns[0]].trimmingCharacters(in: .whitespacesAndNewlines)
        return cell.isEmpty ? [] : [cell]
      }
      return SurveyQuestion(id: g.id, text: g.id, responses: answers, isMultiSelect: multi)
    }
    return Survey(
      name: name, source: source, format: "limesurvey", questions: questions, respondents: body.count)
  }

  /// EnergyLab's aggregate format: one row per published number.
  func aggregate(rows: [CSVRow], provenance: [String: String], source: String, name: String) throws -> Survey
  {
    for key in ["source", "licence"] where provenance[key] == nil {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: 1), "provenance header lacks \"\(key)\"",
        expected: "a line \"# \(key): ...\"")
    }
    var questions: [SurveyQuestion] = []
    for row in rows {
      let f = row.fields.map { $0.trimmingCharacters(in: .whitespaces) }
      guard let kind = AggregateEntry.Kind(rawValue: f[3]) else {
        throw InputError(
          .value,
          SourceLocation(file: source, line: row.line, column: 4), "unknown kind \"\(f[3])\"",
          expected: AggregateEntry.Kind.allCases.map(\.rawValue).joined(separator: ", "))
      }
      var n: Int?
      if !f[2].isEmpty {
        guard let value = Int(f[2]), value >= 0 else {
          throw InputError(
            .value,
            SourceLocation(file: source, line: row.line, column: 3), "cannot read n \"\(f[2])\"",
            expected: "a whole number")
        }
        n = value
      }
      var value: Double?
      if kind != .text && !f[5].isEmpty {
        guard let v = Double(f[5]), v.isFinite, v >= 0 else {
          throw InputError(
            .value,
            SourceLocation(file: source, line: row.line, column: 6), "cannot read value \"\(f[5])\"",
            expected:
              "a non-negative number for a \(kind.rawValue), or an empty cell when the source publishes none")
        }
        value = v
        if kind == .percentage && v > 100 {
          throw InputError(
            .value,
            SourceLocation(file: source, line: row.line, column: 6), "percentage \(f[5]) above 100",
            expected: "0-100")
        }
        if kind == .count, let n, v > Double(n) {
          throw InputError(
            .value,
            SourceLocation(file: source, line: row.line, column: 6), "count \(f[5]) above n = \(n)",
            expected: "a count <= n")
        }
      }
      let entry = AggregateEntry(
        kind: kind,
        labels: kind == .text
          ? []
          : kind == .group
            ? f[4].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } : [f[4]],
        value: value, text: kind == .text ? row.fields[4] : nil, note: f[6])
      if let index = questions.firstIndex(where: { $0.id == f[0] }) {
        questions[index].aggregate.append(entry)
        if questions[index].aggregateN == nil { questions[index].aggregateN = n }
      } else {
        questions.append(SurveyQuestion(id: f[0], text: f[1], aggregate: [entry], aggregateN: n))
      }
    }
    for q in questions {
      let counts = q.aggregate.filter { $0.kind == .count }.compactMap(\.value).reduce(0, +)
      if let n = q.aggregateN, counts > Double(n) + 1e-9, !q.isMultiSelect {
        // Allowed for multi-select questions, which the file marks in a note.
        if !q.aggregate.contains(where: { $0.note.lowercased().contains("multi") }) {
          throw InputError(
            .value,
            SourceLocation(file: source),
            "question \(q.id): counts add up to \(Fixed.shortest(counts)) > n = \(n)",
            expected: "counts <= n, or a note \"multi-select\"")
        }
      }
    }
    return Survey(
      name: provenance["survey"] ?? name, source: source, format: "aggregate", questions: questions,
      respondents: provenance["n"].flatMap { Int($0) }, provenance: provenance)
  }
}

/// Distinct cells of a column as bytes, each with a code in order of
/// first appearance (open addressing over an FNV-1a hash).
struct DistinctCells {
  private var slots = [Int32](repeating: -1, count: 16)
  private var hashes: [UInt64] = []
  private var ends: [Int] = []
  private var arena: [UInt8] = []

  var count: Int { ends.count }

  /// The code of `cell`, a new one when it was not seen before.
  mutating func code(of cell: UnsafeBufferPointer<UInt8>) -> Int32 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in cell { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
    let mask = slots.count - 1
    var i = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = slots[i]
      if entry < 0 { break }
      let e = Int(entry)
      if hashes[e] == hash {
        let from = e == 0 ? 0 : ends[e - 1]
        if ends[e] - from == cell.count
          && arena.withUnsafeBufferPointer({ a in
            guard cell.count > 0, let stored = a.baseAddress, let given = cell.baseAddress else {
              return true
            }
            return memcmp(stored + from, given, cell.count) == 0
          })
        {
          return entry
        }
      }
      i = (i + 1) & mask
    }
    let code = Int32(ends.count)
    arena.append(contentsOf: cell)
    ends.append(arena.count)
    hashes.append(hash)
    slots[i] = code
    if ends.count * 2 > slots.count { grow() }
    return code
  }

  /// The text of the cell with code `i`.
  func string(_ i: Int) -> String {
    let from = i == 0 ? 0 : ends[i - 1]
    return arena.withUnsafeBufferPointer {
      String(decoding: UnsafeBufferPointer(rebasing: $0[from..<ends[i]]), as: UTF8.self)
    }
  }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for (e, hash) in hashes.enumerated() {
      var i = Int(truncatingIfNeeded: hash) & mask
      while slots[i] >= 0 { i = (i + 1) & mask }
      slots[i] = Int32(e)
    }
  }
}

/// Follows CSV rows through a stream of bytes (a line break inside quotes
/// continues the row) and refuses the first row longer than `limit`,
/// naming the line it starts on.
struct RowLengthCheck {
  let limit: Int
  let source: String
  /// Whether a quoted cell may hold line breaks (CSV); false counts lines.
  var quoted = true
  private var inQuotes = false
  private var rowBytes = 0
  private var line = 1
  private var rowLine = 1

  init(limit: Int, source: String) {
    self.limit = limit
    self.source = source
  }

  mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    guard let base = bytes.baseAddress else { return }
    let raw = UnsafeRawPointer(base)
    let n = bytes.count
    var i = 0
    while i < n {
      // Eight bytes holding neither a quote nor a line feed count at once
      // (the has-zero-byte test of Anderson's bit hacks, exact as a test);
      // near the limit, bytes count one at a time.
      while i + 8 <= n && rowBytes + 8 <= limit {
        let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        let quote = word ^ 0x2222_2222_2222_2222
        let feed = word ^ 0x0A0A_0A0A_0A0A_0A0A
        let zero =
          ((quote &- 0x0101_0101_0101_0101) & ~quote) | ((feed &- 0x0101_0101_0101_0101) & ~feed)
        if zero & 0x8080_8080_8080_8080 != 0 { break }
        rowBytes += 8
        i += 8
      }
      guard i < n else { break }
      let byte = base[i]
      i += 1
      if byte == 0x22 && quoted { inQuotes.toggle() }
      if byte == 0x0A {
        line += 1
        if !inQuotes {
          rowBytes = 0
          rowLine = line
          continue
        }
      }
      rowBytes += 1
      if rowBytes > limit {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: rowLine),
          "a \(quoted ? "row" : "line") longer than \(limit) bytes",
          expected: quoted
            ? "rows of at most \(limit) bytes (the reader's limit; an unclosed quote makes one long row)"
            : "lines of at most \(limit) bytes (the reader's limit)"
        )
      }
    }
  }
}

/// A survey platform's export format, named on the command line
/// (`--dialect`) when detection should not decide.
public enum SurveyDialect: String, Sendable, Hashable, CaseIterable {
  case plain
  case qualtrics
  case googleForms = "google-forms"
  case microsoftForms = "microsoft-forms"
  case surveymonkey
  case limesurvey
  case aggregate

  /// The dialect of a name, or an error naming the closest.
  public init(named name: String) throws {
    guard let dialect = SurveyDialect(rawValue: name) else {
      throw ValueError.unknown("survey dialect", name, among: SurveyReader.dialects)
    }
    self = dialect
  }
}
