import EnergyLabCore
import Foundation
import Ingest

/// Finds MET values in the shipped table, `Datasets/met/compendium-2011.csv`.
package enum METTableLocator {
  package static let defaultPath = "Datasets/met/compendium-2011.csv"

  package static func met(forActivity code: String, tablePath: String? = nil) throws -> Double {
    let tablePath = try tablePath ?? ShippedData.locate(defaultPath, what: "MET table")
    let table = try METTableReader.read(path: tablePath)
    guard let row = table.first(where: { $0.code == code }) else {
      throw ValueError.unknown("activity", code, among: table.map(\.code), in: tablePath)
    }
    return row.metabolicEquivalent
  }
}

/// Finds EnergyLab's shipped data (`Datasets/...`: reference tables, the
/// MET table, factor sets, airports) in the folders of
/// `ShippedDataRoots.all`, in order: the current folder, `$ENERGYLAB_DATA`,
/// `share/energylab` beside the installed binary, the checkout it was built
/// in. Wherever a file was found, the store records it by its stable name
/// (`shipped:factors/alter-eco-2020.csv`) and its digest.
package enum ShippedData {
  /// The factor set used when none is named: the Alter Eco app's UK 2019
  /// factors (car, train, plane).
  package static let defaultFactorSet = "alter-eco-2020"

  /// A factor set shipped in Datasets/factors by name, or a CSV path.
  package static func factorSetPath(_ nameOrPath: String) throws -> String {
    try named(nameOrPath, in: "Datasets/factors", what: "factor set")
  }

  /// The folders searched, in order (each holding `Datasets/`).
  package static var roots: [String] { ShippedDataRoots.all }

  /// The first of the roots holding `relative`; `relative` itself (which
  /// then fails to open, naming it) when none does.
  package static func path(_ relative: String) -> String {
    let fm = FileManager.default
    if fm.fileExists(atPath: relative) { return relative }
    for root in roots.dropFirst() {
      let candidate = (root as NSString).appendingPathComponent(relative)
      if fm.fileExists(atPath: candidate) { return candidate }
    }
    return relative
  }

  /// Like `path`, but a missing file is an error naming the places
  /// searched and how to point EnergyLab at the data.
  package static func locate(_ relative: String, what: String) throws -> String {
    let found = path(relative)
    guard FileManager.default.fileExists(atPath: found) else {
      throw InputError(
        .unreadable,
        SourceLocation(file: relative),
        "no \(what) (EnergyLab's shipped data) in \(roots.joined(separator: ", "))",
        expected:
          "the data beside the binary (make install PREFIX=...), or $ENERGYLAB_DATA set to a folder holding Datasets/"
      )
    }
    return found
  }

  /// The names of the files with extension `ext` in shipped folder
  /// `relative` (the first root that has the folder).
  package static func names(in relative: String, ext: String) -> (folder: String, names: [String]) {
    let fm = FileManager.default
    for root in roots {
      let folder = (root as NSString).appendingPathComponent(relative)
      if let files = try? fm.contentsOfDirectory(atPath: folder) {
        return (folder, files.filter { $0.hasSuffix(ext) }.map { String($0.dropLast(ext.count)) }.sorted())
      }
    }
    return (relative, [])
  }

  /// A shipped table by name (`stanford-walking` in `Datasets/reference`),
  /// or a path as given (with a `/` or the extension). An unknown name is
  /// an error listing the names and the closest one.
  package static func named(_ nameOrPath: String, in folder: String, what: String, ext: String = ".csv")
    throws
    -> String
  {
    if nameOrPath.hasSuffix(ext) || nameOrPath.contains("/") { return nameOrPath }
    let candidate = path("\(folder)/\(nameOrPath)\(ext)")
    guard FileManager.default.fileExists(atPath: candidate) else {
      let (found, known) = names(in: folder, ext: ext)
      guard !known.isEmpty else { return try locate("\(folder)/\(nameOrPath)\(ext)", what: what) }
      throw ValueError(
        .unknown(known: known), what, value: nameOrPath,
        expected: "one of \(found): \(known.joined(separator: ", ")), or a CSV path")
    }
    return candidate
  }
}
