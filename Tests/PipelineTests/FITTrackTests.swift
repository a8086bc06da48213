import EnergyLabCore
import Foundation
import Ingest
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// FIT files reach every track command through `readTrack`, told from GPX
/// and TCX by their content.
struct FITTrackTests {
  static let fixtures = packageRoot + "/Tests/IngestTests/Fixtures/fit"

  /// A copy of a FIT fixture under a name that says GPX.
  func misnamedCopy(_ name: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("activity.gpx").path
    try FileManager.default.copyItem(atPath: Self.fixtures + "/" + name, toPath: path)
    return path
  }

  @Test func fitIsToldByContentNotByName() throws {
    let path = try misnamedCopy("garmin-fenix-5-run.fit")
    defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
    let (track, header) = try TrackCommands.readTrackAndHeader(
      path, parameters: TrackAnalysisParameters(), defaultTimeZone: nil)
    #expect(header.format == "fit")
    // fitdecode: 21 records, all with a position; one running session.
    #expect(track.points.count == 21)
    #expect(track.declaredSportBySegment == [0: "running"])
    #expect(track.declaredSportBySegment.values.compactMap { TransportMode(declaredSport: $0) } == [.run])
    #expect(header.fit?.userProfile?.bodyMassKilograms == 68)
  }

  @Test func summariesReadFIT() throws {
    let files = ["Edge810-Vector-2013-08-16-15-35-10.fit", "garmin-fenix-5-run.fit"].map {
      Self.fixtures + "/" + $0
    }
    let found = TrackCommands.summaries(files: files, parameters: TrackAnalysisParameters(), jobs: 1)
    for result in found.results {
      let (summary, header) = try result.get()
      #expect(header.format == "fit")
      #expect(summary.structure.trackPoints > 0)
    }
    let (edge, _) = try found.results[0].get()
    // fitdecode: 4,700 records with a position; the session's
    // total_distance 41,339.38 m.
    #expect(edge.structure.trackPoints == 4700)
    expectClose(edge.deviceDistanceMeters, 41_339.38, tolerance: 1e-6, "device distance")
  }
}
