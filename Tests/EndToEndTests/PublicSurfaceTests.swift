import Foundation
import TestSupport
import Testing

/// The library's public surface is the readers, models and statistics a
/// researcher calls (EnergyLabCore, Ingest, Tracks, Signals, Surveys,
/// EnergyModels, Evaluation). The command pipeline, the store, the
/// rendering and the estimation glue serve the `energylab` command alone:
/// they are `package`, so no declaration of theirs is public.
struct PublicSurfaceTests {
  static let packageOnly = ["Pipeline", "Store", "Reporting", "Estimation"]

  /// `public` as a modifier (not in a comment or a string) in `text`.
  static func publicLines(_ text: String) -> [Int] {
    text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { n, line in
      var code = line.prefix { $0 != "\"" }
      if let comment = code.range(of: "//") { code = code[..<comment.lowerBound] }
      let words = code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
      return words.contains("public") ? n + 1 : nil
    }
  }

  @Test func theRulerFindsAPublicModifier() {
    #expect(
      Self.publicLines("// public\npublic struct A {}\nlet s = \"public\"\n  public func f()") == [2, 4])
  }

  @Test(arguments: packageOnly)
  func noPublicDeclaration(_ target: String) throws {
    let folder = packageRoot + "/Sources/" + target
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
    #expect(!files.isEmpty)
    for file in files {
      let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      let lines = Self.publicLines(text)
      #expect(lines.isEmpty, "\(target)/\(file): public at lines \(lines)")
    }
  }
}
