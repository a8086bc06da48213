import Foundation
import Synchronization

/// A regular file mapped read-only into memory, so that parser threads can
/// each find and read their own run of lines with no copy and no reading
/// thread in between. Pages are handed back as runs are consumed, so the
/// memory in use follows the runs in flight, not the file size.
///
/// A file that shrinks while it is mapped would fault on the lost pages;
/// `guardAgainstShrinking()` turns that into an error message and exit
/// status 1 instead of a crash.
final class MappedText: Sendable {
  /// Bytes mapped: the file's size when it was opened.
  let count: Int
  /// The mapping's address (an integer, so that the class is Sendable).
  private let address: UInt
  private let page = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Maps `path`; nil when it is not a regular, non-empty file that can be
  /// mapped (a pipe, a device, an empty file), which is then read as a
  /// stream instead.
  init?(path: String) {
    // Only a regular file is opened again: opening a named pipe a second
    // time would wait for a writer that may be gone.
    var named = stat()
    guard stat(path, &named) == 0, (named.st_mode & S_IFMT) == S_IFREG else { return nil }
    let fd = open(path, O_RDONLY | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else {
      return nil
    }
    let size = Int(status.st_size)
    guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
      mapped != UnsafeMutableRawPointer(bitPattern: -1)
    else { return nil }
    _ = madvise(mapped, size, MADV_SEQUENTIAL)
    count = size
    address = UInt(bitPattern: mapped)
    MappedText.guardAgainstShrinking()
  }

  deinit { munmap(UnsafeMutableRawPointer(bitPattern: address), count) }

  var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: UnsafePointer(bitPattern: address), count: count)
  }

  /// The run of lines that start in `from..<to`, to just after the line
  /// break of the last of them (or the end of the file). `from` is a line
  /// start when it equals `origin`; otherwise the run begins after the
  /// first line break at or after `from - 1`. Adjacent ranges of `from`
  /// and `to` give adjacent runs, so each line falls in exactly one.
  ///
  /// `longLine` is the offset of the run's last line when it reaches past
  /// `maximumLineBytes` without a line break.
  func run(from: Int, to: Int, origin: Int, maximumLineBytes: Int) -> (range: Range<Int>, longLine: Int?) {
    // A mapping holds at least one byte (an empty file is not mapped).
    guard let base = bytes.baseAddress else { return (to..<to, nil) }
    let to = min(to, count)
    var start = from
    if from > origin {
      guard let p = memchr(base + from - 1, 0x0A, to - from + 1) else { return (to..<to, nil) }
      start = base.distance(to: p.assumingMemoryBound(to: UInt8.self)) + 1
    }
    guard start < to else { return (to..<to, nil) }
    guard to < count else { return (start..<count, nil) }
    // The last line starting before `to` ends at the first line break at
    // or after `to - 1`.
    var lastLine = to - 1
    while lastLine > start && base[lastLine - 1] != 0x0A { lastLine -= 1 }
    let searchEnd = min(count, lastLine + maximumLineBytes + 1)
    if let p = memchr(base + to - 1, 0x0A, searchEnd - (to - 1)) {
      return (start..<(base.distance(to: p.assumingMemoryBound(to: UInt8.self)) + 1), nil)
    }
    if searchEnd == count { return (start..<count, nil) }
    return (start..<lastLine, lastLine)
  }

  /// Hands the whole pages of `range` back (the page holding its end is
  /// left for the next call): they are read again from the page cache if
  /// touched later, so this never changes what is read.
  func release(_ range: Range<Int>) {
    let first = range.lowerBound / page * page
    let last = range.upperBound / page * page
    guard last > first, let start = UnsafeMutableRawPointer(bitPattern: address + UInt(first)) else { return }
    _ = madvise(start, last - first, MADV_DONTNEED)
  }

  private static let shrinking = Mutex<Bool>(false)

  /// Installs, once, a handler for the bus error a mapped file gives when
  /// it is truncated under the reader: it writes what happened and exits
  /// with status 1.
  private static func guardAgainstShrinking() {
    shrinking.withLock { installed in
      guard !installed else { return }
      installed = true
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { _ in
        // Nothing that allocates: a static message, write(2), _exit(2).
        let message: StaticString = "energylab: an input file was truncated while it was being read\n"
        _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
        _exit(1)
      }
      sigemptyset(&action.sa_mask)
      sigaction(SIGBUS, &action, nil)
    }
  }
}
