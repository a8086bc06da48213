import EnergyLabCore
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
