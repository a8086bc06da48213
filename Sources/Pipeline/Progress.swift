import EnergyLabCore
import Foundation
import Synchronization

/// A progress bar for long work: files done and failed, bytes, rate and
/// time left, redrawn in place at most ten times a second on a terminal,
/// or written as a line at a fixed interval to a log (a Slurm task's
/// standard error). Silent without a display (`--quiet`).
package final class ProgressBar: Sendable {
  /// Where progress goes: a bar redrawn in place, or a plain line every
  /// `every` seconds.
  package enum Display: Sendable {
    case bar(@Sendable (String) -> Void)
    case log(@Sendable (String) -> Void, every: Double)
  }

  /// What changes as files are read, behind one lock: readers on several
  /// threads report into it.
  private struct State {
    var files = 0
    var failed = 0
    var finishedBytes = 0
    var partialBytes: [Int: Int] = [:]
    var lastDrawn = Date.distantPast
    var drawn = false
  }

  private let state = Mutex(State())
  private let display: Display?
  private var sink: (@Sendable (String) -> Void)? {
    switch display {
    case .bar(let sink), .log(let sink, _): sink
    case nil: nil
    }
  }
  private let label: String
  private let sizes: [Int]
  private var totalFiles: Int { sizes.count }
  private let totalBytes: Int
  private let started = Date()

  /// A bar over `files`, their sizes read from the file system.
  package init(label: String, files: [String], display: Display?) {
    self.label = label
    sizes = files.map(FileStatus.size)
    totalBytes = sizes.reduce(0, +)
    self.display = display
  }

  /// A bar drawn in place by `sink` (nil: silent).
  package convenience init(label: String, files: [String], sink: (@Sendable (String) -> Void)?) {
    self.init(label: label, files: files, display: sink.map { .bar($0) })
  }

  /// Bytes read so far of file `index`, still in progress.
  package func reading(file index: Int, bytes: Int) {
    guard sink != nil else { return }
    state.withLock { state in
      state.partialBytes[index] = bytes
      drawIfDue(&state)
    }
  }

  /// File `index` is done (or failed).
  package func finished(file index: Int, failed: Bool = false) {
    guard sink != nil else { return }
    state.withLock { state in
      state.partialBytes[index] = nil
      state.files += 1
      if failed { state.failed += 1 }
      state.finishedBytes += sizes[index]
      drawIfDue(&state, force: state.files == totalFiles)
    }
  }

  /// Clears the bar so that the next line starts clean.
  package func end() {
    guard case .bar(let sink) = display else { return }
    state.withLock { state in
      if state.drawn { sink("\r\u{1B}[K") }
    }
  }

  private func drawIfDue(_ state: inout State, force: Bool = false) {
    let now = Date()
    let snapshot = state
    let line = {
      Self.line(
        label: self.label, files: snapshot.files, failed: snapshot.failed, totalFiles: self.totalFiles,
        bytes: snapshot.finishedBytes + snapshot.partialBytes.values.reduce(0, +),
        totalBytes: self.totalBytes, elapsed: now.timeIntervalSince(self.started))
    }
    switch display {
    case .bar(let sink):
      guard force || now.timeIntervalSince(state.lastDrawn) >= 0.1 else { return }
      state.lastDrawn = now
      state.drawn = true
      sink("\r\u{1B}[K" + line())
    case .log(let sink, let every):
      // The first line after one interval, then one per interval, and the
      // last when every file is done: a log of a long task, not a flood.
      if state.lastDrawn == .distantPast { state.lastDrawn = started }
      guard force || now.timeIntervalSince(state.lastDrawn) >= every else { return }
      state.lastDrawn = now
      sink("\(ISO8601.formatUTC(now.timeIntervalSince1970)) " + line() + "\n")
    case nil:
      return
    }
  }

  /// `label [#######.............]  412/1000 files  31.2/88.0 MB  45.1 MB/s  0:12 left`
  static func line(
    label: String, files: Int, failed: Int = 0, totalFiles: Int, bytes: Int, totalBytes: Int, elapsed: Double
  ) -> String {
    let share =
      totalBytes > 0 ? min(1, Double(bytes) / Double(totalBytes)) : Double(files) / Double(max(totalFiles, 1))
    let width = 24
    let filled = Int((share * Double(width)).rounded(.down))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let rate = elapsed > 0 ? Double(bytes) / elapsed / 1e6 : 0
    var text =
      "\(label) [\(bar)] \(files)/\(totalFiles) files\(failed > 0 ? " (\(failed) failed)" : "")  \(Fixed.format(Double(bytes) / 1e6, digits: 1))/\(Fixed.format(Double(totalBytes) / 1e6, digits: 1)) MB  \(Fixed.format(rate, digits: 1)) MB/s"
    if share > 0 && share < 1 {
      let left = Int((elapsed / share - elapsed).rounded())
      text += "  \(left / 60):\(left % 60 < 10 ? "0" : "")\(left % 60) left"
    }
    return text
  }
}
