import EnergyLabCore
import Foundation

/// Where a notebook may write: inside the project (the folder it is run
/// from) and its report folder, and at the outside paths its header names
/// (`allow-write = PATH` in an `energylab-parameters` block before the
/// first command). A notebook is a file anyone can hand over; running it
/// must not write `../outside.txt` unless it says so up front.
public struct WritePolicy: Sendable, Hashable {
  /// Canonical folders inside which anything may be written.
  public var roots: [String]
  /// Canonical files or folders outside them that the header allows.
  public var allowed: [String]

  public init(projectRoot: String, reportFolder: String, allowed: [String] = []) {
    roots = [Self.canonical(projectRoot), Self.canonical(reportFolder)]
    self.allowed = allowed.map(Self.canonical)
  }

  /// Whether `path` (relative to the working folder) may be written.
  public func permits(_ path: String) -> Bool {
    let target = Self.canonical(path)
    return (roots + allowed).contains { target == $0 || target.hasPrefix($0 == "/" ? "/" : $0 + "/") }
  }

  /// Throws a usage error naming `path` when it may not be written.
  public func check(_ path: String) throws {
    guard !permits(path) else { return }
    throw UsageError(
      .unsupported,
      "\(path) (\(Self.canonical(path))) is outside the project (\(roots[0])) and the report folder; a notebook writes there only when its header allows it: allow-write = \(path) in an energylab-parameters block before the first command"
    )
  }

  /// `path` made absolute with `.`, `..` and links resolved, also when it
  /// does not exist yet: its deepest existing folder is resolved by the
  /// system and the rest appended.
  public static func canonical(_ path: String) -> String {
    var absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    absolute = (absolute as NSString).standardizingPath
    var head = absolute
    var tail: [String] = []
    while head != "/" && !FileManager.default.fileExists(atPath: head) {
      tail.insert((head as NSString).lastPathComponent, at: 0)
      head = (head as NSString).deletingLastPathComponent
    }
    let resolved = CanonicalPath.resolved(head)
    return tail.reduce(resolved) { ($0 as NSString).appendingPathComponent($1) }
  }
}
