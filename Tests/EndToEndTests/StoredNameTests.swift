import Foundation
import TestSupport
import Testing

/// Runs are told apart where they differ, and only there: a file is stored
/// under one name (absolute, links resolved) and its digest, wherever the
/// command was run from; two study folders of the same name in two places
/// are two sets of runs; shipped data is recorded by its `shipped:` name and
/// digest, from a checkout or installed; a subject's id is in the key.
struct StoredNameTests {
  func export(_ table: String, _ db: String, in folder: String) throws -> [[String]] {
    let out = try energylab(["db", "export", "--table", table, "--db", db, "--format", "csv"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    // No field of these tables holds a comma or a quote.
    return out.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
  }

  func compare(_ a: String, _ b: String, in folder: String) throws -> Outcome {
    try energylab(["db", "compare", a, b], in: folder)
  }

  /// `sha256sum FILE`, an independent digest.
  func sha256sum(_ path: String) throws -> String {
    let out = try run(["/usr/bin/sha256sum", path], in: "/")
    return String(out.stdout.prefix(64))
  }

  /// A study folder of two tracks at `folder/study`.
  func study(in folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder + "/study/P1", withIntermediateDirectories: true)
    for k in 1...2 {
      let out = try energylab(
        ["track", "synth", "-o", "study/P1/walk-\(k).gpx", "--duration", "\(k)min", "--seed", "\(k)"],
        in: folder)
      #expect(out.status == 0, "\(out.stderr)")
    }
  }

  /// Two sites whose study folders have the same name and hold identical
  /// files: two sets of runs, whether batched together or one at a time.
  /// (Stored by folder name and relative path, the second site's runs
  /// replaced the first's.)
  @Test func twoSitesWithTheSameFolderNamesStayTwoSetsOfRuns() throws {
    let folder = try scratchFolder()
    try FileManager.default.createDirectory(atPath: folder + "/siteA", withIntermediateDirectories: true)
    try study(in: folder + "/siteA")
    try FileManager.default.createDirectory(atPath: folder + "/siteB", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: folder + "/siteA/study", toPath: folder + "/siteB/study")
    let together = try energylab(
      ["batch", "siteA/study", "siteB/study", "--db", "both.sqlite", "--quiet"], in: folder)
    #expect(together.status == 0, "\(together.stderr)")
    #expect(try export("runs", "both.sqlite", in: folder).count == 4)
    for site in ["siteA", "siteB"] {
      let out = try energylab(
        ["batch", "study", "--db", "../apart.sqlite", "--quiet"], in: folder + "/" + site)
      #expect(out.status == 0, "\(out.stderr)")
    }
    let runs = try export("runs", "apart.sqlite", in: folder)
    #expect(runs.count == 4)
    let real = CanonicalName.resolved(folder)
    let tracks = try export("tracks", "apart.sqlite", in: folder).map { $0[1] }
    #expect(
      tracks.sorted() == [
        "\(real)/siteA/study/P1/walk-1.gpx", "\(real)/siteA/study/P1/walk-2.gpx",
        "\(real)/siteB/study/P1/walk-1.gpx", "\(real)/siteB/study/P1/walk-2.gpx",
      ])
  }

  /// The same study batched from inside its parent (a relative path) and
  /// from the checkout (an absolute path, the shipped factors found in the
  /// checkout's `Datasets/` as a relative path): identical stored lines.
  @Test func sameStudyFromTwoWorkingFoldersStoresTheSameRuns() throws {
    let folder = try scratchFolder()
    try study(in: folder)
    let here = try energylab(["batch", "study", "--db", "a.sqlite", "--quiet"], in: folder)
    #expect(here.status == 0, "\(here.stderr)")
    let there = try energylab(
      ["batch", folder + "/study", "--db", folder + "/b.sqlite", "--quiet"], in: packageRoot)
    #expect(there.status == 0, "\(there.stderr)")
    let same = try compare("a.sqlite", "b.sqlite", in: folder)
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    // `energy` with a relative path, and with the absolute one from elsewhere.
    let elsewhere = try scratchFolder()
    let relative = try energylab(
      ["energy", "study/P1/walk-1.gpx", "--model", "acsm-walking", "--mass", "70kg", "--db", "e1.sqlite"],
      in: folder)
    #expect(relative.status == 0, "\(relative.stderr)")
    let absolute = try energylab(
      [
        "energy", folder + "/study/P1/walk-1.gpx", "--model", "acsm-walking", "--mass", "70kg", "--db",
        folder + "/e2.sqlite",
      ], in: elsewhere)
    #expect(absolute.status == 0, "\(absolute.stderr)")
    let sameEnergy = try compare("e1.sqlite", "e2.sqlite", in: folder)
    #expect(sameEnergy.status == 0, "\(sameEnergy.stdout)\(sameEnergy.stderr)")
    // One name in every table: the track's row names the file as its input does.
    let real = CanonicalName.resolved(folder) + "/study/P1/walk-1.gpx"
    #expect(try export("inputs", "e1.sqlite", in: folder).map { $0[1] } == [real])
    #expect(try export("tracks", "e1.sqlite", in: folder).map { $0[1] } == [real])
  }

  /// The factor set is recorded as `shipped:factors/...` with the digest
  /// `sha256sum` gives, from a checkout or installed (PREFIX/bin beside
  /// PREFIX/share/energylab), so both store the same runs.
  @Test func shippedDataIsRecordedByNameAndDigest() throws {
    let folder = try scratchFolder()
    try study(in: folder)
    let checkout = try energylab(["batch", "study", "--db", "checkout.sqlite", "--quiet"], in: folder)
    #expect(checkout.status == 0, "\(checkout.stderr)")
    let factors = "\(packageRoot)/Datasets/factors/alter-eco-2020.csv"
    let shipped = try export("inputs", "checkout.sqlite", in: folder).filter { $0[1].hasPrefix("shipped:") }
    #expect(shipped.count == 2)
    for row in shipped {
      #expect(row[1] == "shipped:factors/alter-eco-2020.csv")
      #expect(row[3] == (try sha256sum(factors)))
    }
    #expect(try !export("inputs", "checkout.sqlite", in: folder).contains { $0[1].contains("Datasets/") })

    let prefix = try InstalledUseTests.installed(data: ["factors"])
    let installed = try runWithEnvironment(
      ["/usr/bin/env", "energylab", "batch", "study", "--db", "installed.sqlite", "--quiet"], in: folder,
      environment: ["PATH": prefix + "/bin:/usr/bin:/bin"])
    #expect(installed.status == 0, "\(installed.stderr)")
    let same = try compare("checkout.sqlite", "installed.sqlite", in: folder)
    #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
  }

  /// Two participants of a subjects file with equal values are two runs of
  /// `energy`: the id is a parameter of the run.
  @Test func subjectIdIsInTheKeyOfEnergy() throws {
    let folder = try scratchFolder()
    try study(in: folder)
    try "id,body_mass_kg,age_years\nP1,70,30\nP2,70,30\n".write(
      toFile: folder + "/subjects.csv", atomically: true, encoding: .utf8)
    for id in ["P1", "P2", "P2"] {
      let out = try energylab(
        [
          "energy", "study/P1/walk-1.gpx", "--model", "acsm-walking", "--subjects", "subjects.csv",
          "--subject",
          id, "--db", "s.sqlite",
        ], in: folder)
      #expect(out.status == 0, "\(out.stderr)")
    }
    #expect(try export("runs", "s.sqlite", in: folder).count == 2)
    let ids = try export("parameters", "s.sqlite", in: folder).filter { $0[1] == "subject_id" }.map { $0[2] }
    #expect(ids.sorted() == ["P1", "P2"])
  }
}

/// The real path of a folder (the scratch folder may sit behind a link).
enum CanonicalName {
  static func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }
}
