import Foundation
import TestSupport
import Testing

struct TrackCommandLineTests {
  /// A batch reports each bad file, summarises the others, and exits 1 with
  /// a summary line; --fail-fast stops at the first.
  @Test func batchSkipsAndLogs() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "a.gpx", "--duration", "1min"], in: folder)
    _ = try energylab(["track", "synth", "-o", "c.gpx", "--duration", "2min"], in: folder)
    try "<gpx><trk>".write(toFile: "\(folder)/b.gpx", atomically: true, encoding: .utf8)
    let out = try energylab(["track", "summary", "a.gpx", "b.gpx", "c.gpx", "--format", "json"], in: folder)
    #expect(out.status == 1)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.compactMap { $0["file"] as? String } == ["a.gpx", "c.gpx"])
    #expect(out.stderr.contains("energylab: b.gpx:1:11: file ends inside <trk>; expected </trk> (skipped)"))
    #expect(out.stderr.contains("energylab: 1 of 3 files could not be read; 2 summarised"))
    let fast = try energylab(["track", "summary", "a.gpx", "b.gpx", "c.gpx", "--fail-fast"], in: folder)
    #expect(fast.status == 1)
    #expect(fast.stdout.isEmpty)
  }

  /// Long file lists are parsed with their tails folded (see
  /// LongArgumentLists); every file must still arrive once, in order, around
  /// options written between them, with a bad one skipped as usual.
  @Test func longFileListsKeepEveryFileInOrder() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "30s"], in: folder)
    let names = (0..<300).map { String(format: "t%03d.gpx", $0) }
    for name in names where name != "t150.gpx" {
      try FileManager.default.copyItem(atPath: "\(folder)/walk.gpx", toPath: "\(folder)/\(name)")
    }
    try "<gpx><trk>".write(toFile: "\(folder)/t150.gpx", atomically: true, encoding: .utf8)
    let arguments =
      ["track", "summary", "--format", "json"] + names[..<100] + ["--movement", "walk"] + names[100...]
    let out = try energylab(arguments, in: folder)
    #expect(out.status == 1)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.compactMap { $0["file"] as? String } == names.filter { $0 != "t150.gpx" })
    #expect(out.stderr.contains("energylab: 1 of 300 files could not be read; 299 summarised"))
    // A long list that is not a file list parses as written: `db merge`
    // takes the output first, so nothing is folded into it.
    let shards = (0..<80).map { "missing-\($0).sqlite" }
    let merge = try energylab(["db", "merge", "merged.sqlite"] + shards, in: folder)
    #expect(merge.status != 0)
    #expect(merge.stderr.contains("missing-0.sqlite"), "\(merge.stderr)")
  }

  /// `-` reads the track from standard input (a pipe): the same figures as
  /// the file, named `-`; an empty pipe is an error naming `-`.
  @Test func trackSummaryReadsStandardInput() throws {
    let folder = try scratchFolder()
    let file = "\(packageRoot)/Tests/PipelineTests/Fixtures/track-structure/gpslogger-paused-segments.gpx"
    func run(stdin: String?) throws -> Outcome {
      try energylab(
        ["track", "summary", stdin == nil ? file : "-", "--format", "csv"], in: folder,
        stdin: stdin.map { FileManager.default.contents(atPath: $0) ?? Data() })
    }
    let piped = try run(stdin: file)
    let direct = try run(stdin: nil)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout.split(separator: "\n").last?.hasPrefix("-,gpx-1.0,tracks,1,3,0,0,450,") == true)
    #expect(piped.stdout == direct.stdout.replacingOccurrences(of: file, with: "-"))
    try "".write(toFile: "\(folder)/empty", atomically: true, encoding: .utf8)
    let empty = try run(stdin: "\(folder)/empty")
    #expect(empty.status == 1)
    #expect(empty.stderr.contains("energylab: -:1:1:"))
  }

  /// A start-up fix 7 km off, 5 s before a walk: the impossible-fix rule
  /// (1,400 m/s) leaves it out by default; with impossible fixes kept,
  /// --drop-startup-jumps 500 drops it and the distance is the walk's alone
  /// (1.3 m/s x 120 s = 156 m).
  @Test func startupJumpsAreDropped() throws {
    let folder = try scratchFolder()
    var text = "<gpx version=\"1.1\"><trk><trkseg>\n"
    text += "<trkpt lat=\"50.8\" lon=\"-0.1\"><time>2020-07-01T08:00:00Z</time></trkpt>\n"
    _ = try energylab(
      [
        "track", "synth", "-o", "w.gpx", "--speed", "1.3mps", "--duration", "2min", "--start",
        "2020-07-01T08:00:05Z",
      ], in: folder)
    let walk = try String(contentsOfFile: "\(folder)/w.gpx", encoding: .utf8)
    let points = walk.split(separator: "\n").filter { $0.contains("<trkpt") }.joined(separator: "\n")
    text += points + "\n</trkseg></trk></gpx>\n"
    try text.write(toFile: "\(folder)/jump.gpx", atomically: true, encoding: .utf8)
    let byDefault = try energylab(["track", "summary", "jump.gpx", "--format", "json"], in: folder)
    let defaultRow = try #require(
      (JSONSerialization.jsonObject(with: Data(byDefault.stdout.utf8)) as? [[String: Any]])?.first)
    expectClose(defaultRow["distance_2d_m"] as? Double, 156, tolerance: 0.05, "distance_2d_m")
    #expect(
      (defaultRow["diagnostics"] as? [String])?.contains {
        $0.contains("left out 1 impossible fix") && $0.contains("line 2 (50.8, -0.1)")
      } == true)
    let raw = try energylab(
      ["track", "summary", "jump.gpx", "--keep-impossible-fixes", "--format", "json"], in: folder)
    let cleaned = try energylab(
      [
        "track", "summary", "jump.gpx", "--keep-impossible-fixes", "--drop-startup-jumps", "500", "--format",
        "json",
      ], in: folder)
    let rawRow = try #require(
      (JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? [[String: Any]])?.first)
    let cleanRow = try #require(
      (JSONSerialization.jsonObject(with: Data(cleaned.stdout.utf8)) as? [[String: Any]])?.first)
    #expect((rawRow["distance_2d_m"] as? Double ?? 0) > 7000)
    expectClose(cleanRow["distance_2d_m"] as? Double, 156, tolerance: 0.05, "distance_2d_m")
    #expect(
      (cleanRow["diagnostics"] as? [String])?.contains {
        $0.contains("cleaning dropped 1 fixes (startup-jump rule)")
      } == true)
  }

  /// Times without an offset read in --tz: 09:00 in London in July is 08:00Z.
  @Test func timesWithoutOffsetInATimeZone() throws {
    let folder = try scratchFolder()
    try
      "<gpx><trk><trkseg><trkpt lat=\"50\" lon=\"0\"><time>2020-07-01T09:00:00</time></trkpt><trkpt lat=\"50.001\" lon=\"0\"><time>2020-07-01T09:01:00</time></trkpt></trkseg></trk></gpx>"
      .write(toFile: "\(folder)/local.gpx", atomically: true, encoding: .utf8)
    let out = try energylab(
      ["track", "summary", "local.gpx", "--tz", "Europe/London", "--format", "json"], in: folder)
    let row = try #require(
      (JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])?.first)
    #expect(row["start_time"] as? String == "2020-07-01T08:00:00Z")
    let utc = try energylab(["track", "summary", "local.gpx", "--format", "json"], in: folder)
    let utcRow = try #require(
      (JSONSerialization.jsonObject(with: Data(utc.stdout.utf8)) as? [[String: Any]])?.first)
    #expect(utcRow["start_time"] as? String == "2020-07-01T09:00:00Z")
    #expect((utcRow["diagnostics"] as? [String])?.first?.contains("read as UTC") == true)
  }

  @Test func segmentsOfAJourney() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "j.gpx", "--leg", "1.3mps,0,5min", "--leg", "10mps,0,5min"], in: folder)
    let out = try energylab(["track", "segments", "j.gpx", "--format", "json"], in: folder)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    // The epoch model: walk, then a vehicle (10 m/s), cut where the legs
    // meet (each step counts in the epoch that holds its middle).
    #expect(rows.compactMap { $0["mode"] as? String } == ["walk", "vehicle"])
    #expect(rows.compactMap { $0["duration_s"] as? Double } == [300, 300])
    let bands = try energylab(
      ["track", "segments", "j.gpx", "--classifier", "speed-bands", "--format", "json"], in: folder)
    let bandRows = try #require(
      JSONSerialization.jsonObject(with: Data(bands.stdout.utf8)) as? [[String: Any]])
    #expect(bandRows.compactMap { $0["mode"] as? String } == ["walk", "bus"])
    #expect(bandRows.compactMap { $0["duration_s"] as? Double } == [300, 300])
  }
}

/// The same summaries, in the same order, whether files are read one at a
/// time or two at a time.
struct ParallelSummaryTests {
  @Test func jobsDoNotChangeResults() throws {
    let folder = try scratchFolder()
    var files: [String] = []
    for k in 0..<6 {
      _ = try energylab(
        [
          "track", "synth", "-o", "t\(k).gpx", "--duration", "\(k + 1)min", "--noise", "1", "--seed",
          "\(k + 1)",
        ], in: folder)
      files.append("t\(k).gpx")
    }
    let one = try energylab(["track", "summary", "--jobs", "1", "--format", "csv"] + files, in: folder)
    let two = try energylab(["track", "summary", "--jobs", "2", "--format", "csv"] + files, in: folder)
    #expect(one.status == 0 && two.status == 0)
    #expect(one.stdout == two.stdout)
    #expect(one.stdout.split(separator: "\n").count == 7)
  }

  /// Each damaged FIT file of the fixtures is an error naming the file and
  /// the byte, exit 1, never a crash; a file that ends early reads up to
  /// its end with --read-truncated, and says what is missing.
  @Test(arguments: [
    ("activity-filecrc.fit", "at byte 769: file CRC"),
    ("activity-activity-filecrc.fit", "at byte 1540: file CRC"),
    ("activity-settings-corruptheader.fit", "at byte 779: bytes 8-11 of the file header read \".GIT\""),
    ("activity-settings-nodata.fit", "at byte 786: the file ends inside"),
    ("activity-unexpected-eof.fit", "at byte 768: the file ends inside"),
    ("strava-android-app-201.10-b1218918.fit", "at byte 7471: a data message of local type 11 comes before"),
  ])
  func damagedFITFilesAreErrorsNamingTheByte(_ name: String, _ error: String) throws {
    let folder = try scratchFolder()
    let path = "\(packageRoot)/Tests/IngestTests/Fixtures/fit/\(name)"
    let out = try energylab(["track", "summary", path, "--format", "csv"], in: folder)
    #expect(out.status == 1)
    #expect(out.stderr.contains("energylab: \(path) \(error)"), "\(out.stderr)")
  }

  /// fitdecode reads activity-filecrc.fit's 14 records when told to skip
  /// its CRC check; --ignore-crc reads them too, with a warning naming the
  /// byte of the mismatch.
  @Test func ignoreCRCReadsADamagedFITFileAndSaysSo() throws {
    let folder = try scratchFolder()
    let path = "\(packageRoot)/Tests/IngestTests/Fixtures/fit/activity-filecrc.fit"
    let refused = try energylab(["track", "summary", path, "--format", "csv"], in: folder)
    #expect(refused.stderr.contains("--ignore-crc reads it all the same"), "\(refused.stderr)")
    let out = try energylab(["track", "summary", path, "--ignore-crc", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.first?["points"] as? Int == 14)
    let notes = rows.first?["diagnostics"] as? [String] ?? []
    #expect(notes.contains { $0.contains("byte 769") }, "\(notes)")
  }

  @Test func readTruncatedReadsAFITFileUpToItsEnd() throws {
    let folder = try scratchFolder()
    let path = "\(packageRoot)/Tests/IngestTests/Fixtures/fit/activity-unexpected-eof.fit"
    let refused = try energylab(["track", "summary", path, "--format", "csv"], in: folder)
    #expect(refused.stderr.contains("(--read-truncated reads it up to here)"), "\(refused.stderr)")
    let out = try energylab(["track", "summary", path, "--read-truncated", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.first?["points"] as? Int == 14)
    let notes = rows.first?["diagnostics"] as? [String] ?? []
    #expect(notes.contains { $0.contains("3 bytes (0.4 %) before the end its header declares") })
  }
}
