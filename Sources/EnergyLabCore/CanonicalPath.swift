import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one name of a file, however it was typed: `walk.gpx`, `./walk.gpx`
/// and `/home/me/study/walk.gpx` are the same input to the results store.
public enum CanonicalPath {
  /// `path` made absolute, with symbolic links, `.` and `..` resolved
  /// (as far as it exists).
  public static func resolved(_ path: String) -> String {
    if let real = realpath(path, nil) {
      defer { free(real) }
      return String(cString: real)
    }
    return URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// `path` resolved, then relative to `root` (itself resolved) when inside
  /// it, else absolute.
  public static func of(_ path: String, relativeTo root: String) -> String {
    let file = resolved(path)
    var base = resolved(root)
    if !base.hasSuffix("/") { base += "/" }
    return file.hasPrefix(base) ? String(file.dropFirst(base.count)) : file
  }

  /// `path` resolved, relative to the working directory when inside it:
  /// the name a command's input is stored under.
  public static func of(_ path: String) -> String {
    of(path, relativeTo: FileManager.default.currentDirectoryPath)
  }
}
