import EnergyLabCore
import Foundation
import Testing
import Tracks

@testable import Pipeline

/// CTL, ATL and TSB by hand (exponentially weighted daily TSS, 42- and
/// 7-day time constants) and over the three shared rides with power.
struct TrainingLoadTests {
  /// TSS 100, 0, 100 on three days: CTL 100/42 = 2.380952, then
  /// 2.380952 * 41/42 = 2.324263, then 2.324263 + (100 - 2.324263)/42 =
  /// 4.649876; ATL 100/7 = 14.285714, 12.244898, 12.244898 + (100 -
  /// 12.244898)/7 = 24.781341; TSB of day 3 = 2.324263 - 12.244898.
  @Test func byHand() {
    let days = TrainingLoad().days([0: (100, 1), 2: (100, 1)])
    #expect(days.map(\.day) == [0, 1, 2])
    #expect(abs(days[0].ctl - 100.0 / 42) < 1e-12)
    #expect(abs(days[1].ctl - 100.0 / 42 * 41 / 42) < 1e-12)
    let ctl2 = 100.0 / 42 * 41 / 42 + (100 - 100.0 / 42 * 41 / 42) / 42
    #expect(abs(days[2].ctl - ctl2) < 1e-12)
    let atl1 = 100.0 / 7 * 6 / 7
    #expect(abs(days[2].atl - (atl1 + (100 - atl1) / 7)) < 1e-12)
    #expect(abs(days[2].tsb - (100.0 / 42 * 41 / 42 - atl1)) < 1e-12)
    #expect(days[0].tsb == 0)
    #expect(days[1].tss == 0 && days[1].rides == 0)
  }

  /// The indoor ride (2011-11-02, TSS 50.84 at its own FTP 250 W, as the
  /// device's 50.8) opens the series; the Edge 810 ride (2013-08-16)
  /// comes 653 days later; the ELEMNT BOLT ride (2017-08-21) last. A ride
  /// without an FTP is named and left out, never counted as 0.
  @Test func sharedRides() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../IngestTests/Fixtures/fit").standardized.path
    let files = [
      "sample-activity-indoor-trainer.fit", "Edge810-Vector-2013-08-16-15-35-10.fit",
      "elemnt-bolt-no-application-id-inside-developer-data-id.fit", "garmin-edge-820-bike.fit",
    ].map { "\(folder)/\($0)" }
    let r = try TrainingLoadCommand.compute(
      paths: files, power: PowerParameters(), ftpWatts: nil, track: TrackAnalysisParameters(),
      zone: TimeZone(identifier: "UTC")!, zoneName: "UTC")
    let table = TrainingLoadCommand.table(r)
    #expect(
      table.rows.map { $0["date"] } == [.string("2011-11-02"), .string("2013-08-16"), .string("2017-08-21")])
    let first = try #require(r.days.first)
    // The indoor Edge: 50.851 over its series filled to 1 Hz, device 50.8
    // (`PowerTests.trainingStressScoreAgainstTheDevices`).
    #expect(abs(first.tss - 50.8) < 0.06)
    #expect(abs(first.ctl - first.tss / 42) < 1e-12)
    #expect(abs(first.atl - first.tss / 7) < 1e-12)
    let edge = try #require(r.days.first { TrainingLoadCommand.dateText($0.day) == "2013-08-16" })
    #expect(edge.day - first.day == 653)
    #expect(
      r.diagnostics.contains {
        $0.code == "ride-without-tss" && $0.location?.hasSuffix("garmin-edge-820-bike.fit") == true
      })
    #expect(r.rides.count == 4)
  }
}
