import Foundation
import TestSupport
import Testing

/// `batch` over a study folder: every kind of file, skip-and-log, shards that
/// merge into exactly the unsharded results, and the same results on one
/// core or two.
struct BatchCommandTests {
  /// Runs a batch of the study stores: 4 tracks, 1 recording, 1 survey,
  /// and the broken recording's failure.
  static let studyRuns = 7

  static func study() throws -> String {
    let folder = try scratchFolder()
    let study = folder + "/study"
    for sub in ["tracks", "recordings", "surveys", ".hidden"] {
      try FileManager.default.createDirectory(atPath: study + "/" + sub, withIntermediateDirectories: true)
    }
    for k in 1...4 {
      _ = try energylab(
        ["track", "synth", "-o", "study/tracks/walk-\(k).gpx", "--duration", "\(k)min", "--seed", "\(k)"],
        in: folder)
    }
    _ = try energylab(
      ["accel", "synth", "-o", "study/recordings/rec.csv", "--leg", "walk,1min", "--rate", "50"], in: folder)
    try FileManager.default.copyItem(
      atPath: "\(packageRoot)/Datasets/surveys/stepmyhealth-demo.csv", toPath: study + "/surveys/demo.csv")
    try FileManager.default.copyItem(
      atPath: "\(packageRoot)/Tests/IngestTests/Fixtures/accel/wrong-column-count.csv",
      toPath: study + "/recordings/broken.csv")
    try "not a study file".write(toFile: study + "/.hidden/x.csv", atomically: true, encoding: .utf8)
    try "notes".write(toFile: study + "/README.md", atomically: true, encoding: .utf8)
    return folder
  }

  /// A scratch folder whose `study/` holds one copy of a shipped file.
  static func study(of file: String, as name: String) throws -> String {
    let folder = try scratchFolder()
    try FileManager.default.createDirectory(atPath: folder + "/study", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: "\(packageRoot)/\(file)", toPath: folder + "/study/" + name)
    return folder
  }

  /// A table of the store `b.sqlite` in `folder`, as `db export` gives it.
  static func rows(_ table: String, in folder: String) throws -> [[String: Any]] {
    let export = try energylab(
      ["db", "export", "--db", "b.sqlite", "--table", table, "--format", "json"], in: folder)
    return try #require(JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
  }

  /// The steps `accel summary` reports for one file.
  static func summarySteps(_ file: String, _ flags: [String] = [], in folder: String) throws -> Int? {
    let out = try energylab(["accel", "summary", file, "--format", "json"] + flags, in: folder)
    let rows = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]]
    return rows?.first?["steps"] as? Int
  }

  @Test func aStudyIsStoredShardedAndMerged() throws {
    let folder = try Self.study()
    let all = try energylab(["batch", "study", "--db", "all.sqlite"], in: folder)
    #expect(all.status == 1)
    // Two notes of the study's own (see below), and one per track or
    // recording saying the default body mass was used (no --subjects).
    #expect(
      all.stdout
        == "batch: 7 files: 4 tracks, 1 accelerometer recordings, 1 surveys stored in all.sqlite; 1 failed; 0 warnings and 7 notes stored (db export --table diagnostics)\n"
    )
    // The notes: accel synth writes g without naming the unit, and no wear
    // location was given, so the default cut-points are said.
    let noted = try energylab(
      ["db", "export", "--db", "all.sqlite", "--table", "diagnostics", "--format", "csv"], in: folder)
    #expect(noted.stdout.hasPrefix("run_id,location,severity,code,message\n"))
    // Located by the file's stored name, as its input is.
    let recording = CanonicalName.resolved(folder) + "/study/recordings/rec.csv"
    #expect(
      noted.stdout.contains(
        ",\(recording),note,unit-inferred,acceleration unit not stated; read as g"))
    #expect(
      noted.stdout.contains(
        ",\(recording),note,cut-points-default,\"no cut-points or wear location given: hildebrand-wrist-actigraph (ENMO (mg) on 5 s epochs), the default for a phone or a wrist; a device at the waist takes hildebrand-hip-actigraph (--wear-location waist)\""
      ), "\(noted.stdout)")
    #expect(all.stderr.contains("study/recordings/broken.csv:3:1: 3 fields; expected 4 fields"))
    #expect(!all.stderr.contains("\u{1B}"), "no progress bar when standard error is not a terminal")
    let info = try energylab(["db", "info", "--db", "all.sqlite", "--format", "csv"], in: folder)
    // Six files stored and the broken one's failure, a run of its own.
    #expect(info.stdout.contains("runs,7\n"))
    #expect(info.stdout.contains("tracks,4\n"))
    // Two shards, merged twice: the same results as the single run.
    for k in 1...2 {
      _ = try energylab(
        ["batch", "study", "--db", "s\(k).sqlite", "--shard", "\(k)/2", "--quiet"], in: folder)
    }
    #expect(try energylab(["db", "merge", "m.sqlite", "s1.sqlite", "s2.sqlite"], in: folder).status == 0)
    let again = try energylab(["db", "merge", "m.sqlite", "s1.sqlite", "s2.sqlite"], in: folder)
    #expect(again.stdout.hasSuffix("(7 runs)\n"))
    let same = try energylab(["db", "compare", "all.sqlite", "m.sqlite"], in: folder)
    #expect(same.status == 0, "\(same.stderr)")
    // One shard alone differs from the whole.
    let differ = try energylab(["db", "compare", "all.sqlite", "s1.sqlite"], in: folder)
    #expect(differ.status == 1)
    #expect(differ.stderr.contains("differ at line"))
  }

  @Test func oneCoreOrTwoStoreTheSameResults() throws {
    let folder = try Self.study()
    let one = try energylab(["batch", "study", "--db", "one.sqlite", "--jobs", "1"], in: folder)
    let two = try energylab(["batch", "study", "--db", "two.sqlite", "--jobs", "2"], in: folder)
    // The study's broken recording fails the batch (exit 1) in both.
    #expect(one.status == 1 && two.status == 1, "\(one.stderr)\n\(two.stderr)")
    #expect(one.stdout == two.stdout.replacingOccurrences(of: "two.sqlite", with: "one.sqlite"))
    let compared = try energylab(["db", "compare", "one.sqlite", "two.sqlite"], in: folder)
    #expect(compared.status == 0, "\(compared.stderr)")
    // Both hold every run of the study, not two empty stores.
    for store in ["one.sqlite", "two.sqlite"] {
      let runs = try energylab(
        ["db", "export", "--db", store, "--table", "runs", "--format", "json"], in: folder)
      let rows = try #require(JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]])
      #expect(rows.count == Self.studyRuns, "\(store): \(rows.count) runs")
    }
  }

  /// A phone recording on its sensor clock without a start: its summary is
  /// stored, its epochs are not (they would be dated 1 January 1970), and
  /// the warnings are said and stored with the run.
  @Test func aRecordingWithoutDatesStoresNoEpochsAndSaysWhy() throws {
    let folder = try Self.study(
      of: "Datasets/phone-steps/Samsung_Dario_Hard_Backpocket_2/accelerometer.csv.gz", as: "phone.csv.gz")
    let out = try energylab(["batch", "study", "--db", "b.sqlite"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(
      out.stdout.hasSuffix("; 0 failed; 2 warnings and 7 notes stored (db export --table diagnostics)\n"))
    #expect(out.stderr.contains("study/phone.csv.gz: warning: times are a phone's sensor clock"))
    #expect(
      out.stderr.contains(
        "study/phone.csv.gz: warning: epochs not stored: times count from the first sample, not from a date"))
    #expect(try Self.rows("epochs", in: folder).isEmpty)
    // The stored steps are those `accel summary` reports for the file.
    let reported = try #require(try Self.summarySteps("study/phone.csv.gz", in: folder))
    #expect(
      try Self.rows("results", in: folder).contains {
        $0["metric"] as? String == "steps" && $0["value"] as? Double == Double(reported)
      })
    let codes = try Self.rows("diagnostics", in: folder).compactMap { $0["code"] as? String }
    #expect(
      codes == [
        "subject-default", "accuracy-column", "sensor-clock", "no-start-time", "unit-inferred",
        "irregular-sampling", "no-counts", "cut-points-default",
        "epochs-not-stored",
      ])
  }

  /// A study of waist-worn recordings takes the waist threshold README
  /// Limits gives (`--wear-location waist`, 0.02 g): batch stores the
  /// steps `accel summary` counts with it, and the run's parameters say
  /// so, with the intensity cut-points that location takes; a batch with
  /// the defaults is a run of its own, not overwritten.
  @Test func stepSettingsReachTheStoredRuns() throws {
    let folder = try Self.study(
      of: "Datasets/waist-steps/MS001_Test5_Trial1/accelerometer.csv", as: "waist.csv")
    func stored(_ flags: [String]) throws -> (steps: Double?, threshold: Double?, wear: String?, cut: String?)
    {
      let out = try energylab(["batch", "study", "--db", "b.sqlite", "--quiet"] + flags, in: folder)
      #expect(out.status == 0, "\(out.stderr)")
      let last = try Self.rows("runs", in: folder).compactMap { $0["id"] as? Int }.max()
      let steps =
        try Self.rows("results", in: folder).last {
          $0["metric"] as? String == "steps" && ($0["run_id"] as? Int) == last
        }?["value"] as? Double
      func parameter(_ name: String) throws -> Any? {
        try Self.rows("parameters", in: folder).last {
          $0["name"] as? String == name && ($0["run_id"] as? Int) == last
        }?["value"]
      }
      return (
        steps, try parameter("step_peak_threshold_g") as? Double,
        try parameter("step_wear_location") as? String, try parameter("cut_points") as? String
      )
    }
    func summary(_ flags: [String]) throws -> Double? {
      try Self.summarySteps("study/waist.csv", flags, in: folder).map(Double.init)
    }
    let waist = try stored(["--wear-location", "waist"])
    #expect(waist.threshold == 0.02)
    #expect(waist.wear == "waist")
    // The intensity minutes stored with it were cut at the hip thresholds.
    #expect(waist.cut?.hasPrefix("hildebrand-hip-actigraph:") == true, "\(waist.cut ?? "no cut_points")")
    let waistSummary = try summary(["--step-threshold", "0.02"])
    #expect(waist.steps != nil && waist.steps == waistSummary)
    let phone = try stored([])
    #expect(phone.threshold == 0.05)
    #expect(phone.wear == "phone")
    #expect(phone.cut?.hasPrefix("hildebrand-wrist-actigraph:") == true, "\(phone.cut ?? "no cut_points")")
    let phoneSummary = try summary([])
    #expect(phone.steps == phoneSummary)
    #expect(waist.steps != phone.steps, "the threshold changes the count")
    let runs = try energylab(
      ["db", "export", "--db", "b.sqlite", "--table", "runs", "--format", "csv"], in: folder)
    #expect(runs.stdout.split(separator: "\n").count == 3, "two runs and a header: \(runs.stdout)")
  }
  /// A store's table as `db export` gives it, each row as sorted
  /// `column=value` text without the run's id, for comparing two stores.
  static func rowTexts(_ table: String, db: String, in folder: String) throws -> [String] {
    let export = try energylab(
      ["db", "export", "--db", db, "--table", table, "--format", "json"], in: folder)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
    return rows.map { row in
      row.filter { $0.key != "run_id" && $0.key != "id" }.sorted { $0.key < $1.key }
        .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }.sorted()
  }

  /// Batch computes each file's outcome from the values the single
  /// commands compute and stores it through the same driver: a track's
  /// stored summary, `tracks` row and activities are those `track summary
  /// --db` and `profile --db` store for the file; a recording's results
  /// are those of `accel summary --db` and `accel energy --db`, its days
  /// those of `accel days --db`; a survey's
  /// run is the very run `survey summary --db` stores (the same run key,
  /// parameters and rows). The single commands here are typed from the
  /// study's parent folder by relative path, batch was given the folder:
  /// the stored names agree all the same.
  @Test func eachFileStoresWhatItsSingleCommandStores() throws {
    let folder = try Self.study(of: "Datasets/commute/2020-07-06-morning.gpx", as: "morning.gpx")
    _ = try energylab(
      ["accel", "synth", "-o", "study/rec.csv", "--leg", "walk,1min", "--leg", "run,1min", "--rate", "50"],
      in: folder)
    try FileManager.default.copyItem(
      atPath: "\(packageRoot)/Datasets/surveys/stepmyhealth-demo.csv", toPath: folder + "/study/demo.csv")
    let batch = try energylab(["batch", "study", "--db", "b.sqlite", "--quiet"], in: folder)
    #expect(batch.status == 0, "\(batch.stderr)")
    let singles: [(db: String, arguments: [String])] = [
      ("t.sqlite", ["track", "summary", "study/morning.gpx"]),
      ("p.sqlite", ["profile", "study/morning.gpx", "--by", "day", "--tz", "UTC"]),
      ("a.sqlite", ["accel", "summary", "study/rec.csv"]),
      ("e.sqlite", ["accel", "energy", "study/rec.csv"]),
      ("d.sqlite", ["accel", "days", "study/rec.csv"]),
      ("s.sqlite", ["survey", "summary", "study/demo.csv"]),
    ]
    for single in singles {
      let out = try energylab(single.arguments + ["--db", single.db, "--format", "csv"], in: folder)
      #expect(out.status == 0, "\(single.arguments): \(out.stderr)")
    }
    let track = CanonicalName.resolved(folder) + "/study/morning.gpx"
    let recording = CanonicalName.resolved(folder) + "/study/rec.csv"
    let batchResults = try Self.rowTexts("results", db: "b.sqlite", in: folder)
    func of(_ file: String, energy: Bool) -> [String] {
      batchResults.filter {
        $0.contains("subject=\(file) ") && !$0.contains("subject=\(file) 20")
          && $0.contains("metric=energy_") == energy
      }
    }
    let trackResults = try Self.rowTexts("results", db: "t.sqlite", in: folder)
    #expect(!trackResults.isEmpty)
    #expect(of(track, energy: false) == trackResults)
    #expect(
      try Self.rowTexts("tracks", db: "b.sqlite", in: folder)
        == Self.rowTexts("tracks", db: "t.sqlite", in: folder))
    let activities = try Self.rowTexts("activities", db: "p.sqlite", in: folder)
    #expect(!activities.isEmpty)
    #expect(try Self.rowTexts("activities", db: "b.sqlite", in: folder) == activities)
    let accelResults = try Self.rowTexts("results", db: "a.sqlite", in: folder)
    #expect(accelResults.contains { $0.contains("metric=steps ") })
    #expect(of(recording, energy: false) == accelResults)
    let energy = try Self.rowTexts("results", db: "e.sqlite", in: folder)
    #expect(!energy.isEmpty)
    #expect(of(recording, energy: true) == energy)
    let days = try Self.rowTexts("results", db: "d.sqlite", in: folder)
    #expect(
      days.contains { $0.contains("metric=wear ") }
        && days.allSatisfy { $0.contains("subject=\(recording) 20") })
    #expect(batchResults.filter { $0.contains("subject=\(recording) 20") } == days)
    // The survey: one run, the same in both stores.
    for table in ["inputs", "parameters", "survey_results", "diagnostics"] {
      let single = try Self.rowTexts(table, db: "s.sqlite", in: folder)
      #expect(!single.isEmpty || table == "diagnostics", "\(table)")
      let stored = try Self.rowTexts(table, db: "b.sqlite", in: folder)
      #expect(single.allSatisfy(stored.contains), "\(table): \(single) not all in \(stored)")
    }
    func surveyRun(_ db: String) throws -> [String] {
      try Self.rowTexts("runs", db: db, in: folder).filter { $0.contains("command=survey summary") }
        .map { $0.split(separator: " ").filter { $0.hasPrefix("run_key=") }.joined() }
    }
    let key = try surveyRun("s.sqlite")
    #expect(key.count == 1)
    #expect(try surveyRun("b.sqlite") == key)
  }
}
