import EnergyLabCore
import Foundation

/// A progress bar for long work: files and bytes done, rate and time left,
/// redrawn in place at most ten times a second. Silent without a sink (no
/// terminal on standard error, or `--quiet`).
public final class ProgressBar: @unchecked Sendable {
  private let lock = NSLock()
  private let sink: ((String) -> Void)?
  private let label: String
  private let sizes: [Int]
  private var totalFiles: Int { sizes.count }
  private let totalBytes: Int
  private var files = 0
  private var finishedBytes = 0
  private var partialBytes: [Int: Int] = [:]
  private let started = Date()
  private var lastDrawn = Date.distantPast
  private var drawn = false

  /// A bar over `files`, their sizes read from the file system.
  public init(label: String, files: [String], sink: ((String) -> Void)?) {
    self.label = label
    sizes = files.map(FileStatus.size)
    totalBytes = sizes.reduce(0, +)
    self.sink = sink
  }

  /// Bytes read so far of file `index`, still in progress.
  public func reading(file index: Int, bytes: Int) {
    guard sink != nil else { return }
    lock.lock()
    partialBytes[index] = bytes
    drawIfDue()
    lock.unlock()
  }

  /// File `index` is done.
  public func finished(file index: Int) {
    guard sink != nil else { return }
    lock.lock()
    partialBytes[index] = nil
    files += 1
    finishedBytes += sizes[index]
    drawIfDue(force: files == totalFiles)
    lock.unlock()
  }

  /// Clears the bar so that the next line starts clean.
  public func end() {
    guard let sink else { return }
    lock.lock()
    if drawn { sink("\r\u{1B}[K") }
    lock.unlock()
  }

  private func drawIfDue(force: Bool = false) {
    let now = Date()
    guard force || now.timeIntervalSince(lastDrawn) >= 0.1, let sink else { return }
    lastDrawn = now
    drawn = true
    sink(
      "\r\u{1B}[K"
        + Self.line(
          label: label, files: files, totalFiles: totalFiles,
          bytes: finishedBytes + partialBytes.values.reduce(0, +),
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
