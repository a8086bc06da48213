import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the running `energylab` binary is, as the system knows it: run by
/// name from PATH, through a symbolic link or by a relative path, the
/// answer is the real file, so shipped data and the source digest are found
/// beside it.
public enum ExecutablePath {
  /// The binary's real path: `/proc/self/exe` on Linux, else argv[0]
  /// searched on PATH (when it has no `/`) and resolved with `realpath`;
  /// nil when neither names an existing file. Found once per process.
  public static let current: String? = find()

  private static func find() -> String? {
    #if os(Linux)
      if let linked = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
        linked.hasPrefix("/"), FileManager.default.fileExists(atPath: linked)
      {
        return linked
      }
    #endif
    return resolve(
      argv0: CommandLine.arguments.first ?? "",
      searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "")
  }

  /// argv[0] as a shell finds it: a name without `/` is looked up on
  /// `searchPath` (colon-separated); the result has its links resolved.
  public static func resolve(argv0: String, searchPath: String) -> String? {
    guard !argv0.isEmpty else { return nil }
    var candidate: String? = nil
    if argv0.contains("/") {
      candidate = argv0
    } else {
      for folder in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
        let path = (folder.isEmpty ? "." : String(folder)) + "/" + argv0
        if FileManager.default.isExecutableFile(atPath: path) {
          candidate = path
          break
        }
      }
    }
    guard let candidate, FileManager.default.fileExists(atPath: candidate) else { return nil }
    return CanonicalPath.resolved(candidate)
  }

  /// The folder holding the binary (nil when it cannot be found).
  public static var folder: String? {
    current.map { ($0 as NSString).deletingLastPathComponent }
  }
}
