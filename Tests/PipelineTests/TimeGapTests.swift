import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// A time step longer than `maximumStepHours` is a gap: never costed, never
/// expanded into epochs or profile hours, and named in a diagnostic.
struct TimeGapTests {
  /// The reliability probe's `century.gpx`: five fixes 0.0001 degree of
  /// latitude apart heading north at 51.5 N, ten seconds apart, but the
  /// fourth dated 2121 instead of 2021. With `type`, the file declares a
  /// walk for the whole segment.
  static func century(type: String? = nil) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-century-\(UUID().uuidString).gpx"
    ).path
    let times = [
      "2021-06-01T10:00:00Z", "2021-06-01T10:00:10Z", "2021-06-01T10:00:20Z", "2121-06-01T10:00:30Z",
      "2121-06-01T10:00:40Z",
    ]
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="probe" xmlns="http://www.topografix.com/GPX/1/1">
      <trk>\(type.map { "<type>\($0)</type>" } ?? "")<trkseg>

      """
    for (k, time) in times.enumerated() {
      xml +=
        "<trkpt lat=\"\(51.5 + 0.0001 * Double(k))\" lon=\"-0.1\"><ele>10</ele><time>\(time)</time></trkpt>\n"
    }
    xml += "</trkseg></trk>\n</gpx>\n"
    try xml.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// By hand: a meridian degree at 51.5 N is 111,257.8 m (111,132.954 -
  /// 559.822 cos 2phi + 1.175 cos 4phi), so each step is 11.126 m in 10 s,
  /// 1.1126 m/s = 66.75 m/min. ACSM walking (ACSM's Guidelines, 10th ed.,
  /// Table 6.3): VO2 = 0.1 x 66.75 + 3.5 = 10.175 mL/kg/min; 70 kg: 10.175 x
  /// 70 / 1000 x 5 = 3.561 kcal/min. Three timed steps of 10 s before and
  /// after the gap: 30 s, 1.781 kcal. The 100-year step is not costed (the
  /// probe saw 64,428,338 kcal) and not travelled: 3 x 11.126 = 33.38 m.
  @Test func aCenturyStepIsAGapNotEnergy() throws {
    let file = try Self.century()
    defer { try? FileManager.default.removeItem(atPath: file) }
    var subject = ModelInput()
    subject.bodyMassKilograms = 70
    let energy = try EnergyCommand.energy(
      EnergyCommand.Options(files: [file], modelID: "acsm-walking", subject: subject))
    expectClose(energy.totalDurationSeconds, 30, tolerance: 1e-9)
    expectClose(energy.totalEnergyKilocalories, 1.781, tolerance: 0.002)
    expectClose(energy.totalDistanceMeters, 33.38, tolerance: 0.02)
    let gap = try #require(energy.diagnostics.first { $0.code == "time-gap" })
    // The fourth fix is on line 7 of the file.
    #expect(gap.location == "\(file):7" && gap.severity == .warning)
    #expect(gap.message.contains("100.0 years from 2021-06-01T10:00:20Z to 2121-06-01T10:00:30Z"))
    #expect(gap.message.contains("6 h"))
    #expect(energy.parameters.contains { $0.name == "max_step_h" && $0.value == "6" })
  }

  /// `track summary` cuts the path at the gap as the steps do: 3 steps of
  /// 11.126 m (33.38 m) and 30 s of moving time, not the 100-year step; the
  /// duration is still first to last time, and the warning names the step.
  @Test func theSummaryDoesNotTravelTheGap() throws {
    let file = try Self.century()
    defer { try? FileManager.default.removeItem(atPath: file) }
    let (s, _) = try TrackPipelines.summarise(
      file: file, parameters: TrackAnalysisParameters(), defaultTimeZone: nil)
    expectClose(s.distance2DMeters, 33.38, tolerance: 0.02)
    #expect(s.movingTimeSeconds == 30)
    #expect(s.durationSeconds == 3_155_673_640)
    #expect(s.diagnostics.contains { $0.code == "time-gap" && $0.location == "\(file):7" })
  }

  /// A limit above the step costs it again, as before: the limit is what
  /// decides, and it is a parameter.
  @Test func theLimitIsAParameter() throws {
    let file = try Self.century()
    defer { try? FileManager.default.removeItem(atPath: file) }
    var parameters = TrackAnalysisParameters()
    parameters.maximumStepHours = 1_000_000
    let track = try TrackCommands.readTrack(file, parameters: parameters)
    let (steps, diagnostics) = TrackAnalysis(parameters: parameters).steps(of: track)
    #expect(steps.count == 4 && !diagnostics.contains { $0.code == "time-gap" })
    parameters.maximumStepHours = 6
    let (cut, notes) = TrackAnalysis(parameters: parameters).steps(of: track)
    #expect(cut.count == 3 && notes.filter { $0.code == "time-gap" }.count == 1)
    #expect(cut.map(\.followsTimeGap) == [false, false, true])
    #expect(cut.allSatisfy { $0.durationSeconds == 10 })
  }

  /// Agreement makes no epoch of the gap: the four timed fixes cover two
  /// 60 s epochs in part (10:00:00-10:00:20 and 2121's 20 s), none wholly,
  /// where the probe saw memory pass 3 GB.
  @Test func agreementMakesNoEpochOfTheGap() throws {
    let file = try Self.century()
    defer { try? FileManager.default.removeItem(atPath: file) }
    var subject = ModelInput()
    subject.bodyMassKilograms = 70
    let agreement = try AgreementCommands.modelAgreement(
      files: [file], modelIDs: ["acsm-walking", "pandolf-1977"], subject: subject, epochSeconds: 60,
      speedSmoothingFixes: 1, track: TrackAnalysisParameters())
    #expect(agreement.epochs.isEmpty)
    #expect(agreement.diagnostics.contains { $0.code == "time-gap" })
    #expect(agreement.diagnostics.contains { $0.message.contains("0 of 2 60 s epochs") })
  }

  /// Hourly profiles hold the hour of 2021 and the hour of 2121, not the
  /// 876,600 hours between (the probe wrote 84 MB); a declared walk is cut
  /// at the gap the same way.
  @Test(arguments: [nil, "walking"])
  func profileHoursSkipTheGap(type: String?) throws {
    let file = try Self.century(type: type)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let options = ProfileCommand.Options(files: [file], binning: .hour, timeZone: .utc)
    let profile = try ProfileCommand.profile(options)
    #expect(profile.activities.count == 2)
    #expect(profile.bins.map(\.label) == ["2021-06-01T10:00:00+00:00", "2121-06-01T10:00:00+00:00"])
    expectClose(profile.bins.reduce(0) { $0 + $1.durationSeconds }, 30, tolerance: 1e-9)
  }
}

/// `track plot` of a track with one timed fix said "fixes without times".
struct OneFixPlotTests {
  @Test func aOneFixTrackSaysOneFix() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-onefix-\(UUID().uuidString).gpx"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try """
    <?xml version="1.0"?>
    <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
    <trkpt lat="51.5" lon="-0.1"><time>2021-06-01T10:00:00Z</time></trkpt>
    </trkseg></trk></gpx>
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let error = #expect(throws: InputError.self) {
      try TrackCommands.plot(file: path, parameters: TrackAnalysisParameters())
    }
    #expect(
      error?.description
        == "\(path): one fix (with a time), so no step; expected two or more fixes to plot speed")
  }
}
