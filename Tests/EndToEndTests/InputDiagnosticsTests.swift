import Foundation
import TestSupport
import Testing

/// What the readers noticed about an input reaches the user of every
/// command, not only the summaries that list it in a column; and a
/// recording whose times are not instants is not given dates.
struct InputDiagnosticsTests {
  static let phone =
    "\(packageRoot)/Datasets/phone-steps/Samsung_Dario_Hard_Backpocket_2/accelerometer.csv.gz"
  static let jump = "\(packageRoot)/Tests/PipelineTests/Fixtures/track-structure/null-island-and-jump.gpx"

  /// A phone's sensor clock without --start: the epochs are printed, and
  /// standard error says how the file was read (these notes were reported
  /// by `accel summary` only).
  @Test func epochsSayHowAPhoneFileWasRead() throws {
    let out = try energylab(["accel", "epochs", Self.phone, "--format", "csv"], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout.hasPrefix("start,"))
    // 290 Hz: outside the rates the ActiGraph count filter is defined for.
    #expect(out.stderr.contains("no ActiGraph counts: the count filter is defined for 30, 40, ..., 100 Hz"))
    for tag in ["[accuracy-column]", "[sensor-clock]", "[no-start-time]", "[unit-inferred]", "[no-counts]"] {
      #expect(out.stderr.contains("\(Self.phone): "), "file named")
      #expect(out.stderr.contains(tag), "\(tag) on standard error")
    }
  }

  /// Days, the hour-of-day profile and the charts by local time need
  /// instants: times counted from the first sample would be dated 1
  /// January 1970. Without --start they are refused, naming the file and
  /// the option; with it, the day is the start's.
  @Test(arguments: [
    (["days"], "no days"), (["energy", "--hourly"], "no hours of the day"),
    (["plot", "--charts", "charts"], "no local times to plot against"),
  ])
  func noDatesWithoutAStart(command: [String], missing: String) throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let out = try energylab(["accel"] + command + [Self.phone, "--format", "csv"], in: folder)
    #expect(out.status != 0)
    #expect(!out.stdout.contains("1970"), "\(out.stdout)")
    #expect(
      out.stderr.contains(
        "\(Self.phone): times count from the first sample, not from a date, so there are \(missing); give the time of the first sample with --start"
      ))
    let charts = (try? FileManager.default.contentsOfDirectory(atPath: "\(folder)/charts")) ?? []
    #expect(charts.isEmpty, "no chart drawn: \(charts)")
  }

  @Test func daysOfAPhoneFileWithAStart() throws {
    let out = try energylab(
      ["accel", "days", Self.phone, "--start", "2020-06-01T09:30:00+01:00", "--format", "csv"],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let lines = out.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.last?.hasPrefix("2020-06-01,") == true, "\(out.stdout)")
  }

  /// Fixes left out of a track are said by the commands that use the track
  /// (they were listed by `track summary` only).
  @Test(arguments: [["track", "segments"], ["profile"]])
  func leftOutFixesAreSaid(command: [String]) throws {
    let out = try energylab(command + [Self.jump], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stderr.contains("\(Self.jump): warning: left out 2 impossible fixes"), "\(out.stderr)")
  }

  /// Columns chosen without `diagnostics` leave the readers' notes out of
  /// the table: they are printed on standard error instead; chosen with
  /// it, they are in the table and not repeated.
  @Test func chosenColumnsWithoutDiagnosticsStillSayThem() throws {
    let without = try energylab(
      ["accel", "summary", Self.phone, "--columns", "file,steps"], in: packageRoot)
    #expect(without.status == 0, "\(without.stderr)")
    #expect(!without.stdout.contains("[sensor-clock]"))
    #expect(without.stderr.contains("\(Self.phone): note: times like"), "\(without.stderr)")
    let with = try energylab(
      ["accel", "summary", Self.phone, "--columns", "file,steps,diagnostics"], in: packageRoot)
    #expect(with.stdout.contains("[sensor-clock]"))
    #expect(!with.stderr.contains("[sensor-clock]"), "\(with.stderr)")
  }

  /// Step detection works on raw acceleration; a file of epochs keeps its
  /// own steps column, so step settings given for it change nothing, and
  /// that is said rather than passed over.
  @Test(arguments: [["--step-threshold", "0.03"], ["--no-step-gap-fill"], []])
  func stepSettingsForEpochsAreSaidToChangeNothing(settings: [String]) throws {
    let counts = "\(packageRoot)/Datasets/accelerometer/day-counts-60s.csv"
    let out = try energylab(
      ["accel", "summary", counts, "--format", "json"] + settings, in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(
      out.stdout.contains(
        "step detection settings were given but the file holds epochs, not raw acceleration: its steps are its own steps column [step-options-unused]"
      ) == !settings.isEmpty, "\(out.stdout)")
  }

  /// On a file of ENMO epochs the step settings change nothing but the
  /// wear location still chooses the default cut-points (Hildebrand's hip
  /// thresholds at the waist), and the warning says so instead of calling
  /// it unused. A counts file keeps Freedson's whatever the location.
  @Test func aWearLocationForEpochsIsSaidToChooseTheCutPoints() throws {
    let enmo = "\(packageRoot)/Tests/IngestTests/Fixtures/accel/ukbiobank-epoch.csv"
    let counts = "\(packageRoot)/Datasets/accelerometer/day-counts-60s.csv"
    let out = try energylab(
      [
        "accel", "summary", enmo, counts, "--wear-location", "waist", "--format", "csv", "--columns",
        "cut_points",
      ],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout.split(separator: "\n").dropFirst() == ["hildebrand-hip-actigraph", "freedson-1998"])
    #expect(
      out.stderr.contains(
        "no steps are reported; the wear location still chose the intensity cut-points (hildebrand-hip-actigraph) [step-options-unused]"
      ), "\(out.stderr)")
    #expect(out.stderr.contains("its steps are its own steps column [step-options-unused]"), "\(out.stderr)")
  }

  /// Count cut-points on a phone at 290 Hz: no counts, so no intensity
  /// classes; the minutes are null, not 0 minutes of every class.
  @Test func noIntensityClassesGiveNullMinutes() throws {
    let out = try energylab(
      ["accel", "summary", Self.phone, "--cut-points", "freedson-1998", "--format", "json"], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let row = try #require(
      (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])?.first)
    for key in ["sedentary_min", "light_min", "moderate_min", "vigorous_min"] {
      #expect(row[key] is NSNull, "\(key): \(String(describing: row[key]))")
    }
    // Steps are still counted: the foot switches' 278 (the data set's
    // stats.csv) within 5 %.
    let steps = try #require(row["steps"] as? Int)
    #expect(abs(Double(steps - 278)) <= 0.05 * 278, "\(steps) steps")
  }

  /// A GENEActiv file's times are local in its header's zone, and so are
  /// its days: a second before and after midnight at GMT +01:00 is two
  /// days, although both are 22:59-23:00 UTC on the first.
  @Test func geneActivDaysAreLocalToItsHeaderZone() throws {
    let folder = try scratchFolder()
    var text = "Device Type,GENEActiv\nMeasurement Frequency,10 Hz\nTime Zone,GMT +01:00\n"
    for line in 4...100 { text += line == 54 ? "Units,g\n" : "\n" }
    for k in 0..<20 {
      let second = k < 10 ? "2021-06-01 23:59:59" : "2021-06-02 00:00:00"
      text += "\(second):\(String(format: "%03d", (k % 10) * 100)),0.0,0.0,1.0,0,0,25.0\n"
    }
    try text.write(toFile: "\(folder)/day.csv", atomically: true, encoding: .utf8)
    let out = try energylab(["accel", "days", "day.csv", "--format", "csv"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let dates = out.stdout.split(separator: "\n").dropFirst().map { $0.prefix(10) }
    #expect(dates == ["2021-06-01", "2021-06-02"], "\(out.stdout)")
    #expect(out.stderr.contains("times read in the header's time zone, GMT +01:00"))
  }
}
