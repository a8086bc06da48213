import Foundation
import Store
import Synchronization
import TestSupport
import Testing

@testable import Pipeline

struct ShardTests {
  /// Shard = 1 + (first 8 bytes of SHA-256 of the relative path, as an
  /// unsigned big-endian integer) mod N; the expected shards are from
  /// Python's hashlib: int(sha256(p).hexdigest()[:16], 16) % N + 1.
  @Test func shardsComeFromTheHashOfTheRelativePath() {
    #expect(BatchCommand.Shard.of(relativePath: "tracks/a.gpx", count: 8) == 5)
    #expect(BatchCommand.Shard.of(relativePath: "tracks/b.gpx", count: 8) == 6)
    #expect(BatchCommand.Shard.of(relativePath: "walk-2.gpx", count: 8) == 8)
    #expect(BatchCommand.Shard.of(relativePath: "tracks/a.gpx", count: 2) == 1)
    #expect(BatchCommand.Shard.of(relativePath: "surveys/demo.csv", count: 2) == 2)
  }

  @Test func shardOptionIsChecked() throws {
    #expect(try BatchCommand.Shard(parsing: "2/8") == BatchCommand.Shard(index: 2, count: 8))
    for bad in ["0/8", "9/8", "2", "a/b", "1/0"] {
      #expect(throws: (any Error).self) { try BatchCommand.Shard(parsing: bad) }
    }
  }
}

struct ProgressLineTests {
  /// 31.2 of 88 MB after 2 s: 35.5 % of the bar (8 of 24 cells), 15.6 MB/s,
  /// and 2 s / 0.3545 - 2 s = 3.64 s, so 0:04 left.
  @Test func progressLineByHand() {
    let line = ProgressBar.line(
      label: "batch", files: 412, totalFiles: 1000, bytes: 31_200_000, totalBytes: 88_000_000, elapsed: 2)
    #expect(line == "batch [########................] 412/1000 files  31.2/88.0 MB  15.6 MB/s  0:04 left")
  }

  /// The bar is drawn when the last file is done, and `end` clears its
  /// line so the next output starts clean.
  @Test func drawsTheLastFileAndClearsAtTheEnd() {
    final class Lines: @unchecked Sendable {
      var text: [String] = []
    }
    let lines = Lines()
    let bar = ProgressBar(
      label: "x", files: ["/nonexistent/a", "/nonexistent/b"], sink: { lines.text.append($0) })
    bar.finished(file: 0)
    bar.finished(file: 1)
    bar.end()
    #expect(lines.text.last == "\r\u{1B}[K")
    #expect(lines.text.dropLast().last?.contains("2/2 files") == true, "\(lines.text)")
  }
}

/// A batch is a value: each file's run goes to the sink it is given (here
/// a list, not a database), and unreadable files come back with their
/// reason.
struct BatchValueTests {
  @Test func eachRunGoesToTheSinkAndFailuresComeBack() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "batch-value-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: "\(folder)/tracks", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let morning = "\(packageRoot)/Datasets/commute/2020-07-06-morning.gpx"
    try FileManager.default.copyItem(atPath: morning, toPath: "\(folder)/tracks/morning.gpx")
    try "<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"0\"></trkpt></trkseg></trk></gpx>\n".write(
      toFile: "\(folder)/tracks/broken.gpx", atomically: true, encoding: .utf8)
    let runs = Mutex<[RunRecord]>([])
    let outcome = try BatchCommand.batch(
      .init(folders: [folder], databasePath: "\(folder)/unused.db"),
      record: { run in runs.withLock { $0.append(run) } })
    #expect(outcome.discovered == 2 && outcome.processed == 2)
    #expect(outcome.counts == [.track: 1] && outcome.stored == 1)
    #expect(outcome.failures.count == 1)
    #expect(outcome.failures.first?.contains("broken.gpx:1") == true, "\(outcome.failures)")
    let run = try #require(runs.withLock { $0 }.first)
    // Fixes in the file, counted here by the text of its <trkpt> elements.
    let fixes =
      try String(contentsOfFile: morning, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
    #expect(run.tracks.first?.points == fixes)
    #expect(!FileManager.default.fileExists(atPath: "\(folder)/unused.db"), "the sink, not the batch, stores")
  }
}
