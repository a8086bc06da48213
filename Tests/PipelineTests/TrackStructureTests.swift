import EnergyLabCore
import EnergyModels
import Estimation
import Foundation
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// The track-structure corpus: files laid out as real exporters write them
/// (Garmin Connect, GPSLogger, OsmAnd, Komoot, a route planner, Garmin TCX),
/// made by scripts/fixtures/make-track-structure-corpus.py. Their expected
/// figures come from gpxpy (structure) and geographiclib (WGS-84 geodesics)
/// through scripts/fixtures/track-structure-expectations.py, never from
/// EnergyLab.
enum StructureCorpus {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/track-structure").path

  /// Per file: its numbers (a JSON null is absent) and its strings.
  struct Expected: Sendable {
    var numbers: [String: Double] = [:]
    var strings: [String: String] = [:]
  }

  static let expected: [String: Expected] = {
    let data = FileManager.default.contents(atPath: "\(folder)/expected.json") ?? Data()
    let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    let files = root?["files"] as? [String: [String: Any]] ?? [:]
    return files.mapValues { fields in
      var e = Expected()
      for (key, value) in fields {
        if let n = value as? NSNumber { e.numbers[key] = n.doubleValue }
        if let t = value as? String { e.strings[key] = t }
      }
      return e
    }
  }()

  static var names: [String] { expected.keys.sorted() }

  static func number(_ file: String, _ key: String) -> Double? { expected[file]?.numbers[key] }
  static func integer(_ file: String, _ key: String) -> Int {
    expected[file]?.numbers[key].map { Int($0) } ?? -1
  }
  static func path(_ file: String) -> String { "\(folder)/\(file)" }
}

/// `actual` within `tolerance` of `expected`; nil only matches nil.
func close(_ actual: Double?, _ expected: Double?, tolerance: Double) -> Bool {
  switch (actual, expected) {
  case (nil, nil): return true
  case (let a?, let b?): return abs(a - b) <= tolerance
  default: return false
  }
}

struct TrackStructureTests {
  /// With the default cleaning, the sums of the recorded rises and falls
  /// are still there, as gpxpy sums them, under their own name; the
  /// headline gain is never above the recorded sum on this corpus.
  @Test(arguments: StructureCorpus.names)
  func recordedElevationStaysUnderItsName(file: String) throws {
    let path = StructureCorpus.path(file)
    let (s, _) = try TrackPipelines.summarise(
      file: path, parameters: TrackAnalysisParameters(), defaultTimeZone: nil)
    let gain = StructureCorpus.number(file, "elevation_gain_m")
    let loss = StructureCorpus.number(file, "elevation_loss_m")
    #expect(close(s.elevationGainRecordedMeters, gain, tolerance: 1e-6), "\(file)")
    #expect(close(s.elevationLossRecordedMeters, loss, tolerance: 1e-6), "\(file)")
    if let g = s.elevationGainMeters, let r = gain { #expect(g <= r + 1e-9, "\(file)") }
  }

  @Test func corpusIsThere() {
    #expect(StructureCorpus.names.count == 12)
  }

  /// Every file, read streaming (on two threads and on one) and whole:
  /// counts exactly as gpxpy counts them; distances within 1 mm (plus
  /// 1e-9 of the distance) of geographiclib's geodesics summed per segment;
  /// times exact; gaps measured.
  /// Elevation as recorded, as gpxpy and geographiclib take it (the
  /// default cleans it; `recordedElevationStaysUnderItsName` checks the
  /// default's recorded sums).
  @Test(arguments: StructureCorpus.names)
  func summaryMatchesIndependentReading(file: String) throws {
    let path = StructureCorpus.path(file)
    var parameters = TrackAnalysisParameters()
    parameters.elevationCleaning.method = .recorded
    let (streamed, header) = try TrackPipelines.summarise(
      file: path, parameters: parameters, defaultTimeZone: nil)
    let (sequential, _) = try TrackPipelines.summariseSequentially(
      file: path, parameters: parameters, defaultTimeZone: nil)
    let whole = TrackAnalysis(parameters: parameters).summary(
      of: try TrackCommands.readTrack(path, parameters: parameters))
    #expect(header.structure == streamed.structure)
    for s in [streamed, sequential, whole] {
      let e = { (key: String) in StructureCorpus.integer(file, key) }
      #expect(s.pathSource.rawValue == StructureCorpus.expected[file]?.strings["path"])
      #expect(s.structure.tracks == e("tracks"))
      #expect(s.structure.segments == e("segments"))
      #expect(s.structure.routes == e("routes"))
      #expect(s.structure.waypoints == e("waypoints"))
      #expect(s.structure.trackPoints == e("points"))
      #expect(s.structure.routePoints == e("route_points"))
      #expect(s.gapCount == e("gap_count"))
      for (key, value) in [
        ("distance_2d_m", s.distance2DMeters), ("distance_3d_m", s.distance3DMeters),
        ("gap_distance_m", s.gapDistanceMeters),
      ] {
        let expected = StructureCorpus.number(file, key) ?? .nan
        #expect(
          abs(value - expected) <= 1e-3 + 1e-9 * expected, "\(file) \(key): \(value) against \(expected)")
      }
      for (key, value) in [
        ("duration_s", s.durationSeconds), ("gap_duration_s", s.gapDurationSeconds),
        ("moving_time_s", s.movingTimeSeconds), ("elevation_gain_m", s.elevationGainMeters),
        ("elevation_loss_m", s.elevationLossMeters), ("max_speed_mps", s.maxSpeedMetersPerSecond),
        ("device_distance_m", s.deviceDistanceMeters),
      ] {
        let expected = StructureCorpus.number(file, key)
        #expect(
          close(value, expected, tolerance: 1e-6),
          "\(file) \(key): \(String(describing: value)) against \(String(describing: expected))")
      }
      // gpxpy's own approximation of the distance is within 0.5 %.
      if let gpxpy = StructureCorpus.number(file, "gpxpy_length_2d_m"), gpxpy > 0,
        file != "null-island-and-jump.gpx"
      {
        #expect(abs(s.distance2DMeters - gpxpy) / gpxpy < 0.005)
      }
    }
  }

  /// A multi-track export (8 walks tens of km apart, 3 waypoints): 4.6 km
  /// of track, not the 1,310 km of joining the tracks and far less than
  /// also travelling to the waypoints.
  @Test func tracksAreNotJoinedAndWaypointsNeverJoinThePath() throws {
    let file = "osmand-trip-8-tracks.gpx"
    let (s, _) = try TrackPipelines.summarise(
      file: StructureCorpus.path(file), parameters: TrackAnalysisParameters(), defaultTimeZone: nil)
    expectClose(s.distance2DMeters, StructureCorpus.number(file, "distance_2d_m")!, tolerance: 1e-3)
    #expect(s.distance2DMeters < 5_000)
    // Walking speeds only: the largest step speed is a walker's.
    #expect((s.maxSpeedMetersPerSecond ?? 99) < 2.5)
    #expect(s.diagnostics.contains { $0.code == "segment-gap" && $0.message.hasPrefix("7 gaps") })
  }

  /// `joinSegments` restores the joined reading: consecutive fixes of all
  /// segments are steps, waypoints still apart, once the time-step limit
  /// is above the nights between the days; under the default 6 h limit
  /// the nights stay gaps, said in a `time-gap` warning.
  @Test(arguments: [
    "garmin-connect-two-day-hike.gpx", "osmand-trip-8-tracks.gpx", "gpslogger-paused-segments.gpx",
  ])
  func joinSegmentsRestoresTheJoinedReading(file: String) throws {
    var parameters = TrackAnalysisParameters()
    parameters.joinSegments = true
    let (s, _) = try TrackPipelines.summarise(
      file: StructureCorpus.path(file), parameters: parameters, defaultTimeZone: nil)
    let joined = StructureCorpus.number(file, "joined_distance_2d_m")!
    #expect(abs(s.distance2DMeters - joined) <= 1e-3 + 1e-9 * joined)
    let track = try TrackCommands.readTrack(StructureCorpus.path(file), parameters: parameters)
    let (cut, notes) = TrackAnalysis(parameters: parameters).steps(of: track)
    let gaps = notes.contains { $0.code == "time-gap" }
    #expect(gaps ? cut.count < track.points.count - 1 : cut.count == track.points.count - 1)
    parameters.maximumStepHours = 1_000
    let steps = TrackAnalysis(parameters: parameters).steps(of: track).steps
    #expect(steps.count == track.points.count - 1)
  }

  /// No step, activity or grade window crosses a gap: the 8 walks are 8
  /// or more walking activities, each within one segment; the speed-band
  /// and Alter Eco classifiers both.
  @Test func activitiesNeverSpanAGap() throws {
    let file = StructureCorpus.path("osmand-trip-8-tracks.gpx")
    let track = try TrackCommands.readTrack(file)
    let (steps, _) = TrackAnalysis().steps(of: track)
    #expect(steps.count == track.points.count - 8)
    for step in steps {
      #expect(track.points[step.endPointIndex].segment == track.points[step.endPointIndex - 1].segment)
    }
    let activities = SpeedBandClassifier().activities(of: steps)
    #expect(activities.count >= 8)
    for a in activities {
      #expect(Set(steps[a.stepRange].map(\.segment)).count == 1)
      #expect(a.mode == .walk)
    }
    let alterEco = AlterEcoClassifier().activities(of: track.points)
    #expect(!alterEco.isEmpty)
    #expect(alterEco.allSatisfy { $0.mode == "walk-or-cycle" && $0.segment != nil })
    #expect(Set(alterEco.compactMap(\.segment)).count == 8)
  }

  /// One fix at (0, 0) and one thrown 3,000 km in a 20-minute walk: left
  /// out by default (the walk stays 1.55 km, as geographiclib sums it
  /// without them), named in a diagnostic; kept on request, when the walk
  /// becomes the 17,978 km that gpxpy reports for the file as it is.
  @Test func impossibleFixesAreLeftOutAndNamed() throws {
    let file = "null-island-and-jump.gpx"
    let path = StructureCorpus.path(file)
    let (s, _) = try TrackPipelines.summarise(
      file: path, parameters: TrackAnalysisParameters(), defaultTimeZone: nil)
    expectClose(s.distance2DMeters, StructureCorpus.number(file, "distance_2d_m")!, tolerance: 1e-3)
    let diagnostic = s.diagnostics.first { $0.code == "impossible-fix" }
    #expect(diagnostic?.message.contains("line 66 (0, 0)") == true)
    #expect(diagnostic?.message.contains("left out 2 impossible fixes") == true)
    var keep = TrackAnalysisParameters()
    keep.cleaning.dropNullIsland = false
    keep.cleaning.impossibleSpeedMetersPerSecond = nil
    keep.cleaning.impossibleJumpMeters = nil
    let (raw, _) = try TrackPipelines.summarise(file: path, parameters: keep, defaultTimeZone: nil)
    let gpxpy = StructureCorpus.number(file, "gpxpy_length_2d_m")!
    #expect(abs(raw.distance2DMeters - gpxpy) / gpxpy < 0.005)
  }

  /// Whole-track energy follows the same path: ACSM walking over the
  /// 8-track file covers 4.6 km of walking, never the gaps.
  @Test func energyFollowsThePath() throws {
    let file = "osmand-trip-8-tracks.gpx"
    let track = try TrackCommands.readTrack(StructureCorpus.path(file))
    let energy = try TrackEnergy(
      track: track, model: try ModelRegistry.model(id: "acsm-walking"),
      subject: ModelInput(bodyMassKilograms: 70))
    expectClose(energy.distanceMeters, StructureCorpus.number(file, "distance_2d_m")!, tolerance: 1e-3)
  }

  /// A route without times: a rate model cannot give energy and says so;
  /// Cameron's C = W(lb) x 0.53 x D(miles) works from distance alone:
  /// 70 kg = 154.32 lb, D from geographiclib.
  @Test func energyWithoutTimes() throws {
    let file = "route-only-planner.gpx"
    let track = try TrackCommands.readTrack(StructureCorpus.path(file))
    #expect(track.diagnostics.contains { $0.code == "path-from-routes" })
    let acsm = try TrackEnergy(
      track: track, model: try ModelRegistry.model(id: "acsm-walking"),
      subject: ModelInput(bodyMassKilograms: 70))
    #expect(acsm.stepsWithEnergy == 0)
    #expect(acsm.diagnostics.contains { $0.code == "steps-without-time" })
    let cameron = try TrackEnergy(
      track: track, model: try ModelRegistry.model(id: "cameron-walking"),
      subject: ModelInput(bodyMassKilograms: 70))
    let miles = StructureCorpus.number(file, "distance_2d_m")! / 1609.344
    let pounds = 70 / 0.45359237
    expectClose(cameron.energyKilocalories, pounds * 0.53 * miles, tolerance: 1e-6)
    #expect(cameron.diagnostics.contains { $0.code == "energy-from-distance" })
  }

  /// Empty elements are missing values with one note, not errors.
  @Test func emptyElementsAreMissingValues() throws {
    let track = try TrackCommands.readTrack(StructureCorpus.path("empty-elements.gpx"))
    #expect(track.points.count == 30)
    #expect(track.points[3].elevationMeters == nil)
    #expect(track.points[7].elevationMeters == nil)
    #expect(track.points[12].timeSecondsSince1970 == nil)
    #expect(track.name == nil)
    let note = track.diagnostics.first { $0.code == "empty-value" }
    #expect(note?.message == "empty elements read as missing values: 2 <ele>, 1 <time>, 1 <name>")
  }

  /// One fix with elevation and a waypoint at the same place: no "no
  /// elevation" warning; waypoints alone: no path, said so.
  @Test func singleFixAndWaypointsOnly() throws {
    let (single, _) = try TrackPipelines.summarise(
      file: StructureCorpus.path("single-fix-and-waypoint.gpx"), parameters: TrackAnalysisParameters(),
      defaultTimeZone: nil)
    #expect(!single.diagnostics.contains { $0.code == "no-elevation" })
    let (none, _) = try TrackPipelines.summarise(
      file: StructureCorpus.path("waypoints-only.gpx"), parameters: TrackAnalysisParameters(),
      defaultTimeZone: nil)
    #expect(none.pathSource == .none)
    #expect(none.distance2DMeters == 0)
    #expect(none.diagnostics.map(\.code).contains("no-path"))
  }
}
