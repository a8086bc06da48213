import Foundation
import TestSupport
import Testing

/// Every file `batch` reaches is recognised by its content, whatever its
/// name or the links to it; a file of no known kind is passed over with a
/// note, never stored as a survey (reliability probe S4-3, S4-9, S4-20).
struct BatchRecognitionTests {
  static let gene = "\(packageRoot)/Datasets/device-files/GENEActiv_testfile.bin"

  /// The commands of the runs a store holds, sorted.
  static func commands(_ db: String, in folder: String) throws -> [String] {
    let out = try energylab(["db", "export", "--db", db, "--table", "runs", "--format", "json"], in: folder)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    return rows.compactMap { $0["command"] as? String }.sorted()
  }

  /// A `.bin` reached through a relative link was "binary data, not text"
  /// to `accel summary`, and `batch` stored it as a survey of 221
  /// respondents; a K5 export was a survey of 401; a plain table a survey.
  @Test func filesAreKnownByContentThroughRelativeLinks() throws {
    let folder = try scratchFolder()
    let fm = FileManager.default
    let study = folder + "/lnstudy"
    for sub in ["raw", "p01", "p10"] {
      try fm.createDirectory(atPath: study + "/" + sub, withIntermediateDirectories: true)
    }
    try fm.copyItem(atPath: Self.gene, toPath: study + "/raw/g.bin")
    try fm.createSymbolicLink(atPath: study + "/p01/g.bin", withDestinationPath: "../raw/g.bin")
    try fm.copyItem(
      atPath: "\(packageRoot)/Datasets/measured/k5-hilly-walk-synthetic.csv", toPath: study + "/p10/k5.csv")
    try "participant,site\nP1,Leeds\nP2,York\n".write(
      toFile: study + "/p10/sites.csv", atomically: true, encoding: .utf8)

    let linked = try energylab(["accel", "summary", "lnstudy/p01/g.bin", "--format", "csv"], in: folder)
    #expect(linked.status == 0, "\(linked.stderr)")
    #expect(linked.stdout.contains("lnstudy/p01/g.bin,geneactiv-bin,raw,5031,85.7,"), "\(linked.stdout)")

    let out = try energylab(["batch", "lnstudy", "--db", "ln.sqlite"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(
      out.stdout.hasPrefix(
        "batch: 4 files: 1 tracks, 2 accelerometer recordings, 0 surveys stored in ln.sqlite; 0 failed, 1 not taken"
      ), "\(out.stdout)")
    #expect(
      out.stderr.contains(
        "energylab: lnstudy/p10/sites.csv: note: neither a track, a COSMED K5 export, an accelerometer recording"
      ), "\(out.stderr)")
    #expect(
      out.stderr.contains("not taken (a plain one-row-per-respondent survey is read by the survey commands"))
    let resolved = CanonicalName.resolved(folder)
    // The link and its target are one recording, one run.
    #expect(
      try Self.commands("ln.sqlite", in: folder) == [
        "batch accelerometer \(resolved)/lnstudy/raw/g.bin", "batch track \(resolved)/lnstudy/p10/k5.csv",
      ])
    let notes = try energylab(
      ["db", "export", "--db", "ln.sqlite", "--table", "diagnostics", "--format", "csv"], in: folder)
    #expect(notes.stdout.contains("measured-energy-not-stored"), "\(notes.stdout)")
  }

  /// A line of over 4 MiB: the message said only that the accelerometer
  /// reader found no data rows after the header.
  @Test func aTooLongLineIsNamedAsTheReason() throws {
    let folder = try scratchFolder()
    try FileManager.default.createDirectory(atPath: folder + "/d7", withIntermediateDirectories: true)
    var bytes = Array("a,b\n".utf8)
    bytes += [UInt8](repeating: 0x41, count: 5 << 20)
    bytes.append(0x0A)
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/d7/line.csv"))
    let out = try energylab(["batch", "d7", "--db", "d7.sqlite"], in: folder)
    #expect(out.status == 1)
    #expect(
      out.stderr.contains(
        "nor a survey export (d7/line.csv:2: a row longer than 4194304 bytes; expected rows of at most 4194304 bytes"
      ), "\(out.stderr)")
  }
}
