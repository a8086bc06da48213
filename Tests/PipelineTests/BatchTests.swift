import Foundation
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
