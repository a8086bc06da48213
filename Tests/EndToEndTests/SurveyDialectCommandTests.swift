import Foundation
import Testing

/// Survey commands on a plain respondent-per-row CSV, SUS per respondent,
/// and agreement with NA cells.
struct SurveyDialectCommandTests {
  static let dialects = "\(packageRoot)/Tests/SurveysTests/Fixtures/dialects"

  /// sex x target of the heart-disease-style file, counted by hand from its
  /// rows (p11 has no sex and is left out): male 5 with target 1 and 2 with
  /// 0, female 3 and 1.
  @Test func crosstabOfAPlainCSV() throws {
    let out = try energylab(
      [
        "survey", "crosstab", "\(Self.dialects)/plain-heart.csv", "--rows", "sex", "--cols", "target",
        "--format", "json",
      ],
      in: try scratchFolder())
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stderr.contains("read as a plain CSV"))
    let table = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    let counts = try #require(table["table"] as? [[String: Any]])
    func cell(_ row: String, _ column: String) -> Int? {
      counts.first { $0["row"] as? String == row }?[column] as? Int
    }
    #expect(cell("male", "1") == 5)
    #expect(cell("male", "0") == 2)
    #expect(cell("female", "1") == 3)
    #expect(cell("female", "0") == 1)
  }

  /// SUS by hand: u1 alternating 4,2 scores 2.5 x (5 x 3 + 5 x 3) = 75; u2
  /// 5,1 scores 100; u4 2,4 scores 25; u3 misses an item and gets no score.
  @Test func susGivesEveryRespondent() throws {
    let folder = try scratchFolder()
    try """
    id,s1,s2,s3,s4,s5,s6,s7,s8,s9,s10
    u1,4,2,4,2,4,2,4,2,4,2
    u2,5,1,5,1,5,1,5,1,5,1
    u3,3,3,3,NA,3,3,3,3,3,3
    u4,2,4,2,4,2,4,2,4,2,4

    """.write(toFile: folder + "/sus.csv", atomically: true, encoding: .utf8)
    let out = try energylab(["survey", "sus", "sus.csv", "--format", "csv"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(
      out.stdout == """
        respondent,score,items_used,note
        u1,75,10,
        u2,100,10,
        u3,,9,1 of 10 items missing: no score
        u4,25,10,

        """)
    let json = try energylab(["survey", "sus", "sus.csv", "--format", "json"], in: folder)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let summary = try #require(object["summary"] as? [String: Any])
    #expect(summary["n"] as? Int == 3)
    #expect(abs((summary["mean"] as? Double ?? 0) - 200.0 / 3) < 1e-9)
    #expect(summary["skipped"] as? Int == 1)
  }

  /// NA, N/A and empty cells are missing: two of five rows are dropped, and
  /// the bias of the three left is (1 + 2 + 3)/3 = 2.
  @Test func agreementDropsMissingPairs() throws {
    let folder = try scratchFolder()
    try "a,b\n11,10\nNA,12\n22,20\n,5\n33,30\nn/a,1\n".write(
      toFile: folder + "/pairs.csv", atomically: true, encoding: .utf8)
    let out = try energylab(
      ["stats", "agreement", "pairs.csv", "--a", "a", "--b", "b", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let row = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    #expect(row["n"] as? Int == 3)
    #expect(row["skipped_rows"] as? Int == 3)
    #expect(abs((row["bias"] as? Double ?? 0) - 2) < 1e-12)
  }
}

/// Intervals are two numeric fields (`*_lower`, `*_upper`) in every command,
/// never "a to b" strings or arrays.
struct IntervalShapeTests {
  /// Every key with "ci95" in a JSON document, and its value.
  static func intervals(_ value: Any, into out: inout [(String, Any)]) {
    if let object = value as? [String: Any] {
      for (key, v) in object {
        if key.contains("ci95") { out.append((key, v)) }
        intervals(v, into: &out)
      }
    } else if let array = value as? [Any] {
      for v in array { intervals(v, into: &out) }
    }
  }

  @Test func intervalsAreTwoNumbers() throws {
    let folder = try scratchFolder()
    try "a,b\n1,1.2\n2,2.1\n3,2.7\n4,4.4\n".write(
      toFile: folder + "/p.csv", atomically: true, encoding: .utf8)
    try "id,q1\n1,Agree\n2,Strongly agree\n3,Disagree\n4,Agree\n5,Neither agree nor disagree\n".write(
      toFile: folder + "/likert.csv", atomically: true, encoding: .utf8)
    let commands: [[String]] = [
      ["stats", "agreement", "p.csv", "--a", "a", "--b", "b"],
      [
        "evaluate", "--models", "acsm-walking", "--reference", "stanford-walking", "--assume", "speed=3mph",
        "grade=0",
      ],
      ["survey", "summary", "likert.csv"],
    ]
    for command in commands {
      let out = try energylab(command + ["--format", "json"], in: folder)
      #expect(out.status == 0, "\(command): \(out.stderr)")
      var found: [(String, Any)] = []
      Self.intervals(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)), into: &found)
      #expect(!found.isEmpty, "\(command[0]) reports an interval")
      for (key, value) in found {
        #expect(key.contains("_lower") || key.contains("_upper"), "\(key)")
        #expect(value is Double || value is Int || value is NSNull, "\(key) = \(value)")
      }
    }
  }
}

/// `--format csv` is exactly one table with one header row, and `--format
/// json` one document, for the commands that print several tables or prose.
struct OneTablePerOutputTests {
  /// RFC 4180 fields of one line (no line breaks inside fields here).
  static func fields(_ line: Substring) -> Int {
    var count = 1
    var quoted = false
    for c in line {
      if c == "\"" { quoted.toggle() } else if c == "," && !quoted { count += 1 }
    }
    return count
  }

  @Test func csvIsOneTableAndJSONOneDocument() throws {
    let folder = try scratchFolder()
    try "a,b\n1,1.2\n2,2.1\n3,2.7\n4,4.4\n".write(
      toFile: folder + "/p.csv", atomically: true, encoding: .utf8)
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "10min"], in: folder)
    _ = try energylab(
      ["energy", "walk.gpx", "--model", "acsm-walking", "--mass", "70kg", "--db", "s.sqlite"], in: folder)
    let dialects = "\(packageRoot)/Tests/SurveysTests/Fixtures/dialects"
    let commands: [[String]] = [
      ["survey", "summary", "\(dialects)/plain-heart.csv"],
      ["survey", "crosstab", "\(dialects)/plain-heart.csv", "--rows", "sex", "--cols", "target"],
      [
        "accel", "energy", "\(packageRoot)/Tests/IngestTests/Fixtures/accel/actigraph-counts-named.csv",
        "--intake", "2100",
      ],
      ["stats", "agreement", "p.csv", "--a", "a", "--b", "b"],
      ["agreement", "walk.gpx", "--models", "acsm-walking,cameron-walking", "--mass", "70kg"],
      ["db", "info", "--db", "s.sqlite"],
      [
        "evaluate", "--models", "acsm-walking", "--reference", "stanford-walking", "--assume", "speed=3mph",
        "grade=0", "--cells",
      ],
      [
        "models", "eval", "acsm-walking", "--speed", "3mph", "--grade", "0%", "--mass", "70kg", "--published",
        "kcal_per_min=4.55",
      ],
      [
        "footprint", "annual", "--electricity-kwh", "350", "--supplier", "all-island-mix", "--heating",
        "natural-gas", "--occupants", "2", "--petrol", "20", "--flight", "DUB-STN:return", "--diet",
        "medium-meat", "--spend", "clothing=50",
      ],
      [
        "sweep", "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "speed", "--from",
        "2mph", "--to", "4mph", "--step", "1mph", "--assume", "grade=0",
      ],
    ]
    for command in commands {
      let csv = try energylab(command + ["--format", "csv"], in: folder)
      #expect(csv.status == 0, "\(command): \(csv.stderr)")
      let lines = csv.stdout.split(separator: "\n")
      let width = lines.first.map(Self.fields) ?? 0
      #expect(!lines.isEmpty && lines.allSatisfy { Self.fields($0) == width }, "\(command[0]): \(csv.stdout)")
      let json = try energylab(command + ["--format", "json"], in: folder)
      #expect(json.status == 0, "\(command): \(json.stderr)")
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil,
        "\(command[0]) --format json is one document: \(json.stdout.prefix(300))")
    }
  }
}

/// Every Markdown table of the shipped reports stands apart: its header is
/// preceded by a blank line (else Markdown reads it as rows of the table or
/// text before it, as the accelerometer-day balance table once was).
struct MarkdownTableTests {
  @Test func reportTablesAreSeparated() throws {
    let reports = try FileManager.default.contentsOfDirectory(atPath: "\(packageRoot)/Reports")
      .filter { !$0.hasPrefix(".") }
    #expect(reports.count >= 8)
    for name in reports {
      let text = try String(contentsOfFile: "\(packageRoot)/Reports/\(name)/report.md", encoding: .utf8)
      let lines = text.components(separatedBy: "\n")
      for k in lines.indices.dropFirst() where lines[k].hasPrefix("| ---") || lines[k].hasPrefix("| :--") {
        let header = k - 1
        #expect(header > 0 && lines[header - 1].isEmpty, "\(name) line \(header + 1): \(lines[header])")
      }
    }
  }
}
