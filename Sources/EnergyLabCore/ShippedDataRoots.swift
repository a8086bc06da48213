import Foundation
import Synchronization

/// Where EnergyLab's shipped data (`Datasets/reference`, `met`, `factors`,
/// `airports`: what `make install` copies) can be, and the stable name a
/// shipped file is recorded under wherever it was found.
public enum ShippedDataRoots {
  /// The folders of `Datasets/` that are shipped and installed.
  public static let folders = ["reference", "met", "factors", "airports"]

  /// The prefix of a shipped file's recorded name.
  public static let namePrefix = "shipped:"

  /// The folders searched, in order, each holding `Datasets/`:
  ///
  /// 1. the current folder, so a project's own `Datasets/` wins;
  /// 2. `$ENERGYLAB_DATA`;
  /// 3. `share/energylab` beside the binary's `bin/` (what `make install
  ///    PREFIX=...` writes), the binary found through the system
  ///    (`ExecutablePath`, not argv[0], which is only "energylab" when run
  ///    by name from PATH);
  /// 4. the checkout the binary was built in (up to four folders above it,
  ///    as `.build/x86_64-unknown-linux-gnu/release/energylab`).
  public static var all: [String] {
    var roots = [FileManager.default.currentDirectoryPath]
    if let data = ProcessInfo.processInfo.environment["ENERGYLAB_DATA"], !data.isEmpty { roots.append(data) }
    guard let binaryFolder = ExecutablePath.folder else { return roots }
    var folder = URL(fileURLWithPath: binaryFolder)
    roots.append(folder.deletingLastPathComponent().appendingPathComponent("share/energylab").path)
    for _ in 0..<4 {
      folder = folder.deletingLastPathComponent()
      roots.append(folder.path)
    }
    return roots
  }

  /// `root/Datasets/`, resolved, by root: resolved once per process (a
  /// batch names thousands of files).
  private static let resolvedDatasets = Mutex<[String: String]>([:])

  private static func datasetsFolder(_ root: String) -> String {
    if let known = resolvedDatasets.withLock({ $0[root] }) { return known }
    var datasets = CanonicalPath.resolved((root as NSString).appendingPathComponent("Datasets"))
    if !datasets.hasSuffix("/") { datasets += "/" }
    resolvedDatasets.withLock { $0[root] = datasets }
    return datasets
  }

  /// `shipped:factors/alter-eco-2020.csv` for a file (its path resolved)
  /// inside `Datasets/<folder>/` of one of the roots, for a shipped
  /// folder; nil for any other file.
  public static func name(ofResolved file: String) -> String? {
    for root in all {
      let datasets = datasetsFolder(root)
      guard file.hasPrefix(datasets) else { continue }
      let relative = String(file.dropFirst(datasets.count))
      guard let folder = relative.split(separator: "/").first, folders.contains(String(folder)),
        relative.contains("/")
      else { continue }
      return namePrefix + relative
    }
    return nil
  }
}
