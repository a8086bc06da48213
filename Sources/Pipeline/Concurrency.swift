import EnergyLabCore
import Foundation
import Ingest
import Synchronization
import Tracks

#if canImport(Glibc)
  import Glibc

  /// glibc's `malloc_trim`, found at run time (its header is not part of
  /// Swift's Glibc module).
  private let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
  }()
#endif

#if canImport(Glibc)
  /// glibc's `mallopt`, found at run time like `malloc_trim`.
  private let mallocOption: (@convention(c) (Int32, Int32) -> Int32)? = {
    guard let symbol = dlsym(nil, "mallopt") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
  }()
#endif

/// Has every allocation of `bytes` or more mapped on its own and unmapped
/// when freed (glibc's `M_MMAP_THRESHOLD`, -3), instead of glibc raising
/// the threshold to the largest block freed so far (up to 32 MB) and
/// serving large arrays from the heap, where an array grown by doubling
/// leaves holes that keep the resident set above what is live: a batch
/// worker on week-long recordings peaks at 90 MB this way, above 130 MB
/// without. The cost is a page fault per page of each large array (about
/// 1 s of system time per week-long recording on this machine).
func mapLargeAllocations(atLeast bytes: Int32) {
  #if canImport(Glibc)
    _ = mallocOption?(-3, bytes)
  #endif
}

/// Gives the heap's free pages back to the system. glibc keeps what a
/// thread freed for its next allocations, in one arena per thread: a batch
/// worker that reads recording after recording on threads that come and go
/// would otherwise keep every arena's high-water mark (135 MB resident after
/// four week-long recordings where one needs 50 MB of heap). Called between
/// files and between the passes over a recording; nothing where the C
/// library has no such call.
func releaseFreedMemory() {
  #if canImport(Glibc)
    _ = mallocTrim?(0)
  #endif
}

/// A bounded hand-over of batches from one producer thread to one
/// consumer: `free` counts the places left, `ready` the batches waiting
/// plus one for the end, and the queue itself sits behind a Mutex.
final class BatchChannel<Element: Sendable>: Sendable {
  private let queue = Mutex<[[Element]]>([])
  private let free: DispatchSemaphore
  private let ready = DispatchSemaphore(value: 0)

  init(capacity: Int = 4) { free = DispatchSemaphore(value: capacity) }

  func put(_ batch: [Element]) {
    free.wait()
    queue.withLock { $0.append(batch) }
    ready.signal()
  }

  /// After the last batch: the consumer's next take past it is nil.
  func finish() { ready.signal() }

  /// The next batch, or nil once the producer has finished and all is taken.
  func take() -> [Element]? {
    ready.wait()
    let batch: [Element]? = queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    if batch != nil { free.signal() }
    return batch
  }
}

/// Runs `body` for every index of `0..<count` on `workers` threads, each
/// taking the next index in order, and returns the results by index.
func parallelMap<T: Sendable>(count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
  let shared = Mutex<(next: Int, results: [T?])>((0, Array(repeating: nil, count: count)))
  DispatchQueue.concurrentPerform(iterations: max(1, min(workers, count))) { _ in
    while true {
      let index = shared.withLock { state in
        defer { state.next += 1 }
        return state.next
      }
      guard index < count else { return }
      let result = body(index)
      shared.withLock { $0.results[index] = result }
    }
  }
  // Every index below `count` was taken and its result put.
  return shared.withLock { $0.results.compactMap { $0 } }
}

/// Per-file results turned into rows: a readable file's path, diagnostics
/// and row are kept (the driver records them with the run); an unreadable
/// one is noted in `skipped` (its outcome prints the note) and left out
/// (`failFast` stops at it). The command then fails when any file was
/// skipped (`SkippedFiles.check`), after printing its outcome.
struct SkipAndLog<Value> {
  var rows: [ResultRecord] = []
  var values: [Value] = []
  /// The files read, in order.
  var inputs: [String] = []
  var diagnostics: [Diagnostic] = []
  /// A note per file skipped, in order (`energylab: FILE: why (skipped)`).
  var skipped: [String] = []

  init(
    files: [String], results: [Result<Value, Error>], failFast: Bool,
    row: (Value) -> (ResultRecord, [Diagnostic])
  ) throws {
    for (file, result) in zip(files, results) {
      switch result {
      case .success(let value):
        inputs.append(file)
        let (record, found) = row(value)
        diagnostics += found
        rows.append(record)
        values.append(value)
      case .failure(let error as InputError):
        if failFast { throw error }
        skipped.append(SkippedFiles.note(error))
      case .failure(let error):
        throw error
      }
    }
  }
}

/// Files a command skipped (unreadable among several): the note its
/// outcome prints for each, and the error that then fails the command.
enum SkippedFiles {
  /// The note that says a file was skipped and why.
  static func note(_ error: InputError) -> String { "energylab: \(error) (skipped)" }

  /// Fails when any of `total` files was skipped; `read` files were
  /// `done` ("summarised").
  static func check(skipped: Int, of total: Int, read: Int, done: String) throws {
    if skipped > 0 {
      throw RuntimeError("\(skipped) of \(total) files could not be read; \(read) \(done)")
    }
  }
}

enum TrackPipelines {
  /// Summarises one file with reading and metrics on two threads: the reader
  /// hands fixes over in batches of 4096, so memory stays bounded.
  static func summarise(
    file: String, parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone?
  ) throws -> (TrackSummary, TrackHeader) {
    let channel = BatchChannel<TrackPoint>()
    let header = Mutex<Result<TrackHeader, Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var batch: [TrackPoint] = []
      batch.reserveCapacity(4096)
      do {
        let h = try TrackCommands.streamTrackFile(
          file, defaultTimeZone: defaultTimeZone, readTruncated: parameters.readTruncatedFiles,
          ignoreCRC: parameters.ignoreFileCRC
        ) { p in
          batch.append(p)
          if batch.count == 4096 {
            channel.put(batch)
            batch.removeAll(keepingCapacity: true)
          }
        }
        if !batch.isEmpty { channel.put(batch) }
        header.withLock { $0 = .success(h) }
      } catch {
        header.withLock { $0 = .failure(error) }
      }
      channel.finish()
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    var summary = CleanedSummary(file: file, parameters: parameters)
    while let batch = channel.take() {
      for p in batch { summary.add(p) }
    }
    done.wait()
    // The reader puts its header or its error before it signals `done`.
    guard let read = header.withLock({ $0 }) else {
      throw RuntimeError("\(file): the reader ended without a result")
    }
    let h = try read.get()
    return (summary.finish(header: h), h)
  }

  /// Summarises one file on the calling thread, for callers that already
  /// run one file per core.
  static func summariseSequentially(
    file: String, parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone?
  ) throws -> (TrackSummary, TrackHeader) {
    var summary = CleanedSummary(file: file, parameters: parameters)
    let h = try TrackCommands.streamTrackFile(
      file, defaultTimeZone: defaultTimeZone, readTruncated: parameters.readTruncatedFiles,
      ignoreCRC: parameters.ignoreFileCRC
    ) { summary.add($0) }
    return (summary.finish(header: h), h)
  }
}

/// Fixes pass the cleaner, then the streaming summary; the diagnostics of
/// the reader and of the cleaner go with the result.
private struct CleanedSummary {
  let file: String
  var cleaner: TrackCleaner
  var accumulator: StreamingTrackSummary

  init(file: String, parameters: TrackAnalysisParameters) {
    self.file = file
    cleaner = TrackCleaner(parameters: parameters.cleaning)
    accumulator = StreamingTrackSummary(source: file, parameters: parameters)
  }

  mutating func add(_ p: TrackPoint) { cleaner.add(p) { accumulator.add($0) } }

  mutating func finish(header: TrackHeader) -> TrackSummary {
    cleaner.finish { accumulator.add($0) }
    return accumulator.finish(
      diagnostics: header.diagnostics + cleaner.diagnostics(source: file), structure: header.structure,
      deviceDistanceMeters: header.deviceDistanceMeters)
  }
}
