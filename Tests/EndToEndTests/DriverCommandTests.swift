import Foundation
import TestSupport
import Testing

/// What commands store through the one driver, as a user sees it: every
/// command that computes results takes `--db`, and a file the command line
/// reads for the options is an input of the run.
struct DriverCommandTests {
  func table(_ name: String, db: String, in folder: String) throws -> [[String: Any]] {
    let export = try energylab(["db", "export", "--db", db, "--table", name, "--format", "json"], in: folder)
    #expect(export.status == 0, "\(export.stderr)")
    return try #require(JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
  }

  /// A subjects file read by the command line is an input of the run and
  /// the subject id a parameter: two participants with the same body mass
  /// are two runs, where before the second replaced the first.
  @Test func aSubjectsFileIsAnInputAndTheSubjectAParameter() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let synth = try energylab(
      ["track", "synth", "-o", "w.gpx", "--speed", "1.3mps", "--duration", "2min"], in: folder)
    #expect(synth.status == 0, "\(synth.stderr)")
    try "id,body_mass_kg\nP1,70\nP2,70\n".write(
      toFile: "\(folder)/subjects.csv", atomically: true, encoding: .utf8)
    for id in ["P1", "P2"] {
      let out = try energylab(
        [
          "energy", "w.gpx", "--model", "acsm-walking", "--subjects", "subjects.csv", "--subject", id, "--db",
          "s.sqlite",
        ], in: folder)
      #expect(out.status == 0, "\(out.stderr)")
    }
    #expect(try table("runs", db: "s.sqlite", in: folder).count == 2)
    let inputs = try table("inputs", db: "s.sqlite", in: folder)
    #expect(inputs.filter { ($0["path"] as? String)?.hasSuffix("subjects.csv") == true }.count == 2)
    let subjects = try table("parameters", db: "s.sqlite", in: folder).filter {
      $0["name"] as? String == "subject"
    }
    #expect(subjects.compactMap { $0["value"] as? String }.sorted() == ["P1", "P2"])
  }

  /// The MET table `--activity` looks the MET up in is an input of the
  /// run (by its shipped name), and the activity code a parameter (run from
  /// the project, where the table is).
  @Test func theMETTableOfActivityIsAnInput() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = try energylab(
      ["track", "synth", "-o", "w.gpx", "--speed", "1.3mps", "--duration", "2min"], in: folder)
    let out = try energylab(
      [
        "energy", "\(folder)/w.gpx", "--model", "met", "--activity", "17170", "--mass", "70kg", "--db",
        "\(folder)/m.sqlite",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let inputs = try table("inputs", db: "m.sqlite", in: folder).compactMap { $0["path"] as? String }
    // Shipped data is stored by its stable name, wherever it was found.
    #expect(inputs.contains("shipped:met/compendium-2011.csv"), "\(inputs)")
    let parameters = try table("parameters", db: "m.sqlite", in: folder)
    // The export prints a value that reads as a number as one.
    #expect(
      parameters.contains { $0["name"] as? String == "met_activity" && "\($0["value"] ?? "")" == "17170" },
      "\(parameters)")
  }

  /// `sweep --db` stores each model's statistics at each swept value in the
  /// error-summary vocabulary, and the break-even. ACSM walking on the
  /// Stanford table at 2, 2.5 and 3 mph: three values, each with its bias
  /// in the table's unit (kcal), the value in the reference's name.
  @Test func sweepStoresItsStatistics() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let out = try energylab(
      [
        "sweep", "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "speed", "--from",
        "2mph", "--to", "3mph", "--step", "0.5mph", "--assume", "grade=0", "--db", "\(folder)/w.sqlite",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try table("error_summaries", db: "w.sqlite", in: folder)
    let biases = rows.filter { $0["statistic"] as? String == "bias" }
    #expect(
      biases.compactMap { $0["reference"] as? String }
        == [
          "stanford-walking at speed=2mph", "stanford-walking at speed=2.5mph",
          "stanford-walking at speed=3mph",
        ])
    #expect(biases.allSatisfy { $0["unit"] as? String == "kcal" })
    #expect(
      rows.contains { $0["statistic"] as? String == "break_even_speed" && $0["unit"] as? String == "mph" })
  }

  /// `accel summary --db` stores the summary's numbers with their units.
  /// The three minutes of counts (see AccelCommandTests): 50 counts/min is
  /// sedentary (below 100), 3000 moderate (1952-5724), 6000 vigorous (5725
  /// and above) under Freedson's cut-points: one minute each.
  @Test func accelCommandsStore() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try AccelCommandTests.oneSecondCounts(AccelCommandTests.threeMinutes, in: folder)
    for command in [["summary"], ["days"], ["energy"], ["epochs"]] {
      let out = try energylab(["accel"] + command + ["counts-1s.csv", "--db", "a.sqlite"], in: folder)
      #expect(out.status == 0, "\(command): \(out.stderr)")
    }
    let runs = try table("runs", db: "a.sqlite", in: folder).compactMap { $0["command"] as? String }
    #expect(runs.count == 4, "\(runs)")
    let results = try table("results", db: "a.sqlite", in: folder)
    func result(_ metric: String) -> [String: Any]? { results.first { $0["metric"] as? String == metric } }
    // Stored under the name without its unit (`sedentary`, in min).
    for metric in ["sedentary", "moderate", "vigorous"] {
      #expect(result(metric)?["value"] as? Double == 1 && result(metric)?["unit"] as? String == "min")
    }
    #expect(result("intensity_epoch")?["unit"] as? String == "s")
    // `accel epochs` stores one row per epoch (`accel_epochs`): 3 minutes
    // of one-second counts are 3 one-minute epochs.
    #expect(try table("accel_epochs", db: "a.sqlite", in: folder).count == 3)
    #expect(try table("epochs", db: "a.sqlite", in: folder).isEmpty)
  }

  /// `survey sus --db` stores each score and the summary. SUS (Brooke
  /// 1996) = 2.5 x (sum of odd items - 5 + 25 - sum of even items): all 3s
  /// give 2.5 x (10 + 10) = 50; odd 5s and even 1s give 2.5 x (20 + 20) =
  /// 100; their mean is 75.
  @Test func surveyCommandsStore() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let header = "id," + (1...10).map { "Q\($0)" }.joined(separator: ",")
    let middle = "r1," + Array(repeating: "3", count: 10).joined(separator: ",")
    let best = "r2," + (1...10).map { $0 % 2 == 1 ? "5" : "1" }.joined(separator: ",")
    try [header, middle, best].joined(separator: "\n").appending("\n").write(
      toFile: "\(folder)/sus.csv", atomically: true, encoding: .utf8)
    let out = try energylab(["survey", "sus", "sus.csv", "--db", "s.sqlite"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let results = try table("results", db: "s.sqlite", in: folder)
    let mean = try #require(results.first { $0["metric"] as? String == "mean" })
    expectClose(mean["value"] as? Double, 75, tolerance: 1e-9, "SUS mean")
    let scores = results.filter { $0["metric"] as? String == "score" }.compactMap {
      $0["value"] as? Double
    }
    #expect(scores.sorted() == [50, 100])
    let inputs = try table("inputs", db: "s.sqlite", in: folder)
    #expect(inputs.count == 1 && (inputs[0]["path"] as? String)?.hasSuffix("sus.csv") == true)
  }
}
