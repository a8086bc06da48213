import EnergyLabCore
import Foundation
import Ingest

/// Finds MET values in the shipped table, `Datasets/met/compendium-2011.csv`.
public enum METTableLocator {
  public static let defaultPath = "Datasets/met/compendium-2011.csv"

  public static func met(forActivity code: String, tablePath: String = defaultPath) throws -> Double {
    let table = try METTableReader.read(path: tablePath)
    guard let row = table.first(where: { $0.code == code }) else {
      throw UsageError(
        "no activity \"\(code)\" in \(tablePath); it lists \(table.map(\.code).joined(separator: ", "))")
    }
    return row.metabolicEquivalent
  }
}

/// Finds a shipped dataset (`Datasets/...`) from the current folder, else
/// beside the `energylab` binary (`.build/release/energylab` of a checkout
/// or an installed tree), so commands run from a study folder still find
/// the factor sets and tables.
public enum ShippedData {
  public static func path(_ relative: String) -> String {
    let fm = FileManager.default
    if fm.fileExists(atPath: relative) { return relative }
    var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent(relative).path
      if fm.fileExists(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return relative
  }
}
