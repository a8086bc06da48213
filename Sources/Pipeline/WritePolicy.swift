import EnergyLabCore
import Foundation

/// Where a notebook may write and read: inside the project (the folder it
/// is run from) and its report folder, and at the outside paths its header
/// names (`allow-write = PATH` and `allow-read = PATH` lines in an
/// `energylab-parameters` block before the first command); EnergyLab's
/// shipped data may be read wherever it is installed. A notebook is a file
/// anyone can hand over; running it must not write `../outside.txt`, nor
/// copy `/etc/passwd` into a report that will be shared, unless it says so
/// up front.
package struct WritePolicy: Sendable, Hashable {
  /// Canonical folders inside which anything may be written and read.
  package var roots: [String]
  /// Canonical files or folders outside them that the header allows
  /// writing (and so reading).
  package var allowed: [String]
  /// Canonical files or folders outside them that the header allows
  /// reading.
  package var allowedReads: [String]

  package init(projectRoot: String, reportFolder: String, allowed: [String] = [], allowedReads: [String] = [])
  {
    roots = [Self.canonical(projectRoot), Self.canonical(reportFolder)]
    self.allowed = allowed.map(Self.canonical)
    self.allowedReads = allowedReads.map(Self.canonical)
  }

  /// Whether `path` (relative to the working folder) may be written.
  package func permits(_ path: String) -> Bool {
    Self.canonical(path).isInside(any: roots + allowed)
  }

  /// Throws a usage error naming `path` when it may not be written.
  package func check(_ path: String) throws {
    guard !permits(path) else { return }
    throw UsageError(
      .unsupported,
      "\(path) (\(Self.canonical(path))) is outside the project (\(roots[0])) and the report folder; a notebook writes there only when its header allows it: allow-write = \(path) in an energylab-parameters block before the first command"
    )
  }

  /// Whether `path` may be read: what may be written, what the header
  /// allows reading, and EnergyLab's shipped data (`ShippedDataRoots`).
  package func permitsReading(_ path: String) -> Bool {
    let target = Self.canonical(path)
    return target.isInside(any: roots + allowed + allowedReads)
      || ShippedDataRoots.name(ofResolved: CanonicalPath.resolved(path)) != nil
  }

  /// Throws a usage error naming `path` when it may not be read.
  package func checkReading(_ path: String) throws {
    guard !permitsReading(path) else { return }
    throw UsageError(
      .unsupported,
      "\(path) (\(Self.canonical(path))) is outside the project (\(roots[0])) and the report folder; a notebook reads there only when its header allows it: allow-read = \(path) in an energylab-parameters block before the first command"
    )
  }

  /// `path` made absolute with `.`, `..` and every symbolic link resolved,
  /// as the system would follow them on opening it: a link whose target
  /// does not exist yet is followed too (SQLite opening `--db LINK`
  /// creates the target, wherever it is), and what does not exist is
  /// appended as named. `..` after a link is the parent of its target.
  package static func canonical(_ path: String) -> String {
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

extension String {
  /// Whether this canonical path is one of `folders` or inside one.
  fileprivate func isInside(any folders: [String]) -> Bool {
    folders.contains { self == $0 || hasPrefix($0 == "/" ? "/" : $0 + "/") }
  }
}
