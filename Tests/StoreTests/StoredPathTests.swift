import EnergyLabCore
import Foundation
import Store
import Testing

/// The store names every file one way in every table, whatever form the
/// run named it in.
struct StoredPathTests {
  /// A folder `real/` holding `walk.gpx`, and a link `link` to `real`.
  func files() throws -> (real: String, typed: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-names-\(UUID().uuidString)"
    )
    .path
    try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
    try "<gpx/>".write(toFile: folder + "/real/walk.gpx", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/link", withDestinationPath: folder + "/real")
    let real = URL(fileURLWithPath: folder + "/real/walk.gpx").resolvingSymlinksInPath().path
    return (real, folder + "/link/./walk.gpx")
  }

  @Test func everyTableNamesTheFileAsItsInputDoes() throws {
    let (real, typed) = try files()
    var run = RunRecord(
      command: "energy", recordedAt: nil,
      inputs: [
        InputFingerprint(path: typed, sizeBytes: 6, sha256: "aa"),
        InputFingerprint(path: "shipped:factors/x.csv", sizeBytes: 1, sha256: "bb"),
      ],
      parameters: [],
      results: [
        ResultRow(subject: typed + "#2 walk", metric: "energy", value: 1, unit: "kcal"),
        ResultRow(subject: "total", metric: "energy", value: 1, unit: "kcal"),
      ])
    run.tracks = [
      TrackRow(path: typed, points: 1, startTime: nil, endTime: nil, durationSeconds: nil, distanceMeters: 0)
    ]
    run.epochs = [
      EpochRow(
        source: typed, epochStart: "2024-01-01T00:00:00Z", epochSeconds: 60, metric: "m", value: 1, unit: "")
    ]
    run.diagnostics = [
      DiagnosticRow(location: typed + ":118:7", severity: "note", code: "c", message: "m"),
      DiagnosticRow(location: typed + ":3", severity: "note", code: "c", message: "m"),
      DiagnosticRow(location: nil, severity: "note", code: "c", message: "m"),
    ]
    let stored = run.withStoredPaths()
    #expect(stored.inputs.map(\.path) == [real, "shipped:factors/x.csv"])
    #expect(stored.results.map(\.subject) == [real + "#2 walk", "total"])
    #expect(stored.tracks.map(\.path) == [real])
    #expect(stored.epochs.map(\.source) == [real])
    #expect(stored.diagnostics.map(\.location) == [real + ":118:7", real + ":3", nil])
    // The key is the key of the run named the stored way; storing again
    // changes nothing.
    let named = RunRecord(
      command: "energy", recordedAt: nil, inputs: stored.inputs, parameters: [])
    #expect(stored.runKey == named.runKey)
    #expect(stored.runKey != run.runKey)
    #expect(stored.withStoredPaths() == stored)
  }

  /// A file of a folder named as shipped data resolves to the `shipped:`
  /// name only inside `Datasets/<shipped folder>/` of a data root.
  @Test func shippedNamesOnlyForShippedFolders() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-data-\(UUID().uuidString)"
    )
    .path
    for sub in ["Datasets/factors", "Datasets/surveys"] {
      try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
      try "x".write(toFile: folder + "/" + sub + "/a.csv", atomically: true, encoding: .utf8)
    }
    // Not a data root: absolute paths.
    let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
    #expect(CanonicalPath.stored(folder + "/Datasets/factors/a.csv") == real + "/Datasets/factors/a.csv")
    // The checkout's own shipped data is a data root (beside the test binary).
    let checkoutFactors = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Datasets/factors/alter-eco-2020.csv").path
    #expect(CanonicalPath.stored(checkoutFactors) == "shipped:factors/alter-eco-2020.csv")
    let checkoutSurvey = URL(fileURLWithPath: checkoutFactors).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("surveys/stepmyhealth-demo.csv").path
    #expect(
      CanonicalPath.stored(checkoutSurvey)
        == URL(fileURLWithPath: checkoutSurvey).resolvingSymlinksInPath().path)
    #expect(CanonicalPath.stored("shipped:met/compendium-2011.csv") == "shipped:met/compendium-2011.csv")
  }
}
