import EnergyLabCore
import Testing

@testable import Pipeline

/// Figures in a notebook's prose come from the results it names, never
/// typed: `{{name.column[row]}}` and small expressions with their digits.
struct NotebookValuesTests {
  /// Two activities as `energy --by-mode` prints them, and one model
  /// result as `models eval` prints it.
  static func values() -> NotebookValues {
    var values = NotebookValues()
    let walks = ResultTable(
      name: "energy",
      rows: [
        ResultRecord([
          "activity": .integer(1), "mode": .string("walk"), "grade_min_pct": .number(-3.0123, digits: 2),
          "grade_max_pct": .number(4.9877, digits: 2), "energy_kcal": .number(49.4213, digits: 2),
        ]),
        ResultRecord([
          "activity": .integer(3), "mode": .string("walk"), "grade_min_pct": .number(1.03, digits: 2),
          "grade_max_pct": .null, "energy_kcal": .number(23.5712, digits: 2),
        ]),
      ])
    values.add(
      "walks", tables: [walks, ResultTable(name: "totals", rows: [ResultRecord(["n": .integer(2)])])])
    values.add(
      "period",
      tables: [ResultTable(name: "model", rows: [ResultRecord(["energy_kcal": .number(42.89, digits: 2)])])])
    return values
  }

  @Test func valuesPrintAsTheirTablesPrintThem() throws {
    let v = Self.values()
    #expect(try v.interpolate("L = {{walks.grade_min_pct}} %", path: "n.md", line: 1) == "L = -3.01 %")
    #expect(try v.interpolate("{{walks.energy_kcal[2]}}", path: "n.md", line: 1) == "23.57")
    #expect(try v.interpolate("{{walks.energy_kcal[activity=3]}}", path: "n.md", line: 1) == "23.57")
    #expect(try v.interpolate("{{walks/totals.n}} walks", path: "n.md", line: 1) == "2 walks")
    #expect(try v.interpolate("{{walks.mode[activity=1]}}", path: "n.md", line: 1) == "walk")
  }

  /// (-3.0123 + 4.9877) / 2 = 0.9877; 100 x (42.89 / 49.4213 - 1) =
  /// -13.2156; an empty cell makes the whole expression unknown.
  @Test func expressionsNeedTheirDigits() throws {
    let v = Self.values()
    #expect(
      try v.interpolate(
        "{{(walks.grade_min_pct[1] + walks.grade_max_pct[1]) / 2 :3}}", path: "n.md", line: 1) == "0.988")
    #expect(
      try v.interpolate(
        "{{100 * (period.energy_kcal / walks.energy_kcal[1] - 1) :+1}} %", path: "n.md", line: 1)
        == "-13.2 %")
    #expect(try v.interpolate("{{walks.energy_kcal[1] - 40 :+2}}", path: "n.md", line: 1) == "+9.42")
    #expect(
      try v.interpolate("{{walks.grade_max_pct[activity=3] / 2 :2}}", path: "n.md", line: 1) == "unknown")
    #expect(try v.interpolate("{{walks.grade_max_pct[activity=3]}}", path: "n.md", line: 1) == "unknown")
    #expect(throws: InputError.self) {
      try v.interpolate("{{walks.energy_kcal[1] * 2}}", path: "n.md", line: 1)
    }
  }

  /// A published equation's exponent: 2 ^ 10 = 1024 and 9 ^ 0.5 = 3 by
  /// hand; `^` binds tighter than `*` and groups to the right (2 ^ 3 ^ 2 =
  /// 2 ^ 9 = 512); Eq 3.3 of the carbon gamification thesis at 21 C,
  /// 0.97 ^ (-1 / 0.56) = exp(0.030459 x 1.785714) = 1.05590 (natural
  /// logarithm of 0.97 from a table, -0.030459).
  @Test func powersFollowTheirEquations() throws {
    let v = Self.values()
    #expect(try v.interpolate("{{2 ^ 10 :0}}", path: "n.md", line: 1) == "1024")
    #expect(try v.interpolate("{{3 * 9 ^ 0.5 :1}}", path: "n.md", line: 1) == "9.0")
    #expect(try v.interpolate("{{2 ^ 3 ^ 2 :0}}", path: "n.md", line: 1) == "512")
    #expect(try v.interpolate("{{0.97 ^ (0 - 1 / 0.56) :4}}", path: "n.md", line: 1) == "1.0559")
    #expect(try v.interpolate("{{walks.grade_max_pct[2] ^ 2 :1}}", path: "n.md", line: 1) == "unknown")
  }

  @Test func aMissingNameColumnOrRowSaysWhatThereIs() throws {
    let v = Self.values()
    for (text, says) in [
      ("{{walk.energy_kcal}}", "no result named walk"),
      ("{{walks.kcal}}", "has no column kcal"),
      ("{{walks.energy_kcal[activity=2]}}", "0 rows of energy with activity = 2"),
      ("{{walks.energy_kcal[7]}}", "a row from 1 to 2"),
      ("{{walks/days.n}}", "has no table days"),
      ("{{walks.energy_kcal", "unclosed {{"),
    ] {
      do {
        _ = try v.interpolate("prose\n" + text, path: "n.md", line: 10)
        Issue.record("\(text) was accepted")
      } catch let error as InputError {
        #expect("\(error)".contains(says), "\(error)")
        #expect(error.location.line == (text.hasSuffix("}}") ? 11 : 10), "\(error)")
      }
    }
  }

  /// `# result: name` names the next command; a placeholder with spaces
  /// stays one argument.
  @Test func aCommentNamesTheNextCommand() throws {
    let notebook = try Notebook.parse(
      """
      ```energylab
      # result: walks
      energy a.gpx --by-mode
      models eval acsm-walking --grade {{(walks.grade_pct[1] + 1) / 2 :2}}%
      ```
      """, path: "n.md")
    guard case .commands(let commands) = notebook.parts.first else {
      Issue.record("no commands")
      return
    }
    #expect(commands.map(\.resultName) == ["walks", nil])
    #expect(commands[1].arguments.last == "{{(walks.grade_pct[1] + 1) / 2 :2}}%")
    #expect(throws: InputError.self) {
      try Notebook.parse("```energylab\n# result: 1x\nenergy a.gpx\n```", path: "n.md")
    }
  }
}
