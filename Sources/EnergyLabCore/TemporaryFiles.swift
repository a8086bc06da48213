import Dispatch
import Foundation
import Synchronization

/// Temporary files and folders that are renamed into place when complete
/// (`.NAME.partial-PID`, `.NAME.tmp-PID`, `.NAME.old-PID`): registered while
/// they exist, removed when the program is interrupted, and found and
/// removed by a later run when the process that made them was killed.
public enum TemporaryFiles {
  /// The files registered, the folders swept, and the signal sources
  /// kept alive, shared by every thread.
  private struct State {
    var live: Set<String> = []
    var swept: Set<String> = []
    var signalSources: [DispatchSourceSignal] = []
  }
  private static let state = Mutex(State())

  /// `.NAME.KIND-PID` beside `path`: the temporary name of `path` for
  /// this process.
  public static func name(for path: String, kind: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    let name = ".\((path as NSString).lastPathComponent).\(kind)-\(getpid())"
    return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
  }

  public static func register(_ path: String) {
    _ = state.withLock { $0.live.insert(path) }
  }

  public static func unregister(_ path: String) {
    _ = state.withLock { $0.live.remove(path) }
  }

  /// Removes every registered file and folder (on SIGINT or SIGTERM).
  public static func removeAll() {
    let paths = state.withLock {
      let paths = $0.live
      $0.live.removeAll()
      return paths
    }
    for path in paths { try? FileManager.default.removeItem(atPath: path) }
  }

  /// The process id of a temporary name (`.walk.gpx.partial-123` -> 123)
  /// and the name it stands for, or nil when `name` is not one.
  public static func parse(_ name: String) -> (target: String, kind: String, pid: Int32)? {
    guard name.hasPrefix("."), let dash = name.lastIndex(of: "-"),
      let pid = Int32(name[name.index(after: dash)...]), pid > 0
    else { return nil }
    let stem = name[name.index(after: name.startIndex)..<dash]
    guard let dot = stem.lastIndex(of: ".") else { return nil }
    let kind = String(stem[stem.index(after: dot)...])
    guard ["partial", "tmp", "old"].contains(kind) else { return nil }
    return (String(stem[..<dot]), kind, pid)
  }

  /// Whether a process with this id is running (or exists but belongs to
  /// someone else).
  public static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }

  /// Removes the temporary files and folders in `directory` left by
  /// processes no longer running (`kinds` of them, for targets `accept`
  /// allows); returns the names removed. Each folder is swept once per
  /// process.
  @discardableResult
  public static func removeStale(
    in directory: String, kinds: Set<String> = ["partial", "tmp"], accept: (String) -> Bool = { _ in true }
  ) -> [String] {
    let folder = directory.isEmpty ? "." : directory
    let key = folder + "\u{0}" + kinds.sorted().joined(separator: ",")
    let first = state.withLock { $0.swept.insert(key).inserted }
    guard first, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
    var removed: [String] = []
    for name in names.sorted() {
      guard let (target, kind, pid) = parse(name), kinds.contains(kind), accept(target), pid != getpid(),
        !isRunning(pid)
      else { continue }
      if (try? FileManager.default.removeItem(atPath: folder + "/" + name)) != nil { removed.append(name) }
    }
    return removed
  }

  /// On SIGINT, SIGTERM or SIGHUP: remove the registered temporary files,
  /// then end as the signal would have.
  public static func installSignalCleanup() {
    for sig in [SIGINT, SIGTERM, SIGHUP] {
      signal(sig, SIG_IGN)
      state.withLock { state in
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler {
          removeAll()
          // Ended by the signal itself, so a parent sees why; raised on this
          // thread with the signal unblocked here.
          signal(sig, SIG_DFL)
          var set = sigset_t()
          sigemptyset(&set)
          sigaddset(&set, sig)
          pthread_sigmask(SIG_UNBLOCK, &set, nil)
          raise(sig)
          _exit(128 + sig)
        }
        source.resume()
        // Kept so the source lives as long as the process.
        state.signalSources.append(source)
      }
    }
  }
}
