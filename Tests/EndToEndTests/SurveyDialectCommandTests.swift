import Foundation
import TestSupport
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
        u3,,9,1 of 10 items missing (s4): no score
        u4,25,10,

        """)
    let json = try energylab(["survey", "sus", "sus.csv", "--format", "json"], in: folder)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let summary = try #require(object["summary"] as? [String: Any])
    #expect(summary["n"] as? Int == 3)
    expectClose((summary["mean"] as? Double ?? 0), 200.0 / 3, tolerance: 1e-9)
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
    #expect(row["dropped_pairs"] as? Int == 3)
    expectClose((row["bias"] as? Double ?? 0), 2, tolerance: 1e-12)
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

/// Every Markdown table of the shipped reports and of `--format markdown`
/// stands apart: GitHub's own parser (cmark-gfm, installed by
/// scripts/install-deps) finds as many tables as there are delimiter rows,
/// so no table runs into the one before it (as the accelerometer-day
/// balance table once did).
struct MarkdownTableTests {
  static let parser = "/usr/bin/cmark-gfm"

  /// Tables cmark-gfm finds, and delimiter rows written.
  static func tables(in markdown: String) throws -> (parsed: Int, written: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: parser)
    process.arguments = ["--extension", "table"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(markdown.utf8))
    try input.fileHandleForWriting.close()
    let html = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let parsed = html.components(separatedBy: "<table>").count - 1
    let written = markdown.components(separatedBy: "\n").filter {
      $0.hasPrefix("| ---") || $0.hasPrefix("| :--")
    }
    .count
    return (parsed, written)
  }

  @Test func reportTablesParseAsSeparateTables() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: Self.parser), "cmark-gfm missing: run scripts/install-deps"
    )
    let reports = try FileManager.default.contentsOfDirectory(atPath: "\(packageRoot)/Reports")
      .filter { !$0.hasPrefix(".") }
    #expect(reports.count >= 8)
    for name in reports {
      let text = try String(contentsOfFile: "\(packageRoot)/Reports/\(name)/report.md", encoding: .utf8)
      let count = try Self.tables(in: text)
      #expect(count.written > 0 && count.parsed == count.written, "\(name): \(count)")
    }
  }

  /// A command printing prose and two tables in Markdown.
  @Test func commandTablesParseAsSeparateTables() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: Self.parser), "cmark-gfm missing: run scripts/install-deps"
    )
    let out = try energylab(
      [
        "accel", "energy", "\(packageRoot)/Tests/IngestTests/Fixtures/accel/actigraph-counts-named.csv",
        "--intake", "2100", "--format", "markdown",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let count = try Self.tables(in: out.stdout)
    #expect(count == (2, 2), "\(out.stdout)")
  }
}
