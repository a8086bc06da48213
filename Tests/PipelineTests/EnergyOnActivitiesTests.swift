import EnergyLabCore
import EnergyModels
import Estimation
import Foundation
import Ingest
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// Energy over activities as watches write them: declared sports, laps
/// that are not gaps, descents, tracks without times, epochs that steps
/// straddle.
struct EnergyOnActivitiesTests {
  static func temporary(_ name: String, _ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-\(UUID().uuidString)-\(name)"
    ).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A TCX run as Garmin devices write it: `Sport="Running"`, laps of one
  /// `<Track>` each, a trackpoint a second heading north at `metersPerSecond`
  /// and a `DistanceMeters` that runs on across laps; after `pauseAfterLap`
  /// (1-based), the timer stops for two minutes while the runner walks 300 m
  /// on, so the next lap's `<Track>` starts 300 m away with the same
  /// `DistanceMeters`. Latitude steps use 111,257 m per degree (the WGS-84
  /// meridian degree at 51.5 N, 111,257.4 m), so the device distance is the
  /// geodesic one to well under 0.1 %.
  static func garminRun(
    laps: Int, secondsPerLap: Int, metersPerSecond: Double = 4.4, pauseAfterLap: Int? = nil
  ) -> String {
    let metersPerDegree = 111_257.0
    var latitude = 51.5
    var time = 1_593_590_400.0  // 2020-07-01T08:00:00Z
    var distance = 0.0
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
      <Activities><Activity Sport="Running"><Id>2020-07-01T08:00:00Z</Id>

      """
    for lap in 1...laps {
      let lapStart = distance
      var points = ""
      for k in 0..<secondsPerLap {
        // The first trackpoint after a pause resumes where the timer stopped.
        if k > 0 || (lap > 1 && lap - 1 != pauseAfterLap) {
          latitude += metersPerSecond / metersPerDegree
          distance += metersPerSecond
          time += 1
        }
        points += """
          <Trackpoint><Time>\(ISO8601.formatUTC(time))</Time><Position><LatitudeDegrees>\(latitude)</LatitudeDegrees><LongitudeDegrees>-0.1</LongitudeDegrees></Position><AltitudeMeters>20</AltitudeMeters><DistanceMeters>\(distance)</DistanceMeters><HeartRateBpm><Value>150</Value></HeartRateBpm></Trackpoint>

          """
      }
      xml += """
        <Lap StartTime="\(ISO8601.formatUTC(time))"><TotalTimeSeconds>\(secondsPerLap)</TotalTimeSeconds><DistanceMeters>\(distance - lapStart)</DistanceMeters><Track>
        \(points)</Track></Lap>

        """
      if lap == pauseAfterLap {
        latitude += 300 / metersPerDegree
        time += 120
      }
    }
    return xml + "</Activity></Activities></TrainingCenterDatabase>\n"
  }

  /// Three laps of 60 s: 179 steps of 4.4 m, 787.6 m, as the device's
  /// `DistanceMeters` says. Treating each lap as a gap would leave out the
  /// two steps between laps (8.8 m, 1.1 %).
  @Test func tcxLapsAreOnePath() throws {
    let path = try Self.temporary("run.tcx", Self.garminRun(laps: 3, secondsPerLap: 60))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let track = try GPXReader().read(path: path)
    #expect(Set(track.points.map(\.segment)) == [0])
    #expect(track.declaredSportBySegment == [0: "Running"])
    let summary = TrackAnalysis().summary(of: track)
    let device = try #require(track.deviceDistanceMeters)
    expectClose(device, 179 * 4.4, tolerance: 1e-6)
    #expect(abs(summary.distance2DMeters - device) / device < 0.005)
    #expect(!summary.diagnostics.contains { $0.code == "distance-differs-from-device" })
  }

  /// A timer stop between laps 2 and 3 (two minutes, 300 m walked with the
  /// device's distance standing) starts a new segment: the 300 m are not
  /// travelled, and the path is still within 0.5 % of the device's 783.2 m
  /// (178 steps of 4.4 m).
  @Test func aTimerStopBetweenLapsIsAPause() throws {
    let path = try Self.temporary("paused.tcx", Self.garminRun(laps: 3, secondsPerLap: 60, pauseAfterLap: 2))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let track = try GPXReader().read(path: path)
    #expect(Set(track.points.map(\.segment)) == [0, 1])
    #expect(track.declaredSportBySegment == [0: "Running", 1: "Running"])
    let summary = TrackAnalysis().summary(of: track)
    expectClose(track.deviceDistanceMeters, 178 * 4.4, tolerance: 1e-6)
    #expect(abs(summary.distance2DMeters - 178 * 4.4) / (178 * 4.4) < 0.005)
    #expect(track.diagnostics.contains { $0.code == "tcx-tracks-joined" && $0.message.contains("1 pauses") })
  }

  /// A run declared Running at 4.4 m/s, faster than the speed bands' 3.5
  /// m/s for running, is costed as a run by ACSM running: 4.4 m/s = 264
  /// m/min, VO2 = 0.2 x 264 + 3.5 = 56.3 mL/kg/min, x 70 / 1000 x 5 =
  /// 19.705 kcal/min. The speed bands' disagreement is a warning, never a
  /// change; a given mode overrides both.
  @Test func theDeclaredSportSetsTheMode() throws {
    let path = try Self.temporary("run.tcx", Self.garminRun(laps: 3, secondsPerLap: 60))
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options = EnergyCommand.Options(
      files: [path], modelID: "acsm-walking", subject: ModelInput(bodyMassKilograms: 70))
    options.byMode = true
    let energy = try EnergyCommand.energy(options)
    #expect(energy.parts.count == 1)
    let part = try #require(energy.parts.first)
    #expect(part.activity?.mode == .run && part.modeSource == .declared)
    #expect(part.energy.modelID == "acsm-running")
    expectClose(part.energy.kilocaloriesPerMinute, 19.705, tolerance: 19.705 * 0.002)
    #expect(energy.diagnostics.contains { $0.code == "declared-mode-contradicted" })

    options.givenMode = .walk
    let given = try EnergyCommand.energy(options)
    #expect(given.parts.allSatisfy { $0.activity?.mode == .walk && $0.modeSource == .given })
  }

  /// GPX `<trk><type>` declares the activity of the track's segments: a
  /// 1.3 m/s walk declared "cycling" is costed as cycling (7.5 MET x 70 kg
  /// / 60 = 8.75 kcal/min), with a warning that its speeds say walking.
  @Test func gpxTypeDeclaresTheActivity() throws {
    var spec = SyntheticTrackSpec()
    spec.durationSeconds = 300
    spec.speedMetersPerSecond = 1.3
    let gpx = GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test").replacingOccurrences(
      of: "<trk>", with: "<trk><type>cycling</type>")
    #expect(gpx.contains("<type>cycling</type>"))
    let path = try Self.temporary("ride.gpx", gpx)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options = EnergyCommand.Options(
      files: [path], modelID: "acsm-walking", subject: ModelInput(bodyMassKilograms: 70))
    options.byMode = true
    let energy = try EnergyCommand.energy(options)
    #expect(energy.parts.map { $0.activity?.mode } == [.cycle])
    expectClose(energy.parts[0].energy.kilocaloriesPerMinute, 8.75, tolerance: 1e-9)
    #expect(energy.diagnostics.contains { $0.code == "declared-mode-contradicted" })
  }

  /// A 10-minute walk at 1.3 m/s down a 10 % grade under ACSM walking, 70
  /// kg: as level ground, 0.1 x 78 + 3.5 = 11.3 mL/kg/min = 3.955 kcal/min,
  /// 39.55 kcal; the equation's 0.1 x 78 + 1.8 x 78 x (-0.1) + 3.5 = 7.8 -
  /// 14.04 + 3.5 = -2.74 mL/kg/min (-0.959 kcal/min) would have summed to
  /// -9.59 kcal. Every step is counted as treated, with the 39.55 + 9.59 =
  /// 49.14 kcal the treatment added.
  @Test func aDescentIsNeverCostedBelowZero() throws {
    var spec = SyntheticTrackSpec()
    spec.durationSeconds = 600
    spec.speedMetersPerSecond = 1.3
    spec.gradeFraction = -0.10
    let path = try Self.temporary(
      "descent.gpx", GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options = EnergyCommand.Options(
      files: [path], modelID: "acsm-walking", subject: ModelInput(bodyMassKilograms: 70))
    options.perFix = true
    let energy = try EnergyCommand.energy(options)
    let part = try #require(energy.parts.first)
    expectClose(part.energy.energyKilocalories, 39.55, tolerance: 39.55 * 0.01)
    #expect(part.energy.treatedSteps >= 590)
    expectClose(part.energy.treatmentEnergyChangeKilocalories, 39.55 + 9.59, tolerance: 49.14 * 0.02)
    #expect(energy.fixes.allSatisfy { $0.energyKilocalories >= 0 })
    #expect(energy.fixes.filter { $0.output.treatment?.code == "downhill-as-level" }.count >= 590)
    #expect(energy.diagnostics.contains { $0.code == "downhill-as-level" && $0.message.contains("kcal") })
    let run = EnergyCommand.runRecord(energy, options: options, inputs: [], recordedAt: nil)
    #expect(run.results.contains { $0.metric == "treated_steps" && ($0.value ?? 0) >= 590 })
  }

  /// A track without times keeps its length: 0.0009 degrees of latitude
  /// north at 51.5 N is 0.0009 x 111,257 = 100.1 m. ACSM walking needs a
  /// speed, so its energy is unknown (nil), never 0; the total over it and
  /// a timed walk says one file is left out.
  @Test func aTrackWithoutTimesKeepsItsDistance() throws {
    let gpx = """
      <?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>
      <trkpt lat="51.5000" lon="-0.1"/><trkpt lat="51.5003" lon="-0.1"/><trkpt lat="51.5006" lon="-0.1"/>
      <trkpt lat="51.5009" lon="-0.1"/></trkseg></trk></gpx>
      """
    let untimed = try Self.temporary("untimed.gpx", gpx)
    let timed = try TrackCommandResultTests.twoLegTrack()
    defer {
      try? FileManager.default.removeItem(atPath: untimed)
      try? FileManager.default.removeItem(atPath: timed)
    }
    var options = EnergyCommand.Options(
      files: [untimed, timed], modelID: "acsm-walking", subject: ModelInput(bodyMassKilograms: 70))
    let energy = try EnergyCommand.energy(options)
    expectClose(energy.parts[0].energy.distanceMeters, 100.13, tolerance: 0.2)
    #expect(!energy.parts[0].energyKnown)
    #expect(energy.partsWithUnknownEnergy == 1)
    let table = EnergyCommand.table(energy, options: options)
    #expect(table.rows[0]["energy_kcal"] == .null)
    let total = try #require(table.rows.last)
    #expect(
      total["diagnostics"]
        == .array([.string("energy over the 1 of 2 files whose energy is known; 1 left out (unknown)")]))
    // Cameron works from distance alone: 0.53 kcal/lb/mile x 154.32 lb x
    // 100.13 m / 1609.344 m = 5.089 kcal.
    options.modelID = "cameron-walking"
    options.files = [untimed]
    let cameron = try EnergyCommand.energy(options)
    expectClose(cameron.totalEnergyKilocalories, 5.089, tolerance: 0.02)
  }

  /// A step of 20 s from 50 s into the recording lies half in the first
  /// minute and half in the second; a step of 130 s from 10 s spans three.
  @Test func epochSharesFollowTime() {
    let half = EpochSplit.shares(startSeconds: 50, durationSeconds: 20, epochSeconds: 60)
    #expect(half.map(\.epoch) == [0, 1])
    expectClose(half[0].fraction, 0.5, tolerance: 1e-12)
    let long = EpochSplit.shares(startSeconds: 10, durationSeconds: 130, epochSeconds: 60)
    #expect(long.map(\.epoch) == [0, 1, 2])
    expectClose(long[0].fraction, 50.0 / 130, tolerance: 1e-12)
    expectClose(long[1].fraction, 60.0 / 130, tolerance: 1e-12)
    expectClose(long[2].fraction, 20.0 / 130, tolerance: 1e-12)
  }

  /// A 74.5-minute walk recorded every 7 s: 74 whole minutes are compared
  /// and the last half minute is left out and said; the energy of the
  /// compared epochs is each model's whole rate (ACSM walking at 1.3 m/s,
  /// 70 kg: 3.955 kcal/min; resting 1.225 kcal/min).
  @Test func agreementKeepsEveryWholeEpoch() throws {
    var spec = SyntheticTrackSpec()
    spec.durationSeconds = 4470
    spec.sampleIntervalSeconds = 7
    spec.speedMetersPerSecond = 1.3
    let path = try Self.temporary("walk.gpx", GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let agreement = try AgreementCommands.modelAgreement(
      files: [path], modelIDs: ["acsm-walking", "resting"], subject: ModelInput(bodyMassKilograms: 70),
      epochSeconds: 60, speedSmoothingFixes: 1, track: TrackAnalysisParameters())
    #expect(agreement.epochsCompared == 74 && agreement.epochsPartial == 1)
    let pair = try #require(agreement.pairs.first)
    #expect(pair.agreement.statistics.count == 74)
    expectClose(pair.agreement.statistics.bias, 3.955 - 1.225, tolerance: 0.01)
    #expect(agreement.diagnostics.contains { $0.code == "epochs-partial" })
  }
}
