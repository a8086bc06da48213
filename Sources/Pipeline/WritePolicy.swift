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

  /// `path` made absolute with `.`, `..` and every symbolic link resolved,
  /// as the system would follow them on opening it: a link whose target
  /// does not exist yet is followed too (SQLite opening `--db LINK`
  /// creates the target, wherever it is), and what does not exist is
  /// appended as named. `..` after a link is the parent of its target.
  public static func canonical(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var pending = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    var resolved: [String] = []
    var links = 0
    while !pending.isEmpty {
      let component = pending.removeFirst()
      if component == "." { continue }
      if component == ".." {
        if !resolved.isEmpty { resolved.removeLast() }
        continue
      }
      let candidate = "/" + (resolved + [component]).joined(separator: "/")
      // As the system does (ELOOP), stop following after 40 links: the
      // path cannot be opened then, and it is taken as named.
      if links < Self.maximumLinks,
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: candidate)
      {
        links += 1
        if target.hasPrefix("/") { resolved = [] }
        pending = target.split(separator: "/", omittingEmptySubsequences: true).map(String.init) + pending
        continue
      }
      resolved.append(component)
    }
    return "/" + resolved.joined(separator: "/")
  }

  /// Links followed in one path before giving up, as Linux's `MAXSYMLINKS`.
  static let maximumLinks = 40
}
