import EnergyLabCore
import Foundation
import Synchronization

/// A progress bar for long work: files and bytes done, rate and time left,
/// redrawn in place at most ten times a second. Silent without a sink (no
/// terminal on standard error, or `--quiet`).
public final class ProgressBar: Sendable {
  /// What changes as files are read, behind one lock: readers on several
  /// threads report into it.
  private struct State {
    var files = 0
    var finishedBytes = 0
    var partialBytes: [Int: Int] = [:]
    var lastDrawn = Date.distantPast
    var drawn = false
  }

  private let state = Mutex(State())
  private let sink: (@Sendable (String) -> Void)?
  private let label: String
  private let sizes: [Int]
  private var totalFiles: Int { sizes.count }
  private let totalBytes: Int
  private let started = Date()

  /// A bar over `files`, their sizes read from the file system.
  public init(label: String, files: [String], sink: (@Sendable (String) -> Void)?) {
    self.label = label
    sizes = files.map(FileStatus.size)
    totalBytes = sizes.reduce(0, +)
    self.sink = sink
  }

  /// Bytes read so far of file `index`, still in progress.
  public func reading(file index: Int, bytes: Int) {
    guard sink != nil else { return }
    state.withLock { state in
      state.partialBytes[index] = bytes
      drawIfDue(&state)
    }
  }

  /// File `index` is done.
  public func finished(file index: Int) {
    guard sink != nil else { return }
    state.withLock { state in
      state.partialBytes[index] = nil
      state.files += 1
      state.finishedBytes += sizes[index]
      drawIfDue(&state, force: state.files == totalFiles)
    }
  }

  /// Clears the bar so that the next line starts clean.
  public func end() {
    guard let sink else { return }
    state.withLock { state in
      if state.drawn { sink("\r\u{1B}[K") }
    }
  }

  private func drawIfDue(_ state: inout State, force: Bool = false) {
    let now = Date()
    guard force || now.timeIntervalSince(state.lastDrawn) >= 0.1, let sink else { return }
    state.lastDrawn = now
    state.drawn = true
    sink(
      "\r\u{1B}[K"
        + Self.line(
          label: label, files: state.files, totalFiles: totalFiles,
          bytes: state.finishedBytes + state.partialBytes.values.reduce(0, +),
          totalBytes: totalBytes, elapsed: now.timeIntervalSince(started)))
  }

  /// `label [#######.............]  412/1000 files  31.2/88.0 MB  45.1 MB/s  0:12 left`
  static func line(label: String, files: Int, totalFiles: Int, bytes: Int, totalBytes: Int, elapsed: Double)
    -> String
  {
    let share =
      totalBytes > 0 ? min(1, Double(bytes) / Double(totalBytes)) : Double(files) / Double(max(totalFiles, 1))
    let width = 24
    let filled = Int((share * Double(width)).rounded(.down))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let rate = elapsed > 0 ? Double(bytes) / elapsed / 1e6 : 0
    var text =
      "\(label) [\(bar)] \(files)/\(totalFiles) files  \(Fixed.format(Double(bytes) / 1e6, digits: 1))/\(Fixed.format(Double(totalBytes) / 1e6, digits: 1)) MB  \(Fixed.format(rate, digits: 1)) MB/s"
    if share > 0 && share < 1 {
      let left = Int((elapsed / share - elapsed).rounded())
      text += "  \(left / 60):\(left % 60 < 10 ? "0" : "")\(left % 60) left"
    }
    return text
  }
}
