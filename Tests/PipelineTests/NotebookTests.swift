import EnergyLabCore
import Foundation
import Pipeline
import Reporting
import TestSupport
import Testing

struct NotebookParsingTests {
  let text = """
    # Study

    Prose.

    ```energylab-parameters
    mass = 65kg
    speed = 2.9mph
    ```

    ```energylab
    # a comment
    energylab models eval acsm-walking --mass ${mass} \\
      --speed ${speed} --published-source "PEM thesis, L852"
    models list --format 'json'
    ```
    Closing prose.
    """

  @Test func parametersContinuationsAndQuoting() throws {
    let notebook = try Notebook.parse(text, path: "Notebooks/study.md")
    #expect(notebook.name == "study")
    let blocks = notebook.parts.compactMap { part -> [Notebook.Command]? in
      if case .commands(let commands) = part { return commands }
      return nil
    }
    #expect(blocks.count == 1)
    let commands = try #require(blocks.first)
    #expect(commands.count == 2)
    #expect(
      commands[0].arguments == [
        "models", "eval", "acsm-walking", "--mass", "65kg", "--speed", "2.9mph", "--published-source",
        "PEM thesis, L852",
      ])
    #expect(commands[0].line == 12)
    #expect(commands[1].arguments == ["models", "list", "--format", "json"])
    #expect(commands[0].text.hasSuffix("--published-source 'PEM thesis, L852'"))
  }

  @Test func unknownParameterNamesTheLine() {
    let error = #expect(throws: InputError.self) {
      try Notebook.parse("```energylab\nmodels eval x --mass ${nope}\n```\n", path: "n.md")
    }
    #expect(error?.description.hasPrefix("n.md:2: unknown parameter ${nope}") == true)
  }

  @Test func unclosedBlockIsAnError() {
    #expect(throws: InputError.self) { try Notebook.parse("```energylab\nmodels list\n", path: "n.md") }
  }
}

struct NotebookRunnerTests {
  func scratch() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-nb-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// An executor that prints its arguments, or fails on "fail".
  let executor: CommandExecutor = { arguments, driver in
    if arguments.first == "fail" {
      throw InputError(
        .malformed, EnergyLabCore.SourceLocation(file: "x.gpx", line: 3), "broken", expected: "fine")
    }
    driver.printer.emit(
      ResultTable(name: "echo", rows: [ResultRecord(["args": .string(arguments.joined(separator: " "))])]),
      format: nil)
  }

  @Test func writesReportDataAndProvenance() throws {
    let folder = try scratch()
    try "# T\n\nText.\n\n```energylab\nhello world\n```\n".write(
      toFile: "\(folder)/t.md", atomically: true, encoding: .utf8)
    let runner = NotebookRunner(reportsDirectory: "\(folder)/Reports", reproducible: true, executor: executor)
    let out = try runner.run(notebookAt: "\(folder)/t.md")
    let report = try String(contentsOfFile: "\(out)/report.md", encoding: .utf8)
    #expect(report.contains("```sh\n$ energylab hello world\n```\n\n| args |\n| --- |\n| hello world |"))
    #expect(report.contains("## Provenance"))
    #expect(report.contains("reproducible mode"))
    #expect(try String(contentsOfFile: "\(out)/data/01-echo.csv", encoding: .utf8) == "args\nhello world\n")
    // Reproducible: a second run gives the same bytes.
    try runner.run(notebookAt: "\(folder)/t.md")
    #expect(try String(contentsOfFile: "\(out)/report.md", encoding: .utf8) == report)
  }

  @Test func failedRunLeavesThePreviousReportIntact() throws {
    let folder = try scratch()
    let notebook = "\(folder)/t.md"
    try "```energylab\nhello\n```\n".write(toFile: notebook, atomically: true, encoding: .utf8)
    let runner = NotebookRunner(reportsDirectory: "\(folder)/Reports", reproducible: true, executor: executor)
    let out = try runner.run(notebookAt: notebook)
    let before = try String(contentsOfFile: "\(out)/report.md", encoding: .utf8)
    try "```energylab\nhello again\nfail\n```\n".write(toFile: notebook, atomically: true, encoding: .utf8)
    let error = #expect(throws: RuntimeError.self) { try runner.run(notebookAt: notebook) }
    #expect(error?.message.hasSuffix("t.md:3: command failed: x.gpx:3: broken; expected fine") == true)
    #expect(try String(contentsOfFile: "\(out)/report.md", encoding: .utf8) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/Reports")
    #expect(leftovers == ["t"])
  }
}

struct CommandTests {
  /// By path, so no test changes the process's working directory (tests
  /// run in parallel).
  static let stanford = "\(packageRoot)/Datasets/reference/stanford-walking.csv"

  @Test func modelsEvalJSONCarriesUnitsInKeys() throws {
    let (driver, buffer) = Driver.buffered()
    try ModelsCommands.eval(
      id: "acsm-walking",
      input: .init(
        speedMetersPerSecond: 77.72 / 60, gradeFraction: 0.02, bodyMassKilograms: 65, durationSeconds: 600),
      format: .json, driver: driver)
    let object = try #require(JSONSerialization.jsonObject(with: Data(buffer.text.utf8)) as? [String: Any])
    #expect(object["model"] as? String == "acsm-walking")
    expectClose((object["vo2_ml_kg_min"] as? Double ?? 0), 14.06992, tolerance: 1e-9)
    expectClose((object["kcal_per_min"] as? Double ?? 0), 4.572724, tolerance: 1e-9)
    expectClose((object["energy_kcal"] as? Double ?? 0), 45.72724, tolerance: 1e-9)
    #expect((object["diagnostics"] as? [Any])?.isEmpty == true)
  }

  /// ACSM walking at an assumed 3 mph, level, over the Stanford table: each
  /// cell is 11.54672 mL/kg/min x kg x 5/1000 x minutes, so the mean over the
  /// grid is 11.54672 x (180 lb = 81.6466 kg) x 0.005 x 40 min = 188.55 kcal.
  @Test func stanfordEvaluationMeansByHand() throws {
    let (driver, buffer) = Driver.buffered()
    try EvaluateCommand.run(
      .init(
        modelIDs: ["acsm-walking"], reference: Self.stanford,
        assumptions: [try Assumption(parsing: "speed=3mph"), try Assumption(parsing: "grade=0")],
        format: .json),
      driver: driver)
    let object = try #require(JSONSerialization.jsonObject(with: Data(buffer.text.utf8)) as? [String: Any])
    let stats = try #require((object["statistics"] as? [[String: Any]])?.first)
    let expectedMean = 11.54672 * Units.kilograms(fromPounds: 180) * 0.005 * 40
    expectClose((stats["mean_predicted_kcal"] as? Double ?? 0), expectedMean, tolerance: 1e-9)
    #expect(stats["n"] as? Int == 375)
    #expect((object["assumptions"] as? [String: String]) == ["speed": "3mph", "grade": "0"])
  }

  @Test func evaluateWithoutTheUnstatedSpeedSaysSo() {
    let (driver, _) = Driver.buffered()
    let error = #expect(throws: UsageError.self) {
      try EvaluateCommand.run(
        .init(modelIDs: ["acsm-walking"], reference: Self.stanford, assumptions: []), driver: driver)
    }
    #expect(error?.message.contains("states only") == true)
    #expect(error?.remedy?.settings == [.assumption])
  }
}

/// The README's models table is the registry's, as `models list` prints it.
struct ReadmeModelsTableTests {
  @Test func readmeTableMatchesRegistry() throws {
    let readme = try String(contentsOfFile: "\(packageRoot)/README.md", encoding: .utf8)
    let begin = try #require(readme.range(of: "<!-- models-table:begin -->\n"))
    let end = try #require(readme.range(of: "<!-- models-table:end -->"))
    let table = String(readme[begin.upperBound..<end.lowerBound])
    #expect(
      table == ResultRenderer.markdown(ModelsCommands.listTable()),
      "regenerate with energylab models list --format markdown")
  }
}
