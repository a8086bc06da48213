import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one name of a file, however it was typed and wherever the command
/// was run from: `walk.gpx`, `./walk.gpx` and `/home/me/study/walk.gpx` are
/// the same input to the results store, and EnergyLab's shipped data is
/// named by what it is (`shipped:factors/alter-eco-2020.csv`), never by
/// where it was found.
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

  /// The name a file is stored under, in every table of the results store:
  /// `shipped:<folder>/<file>` for shipped data (see `ShippedDataRoots`),
  /// else the absolute path with links resolved. A stored name is its own
  /// stored name, so storing twice changes nothing.
  ///
  /// Absolute, so two study folders of the same name in different places
  /// (two sites) stay apart, and the same study run from any folder is
  /// stored under the same names.
  public static func stored(_ path: String) -> String {
    // Standard input is `-` wherever the command runs.
    if path.hasPrefix(ShippedDataRoots.namePrefix) || path == StandardInput.name { return path }
    let file = resolved(path)
    return ShippedDataRoots.name(ofResolved: file) ?? file
  }

  /// The name a command's input is stored under (`stored`).
  public static func of(_ path: String) -> String {
    stored(path)
  }
}
