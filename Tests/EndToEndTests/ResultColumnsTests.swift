import Foundation
import TestSupport
import Testing

/// Each result that is printed and stored is declared once: its printed
/// keys are the ones the previous release printed (copied below from the
/// CSV headers the previous `energylab` wrote for these commands on these
/// shipped files), and every printed number has a stored row with the same
/// value, under the name without its unit, the unit in its own column.
struct ResultColumnsTests {
  /// A command, the keys it printed before, and how a printed row names
  /// its stored subject.
  struct Case: Sendable, CustomStringConvertible {
    var arguments: [String]
    var keys: [String]
    /// Whether a stored subject is the printed row's.
    var owns: @Sendable ([String: String], String) -> Bool
    /// For a table with a row per model, the printed row's model as it
    /// ends the stored metric's name (`energy_met_intensity`).
    var qualifier: @Sendable ([String: String]) -> String? = { _ in nil }
    /// The fewest printed numbers the case checks.
    var least = 8
    /// Printed numbers that name a row (its stored subject), not stored.
    var identifiers: Set<String> = ["activity", "lap"]
    var description: String { arguments.prefix(2).joined(separator: " ") }
  }

  static let data = "\(packageRoot)/Datasets"
  static let fixtures = "\(packageRoot)/Tests/SurveysTests/Fixtures"
  static func fileOwns(_ row: [String: String], _ subject: String) -> Bool {
    subject.hasSuffix("/" + ((row["file"] ?? "") as NSString).lastPathComponent)
  }

  static let cases: [Case] = [
    Case(
      arguments: [
        "track", "summary", "\(data)/hilly-trip/hilly-trip.gpx",
        "\(data)/power-rides/edge810-vector-ride.fit",
      ],
      keys: [
        "file", "format", "path", "tracks", "segments", "routes", "waypoints", "points", "route_points",
        "start_time", "end_time", "duration_s", "moving_time_s", "distance_2d_m", "distance_3d_m",
        "gap_count",
        "gap_distance_m", "gap_duration_s", "device_distance_m", "elevation_gain_m", "elevation_loss_m",
        "elevation_gain_recorded_m", "elevation_loss_recorded_m", "elevation_gain_cleaned_m",
        "elevation_loss_cleaned_m", "elevation_reversal_share", "elevation_gain_smoothed_m",
        "elevation_loss_smoothed_m", "elevation_gain_hysteresis_m", "elevation_loss_hysteresis_m",
        "average_speed_mps", "max_speed_mps", "max_speed_robust_mps", "grade_mean_pct", "grade_min_pct",
        "grade_max_pct", "heart_rate_mean_bpm", "heart_rate_max_bpm", "diagnostics", "work_kj",
        "mean_power_w",
        "device_work_kj", "device_calories_kcal", "laps",
      ], owns: fileOwns),
    Case(
      arguments: [
        "accel", "summary", "\(data)/device-files/GENEActiv_testfile.bin", "--calibrate", "--non-wear",
      ],
      keys: [
        "file", "format", "kind", "samples", "sample_rate_hz", "start_time", "end_time", "duration_s", "gaps",
        "steps", "enmo_mean_mg", "mad_mean_mg", "cut_points", "intensity_epoch_s", "sedentary_min",
        "light_min", "moderate_min", "vigorous_min", "mvpa_bout_min", "sedentary_bout_min",
        "sedentary_breaks",
        "diagnostics", "calibrated", "calibration_still_points", "calibration_error_before_mg",
        "calibration_error_after_mg", "calibration_offset_x_g", "calibration_scale_x",
        "calibration_offset_y_g", "calibration_scale_y", "calibration_offset_z_g", "calibration_scale_z",
        "non_wear_h", "steps_left_out",
      ], owns: fileOwns),
    Case(
      arguments: ["accel", "summary", "\(data)/accelerometer/walk-run-50hz.csv.gz"],
      keys: [
        "file", "format", "kind", "samples", "sample_rate_hz", "start_time", "end_time", "duration_s", "gaps",
        "steps", "enmo_mean_mg", "mad_mean_mg", "cut_points", "intensity_epoch_s", "sedentary_min",
        "light_min", "moderate_min", "vigorous_min", "mvpa_bout_min", "sedentary_bout_min",
        "sedentary_breaks",
        "diagnostics",
      ], owns: fileOwns),
    Case(
      arguments: ["accel", "days", "\(data)/device-files/GENEActiv_testfile.bin"],
      keys: [
        "date", "recorded_h", "wear_h", "valid", "steps", "enmo_mean_mg", "cut_points", "intensity_epoch_s",
        "sedentary_min", "light_min", "moderate_min", "vigorous_min", "mvpa_bout_min", "sedentary_bout_min",
        "sedentary_breaks", "energy_met_intensity_kcal", "energy_steps_stepmyhealth_kcal",
        "energy_steps_birdsley_2005_kcal",
      ], owns: { row, subject in subject.hasSuffix(" " + (row["date"] ?? "")) }),
    // Before one declaration for a model's energy, `accel energy` printed
    // these keys and stored `energy_met-intensity`; it now stores
    // `energy_met_intensity`, the model's row of the printed table.
    Case(
      arguments: ["accel", "energy", "\(data)/device-files/GENEActiv_testfile.bin"],
      keys: ["model", "energy_kcal", "basis"],
      owns: { _, subject in subject.hasSuffix("/GENEActiv_testfile.bin") },
      qualifier: { row in row["model"]?.replacingOccurrences(of: "-", with: "_") }, least: 3),
    Case(
      arguments: [
        "energy", "\(data)/measured/k5-hilly-walk-synthetic.csv", "--model", "acsm-walking", "--mass", "70kg",
      ],
      keys: [
        "file", "model", "body_mass_kg", "duration_s", "distance_m", "speed_mps", "grade_pct",
        "grade_min_pct",
        "grade_max_pct", "vo2_ml_kg_min", "kcal_per_min", "energy_kcal", "compared_s", "left_out_s",
        "model_compared_kcal", "measured_kcal", "difference_kcal", "treated_steps", "diagnostics",
      ], owns: fileOwns),
    Case(
      arguments: ["energy", "\(data)/hilly-trip/hilly-trip.gpx", "--by-mode", "--mass", "70kg"],
      keys: [
        "file", "activity", "mode", "mode_source", "start_time", "end_time", "model", "body_mass_kg",
        "duration_s", "distance_m", "speed_mps", "grade_pct", "grade_min_pct", "grade_max_pct",
        "vo2_ml_kg_min", "kcal_per_min", "energy_kcal", "treated_steps", "diagnostics",
      ],
      owns: { row, subject in subject.hasSuffix("#\(row["activity"] ?? "") \(row["mode"] ?? "")") }),
    Case(
      arguments: ["track", "power", "\(data)/power-rides/edge810-vector-ride.fit"],
      keys: [
        "file", "lap", "start_time", "duration_s", "distance_m", "records", "power_samples",
        "missing_as_zero",
        "missing_skipped", "work_kj", "mean_power_w", "max_power_w", "np_w", "vi", "ftp_w", "ftp_source",
        "if",
        "tss", "tss_duration_s", "hr_mean_bpm", "hr_max_bpm", "zone1_s", "zone2_s", "zone3_s", "zone4_s",
        "zone5_s", "zone6_s", "zone7_s", "device_np_w", "device_if", "device_tss", "device_ftp_w",
        "device_work_kj", "device_mean_power_w", "device_distance_m", "device_duration_s",
      ],
      owns: { row, subject in
        row["lap"] == "all" ? fileOwns(row, subject) : subject.hasSuffix(".fit#\(row["lap"] ?? "")")
      }),
    Case(
      arguments: ["power", "load", "\(data)/power-rides"],
      keys: ["date", "rides", "tss", "ctl", "atl", "tsb"],
      owns: { row, subject in subject == row["date"] }),
    // The curve's table (CSV prints the first of the three).
    Case(
      arguments: ["power", "curve", "\(data)/power-rides/edge810-vector-ride.fit", "--fit-from", "2min"],
      keys: ["duration_s", "power_w", "file", "start_offset_s"],
      owns: { row, subject in subject == "\(row["duration_s"] ?? "") s" }, identifiers: ["duration_s"]),
    Case(
      arguments: [
        "profile", "\(data)/commute/2020-07-06-morning.gpx", "\(data)/commute/2020-07-06-evening.gpx",
        "\(data)/commute/2020-07-06-late-drive.gpx", "--by", "day", "--tz", "Europe/London", "--mass", "70kg",
        "--factors", "alter-eco-2020",
      ],
      keys: [
        "bin_start", "mode", "distance_m", "duration_s", "energy_kcal", "co2_kg", "factor_set",
        "body_mass_kg",
      ], owns: { row, subject in subject == "\(row["bin_start"] ?? "") \(row["mode"] ?? "")" }),
    // The respondents' table (CSV prints it; the summary is JSON's).
    Case(
      arguments: [
        "survey", "sus", "\(fixtures)/sus.csv", "--items", "S1,S2,S3,S4,S5,S6,S7,S8,S9,S10",
      ], keys: ["respondent", "score", "items_used", "note"],
      owns: { row, subject in subject.hasSuffix(" respondent \(row["respondent"] ?? "")") },
      identifiers: ["respondent"]),
    Case(
      arguments: ["survey", "asq", "\(fixtures)/asq.csv", "--task", "T1=Ease,Time,Support"],
      keys: ["task", "n", "mean", "sd", "ci95_lower", "ci95_upper", "skipped", "coding"],
      owns: { row, subject in subject.hasSuffix(" \(row["task"] ?? "")") }, least: 6),
    Case(
      arguments: ["balance", "--user", "ann:2000:8000:2500", "--user", "bob:1800:12000:2200"],
      keys: [
        "rank", "user", "intake_kcal", "steps", "burned_kcal", "balance_kcal", "allowance_kcal", "progress",
        "colour", "points",
      ], owns: { row, subject in subject == row["user"] }),
  ]

  /// The printed suffix of each stored unit (README, results store), and
  /// the five keys of `energy` that read otherwise: written out here, not
  /// taken from the declaration they check.
  static let suffixes: [String: String] = [
    "m": "_m", "s": "_s", "min": "_min", "h": "_h", "kcal": "_kcal", "kJ": "_kj", "W": "_w", "kg": "_kg",
    "m/s": "_mps", "%": "_pct", "bpm": "_bpm", "Hz": "_hz", "mg": "_mg", "g": "_g", "g/C": "_g_per_c",
    "kcal/min": "_kcal_per_min", "mL/kg/min": "_ml_kg_min",
  ]
  static let exceptions: [String: String] = [
    "kcal_per_min": "energy_rate", "compared_s": "compared_duration", "left_out_s": "left_out_duration",
    "model_compared_kcal": "model_compared_energy", "measured_kcal": "measured_energy",
  ]

  @Test(arguments: cases)
  func printedKeysAreTodaysAndEveryPrintedNumberIsStored(_ c: Case) throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let out = try energylab(c.arguments + ["--format", "csv", "--db", "s.sqlite"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let lines = Self.csv(out.stdout)
    let header = try #require(lines.first)
    #expect(header == c.keys)
    // The stored rows as CSV (shortest exact numbers, read back exactly).
    let export = try energylab(
      ["db", "export", "--db", "s.sqlite", "--table", "results", "--format", "csv"], in: folder)
    #expect(export.status == 0, "\(export.stderr)")
    let table = Self.csv(export.stdout)
    let columns = try #require(table.first)
    let stored: [[String: Any]] = table.dropFirst().map { fields in
      var row: [String: Any] = [:]
      for (column, field) in zip(columns, fields) {
        row[column] = column == "value" ? Double(field) as Any : field
      }
      return row
    }
    // One naming rule: no stored metric ends in its own unit's suffix.
    for row in stored {
      let metric = row["metric"] as? String ?? ""
      let unit = row["unit"] as? String ?? ""
      #expect(!(Self.suffixes[unit].map { metric.hasSuffix($0) } ?? false), "\(metric) in \(unit)")
    }
    var checked = 0
    for fields in lines.dropFirst() where fields.count == header.count {
      let row = Dictionary(uniqueKeysWithValues: zip(header, fields))
      guard row["file"] != "total" else { continue }
      let mine = stored.filter { c.owns(row, $0["subject"] as? String ?? "") }
      #expect(!mine.isEmpty, "\(c): no stored rows for \(row)")
      for (key, text) in row where !c.identifiers.contains(key) {
        let number = text == "true" ? 1 : text == "false" ? 0 : Double(text)
        var names =
          [key, Self.exceptions[key]].compactMap { $0 }
          + Self.suffixes.values.filter { key.hasSuffix($0) }.map { String(key.dropLast($0.count)) }
        if let model = c.qualifier(row) { names = names.map { "\($0)_\(model)" } }
        let found = mine.filter { names.contains($0["metric"] as? String ?? "") }
        guard let number else {
          // Words are not stored; an unknown number is no row, never 0.
          #expect(found.isEmpty, "\(c) \(key) = \"\(text)\" is stored: \(found)")
          continue
        }
        #expect(found.count == 1, "\(c) \(key): \(found)")
        #expect(found.first?["value"] as? Double == number, "\(c) \(key) \(text): \(found)")
        checked += 1
      }
    }
    #expect(checked >= c.least, "\(c): \(checked) numbers checked")
  }

  /// `sweep`'s table is the error statistics' declaration: its keys are
  /// the ones the previous release printed (copied from its Markdown
  /// output), each statistic prints as `evaluate` prints it for the same
  /// model and table (same digits; on `fenton-walking-weight` the table's
  /// rows state their speed, so every swept speed gives `evaluate`'s
  /// figures), and every printed number is a stored error summary.
  @Test func sweepPrintsAndStoresTheErrorStatistics() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let sweep = [
      "sweep", "--models", "acsm-walking", "--reference", "fenton-walking-weight", "--vary", "speed",
      "--from",
      "2mph", "--to", "4mph", "--step", "1mph",
    ]
    let printed = try energylab(sweep + ["--format", "markdown", "--db", "s.sqlite"], in: folder)
    #expect(printed.status == 0, "\(printed.stderr)")
    let tables = Self.markdownTables(printed.stdout)
    let table = try #require(tables.last)
    #expect(
      table.first == [
        "model", "speed_mph", "bias_kcal", "mean_relative_difference_pct", "mape_pct", "within_20pct_share",
      ])
    let evaluate = try energylab(
      [
        "evaluate", "--models", "acsm-walking", "--reference", "fenton-walking-weight", "--format",
        "markdown",
      ],
      in: folder)
    #expect(evaluate.status == 0, "\(evaluate.stderr)")
    let reference = try #require(
      Self.markdownTables(evaluate.stdout).first { $0.first?.contains("mape_pct") ?? false })
    let expected = Dictionary(uniqueKeysWithValues: zip(reference[0], reference[1]))
    #expect(table.count == 4)
    for fields in table.dropFirst() {
      let row = Dictionary(uniqueKeysWithValues: zip(table[0], fields))
      for key in ["bias_kcal", "mape_pct", "within_20pct_share"] {
        #expect(
          row[key] == expected[key], "\(key): sweep \(row[key] ?? "-"), evaluate \(expected[key] ?? "-")")
      }
    }
    // Every printed number of the JSON document is a stored error summary
    // of its model at its speed, under its name without the unit.
    // Numbers read from the JSON text itself: JSONSerialization on Linux
    // can round the last bit of a shortest double (-12.562397736839984
    // read as ...985).
    let json = try energylab(sweep + ["--format", "json"], in: folder)
    var points: [[String: String]] = []
    let pointsStart = try #require(json.stdout.range(of: "\"points\""))
    for line in json.stdout[pointsStart.upperBound...].split(separator: "\n") {
      let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let key = parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
      let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" ,"))
      if key == "break_even" { break }
      if key == "model" { points.append([:]) }
      if !points.isEmpty { points[points.count - 1][key] = value }
    }
    let export = try energylab(
      ["db", "export", "--db", "s.sqlite", "--table", "error_summaries", "--format", "csv"], in: folder)
    let rows = Self.csv(export.stdout)
    let columns = try #require(rows.first)
    let stored = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(columns, $0)) }
    let names = [
      "bias_kcal": ("bias", "kcal"), "mean_relative_difference_pct": ("mean_relative_difference", "%"),
      "mape_pct": ("mape", "%"), "within_20pct_share": ("within_20pct_share", "fraction"),
    ]
    var checked = 0
    for point in points {
      let speed = try #require(point["speed_mph"].flatMap(Double.init))
      let reference = "fenton-walking-weight at speed=\(Int(speed))mph"
      for (key, (name, unit)) in names {
        let number = try #require(point[key].flatMap(Double.init), "\(key)")
        let found = stored.filter { $0["reference"] == reference && $0["statistic"] == name }
        #expect(found.count == 1, "\(reference) \(name): \(found)")
        #expect(found.first?["unit"] == unit)
        #expect(found.first.flatMap { $0["value"] }.flatMap(Double.init) == number, "\(reference) \(name)")
        checked += 1
      }
    }
    #expect(points.count == 3 && checked == 12)
  }

  /// `evaluate modes` prints and stores its scores from one declaration:
  /// the printed keys are the previous release's (copied from its CSV
  /// header on the shipped PALMS validation files), and each predictor's
  /// printed number is its stored error summary, in `count` or
  /// `fraction`; an unknown score is empty and not stored.
  @Test func modeScoresArePrintedAndStoredFromOneDeclaration() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let palms = "\(Self.data)/palms-mode-validation"
    let out = try energylab(
      [
        "evaluate", "modes", "\(palms)/gpx/030711_106.gpx", "\(palms)/gpx/040611_106.gpx", "--truth",
        "\(palms)/truth", "--truth-tz", "America/Los_Angeles", "--palms", "\(palms)/palms-defaults.csv",
        "--format", "csv", "--db", "s.sqlite",
      ], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let lines = Self.csv(out.stdout)
    let header = try #require(lines.first)
    #expect(
      header == [
        "predictor", "epochs", "moving_epochs", "moving_accuracy", "accuracy", "walk_as_cycle",
        "walk_precision",
        "walk_recall", "walk_f1", "cycle_precision", "cycle_recall", "cycle_f1", "vehicle_precision",
        "vehicle_recall", "vehicle_f1", "stationary_precision", "stationary_recall", "stationary_f1",
        "mixed_or_unknown_epochs", "epochs_without_fix",
      ])
    let export = try energylab(
      ["db", "export", "--db", "s.sqlite", "--table", "error_summaries", "--format", "csv"], in: folder)
    let rows = Self.csv(export.stdout)
    let columns = try #require(rows.first)
    let stored = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(columns, $0)) }
    let counts: Set<String> = ["epochs", "moving_epochs", "mixed_or_unknown_epochs", "epochs_without_fix"]
    var checked = 0
    for fields in lines.dropFirst() where fields.count == header.count {
      let row = Dictionary(uniqueKeysWithValues: zip(header, fields))
      for (key, text) in row where key != "predictor" {
        let found = stored.filter { $0["model"] == row["predictor"] && $0["statistic"] == key }
        guard let number = Double(text) else {
          #expect(found.isEmpty, "\(key) unknown but stored: \(found)")
          continue
        }
        #expect(found.count == 1, "\(row["predictor"] ?? "") \(key): \(found)")
        #expect(found.first?["unit"] == (counts.contains(key) ? "count" : "fraction"), "\(key)")
        #expect(found.first.flatMap { $0["value"] }.flatMap(Double.init) == number, "\(key) \(text)")
        checked += 1
      }
    }
    #expect(checked >= 19, "\(checked) numbers checked")
  }

  /// The tables of Markdown output, each as its header then its rows.
  static func markdownTables(_ text: String) -> [[[String]]] {
    var tables: [[[String]]] = []
    var current: [[String]] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("|") else {
        if !current.isEmpty { tables.append(current) }
        current = []
        continue
      }
      let cells = line.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      if cells.allSatisfy({ $0.hasPrefix("---") }) { continue }
      current.append(cells)
    }
    if !current.isEmpty { tables.append(current) }
    return tables
  }

  /// Fields of RFC 4180 CSV, quoted fields with commas, quotes and line
  /// breaks included.
  static func csv(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var chars = Array(text)[...]
    while let ch = chars.popFirst() {
      if quoted {
        if ch == "\"" {
          if chars.first == "\"" {
            field.append("\"")
            chars = chars.dropFirst()
          } else {
            quoted = false
          }
        } else {
          field.append(ch)
        }
      } else if ch == "\"" {
        quoted = true
      } else if ch == "," {
        row.append(field)
        field = ""
      } else if ch == "\n" {
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      } else if ch != "\r" {
        field.append(ch)
      }
    }
    if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
    return rows
  }
}
