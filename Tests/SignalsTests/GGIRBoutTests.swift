import Foundation
import Signals
import Testing

/// Bouts against GGIR's own `g.getbout` (GGIR 3) run in R 4.2 with zoo
/// by scripts/oracles/ggir-bouts.R on the same patterns; the expected
/// epochs below are what it printed (1-based first-last runs).
struct GGIRBoutTests {
  /// "0x20,1x8" is 20 epochs not meeting the criterion, then 8 meeting it.
  static func pattern(_ text: String) -> [Bool] {
    text.split(separator: ",").flatMap { run -> [Bool] in
      let parts = run.split(separator: "x")
      return [Bool](repeating: parts[0] == "1", count: Int(parts[1])!)
    }
  }

  /// The marked epochs as 1-based "first-last" runs, as the oracle prints.
  static func runs(_ marked: [Bool]) -> String {
    var out: [String] = []
    var i = 0
    while i < marked.count {
      guard marked[i] else {
        i += 1
        continue
      }
      var j = i
      while j + 1 < marked.count, marked[j + 1] { j += 1 }
      out.append("\(i + 1)-\(j + 1)")
      i = j + 1
    }
    return out.isEmpty ? "none" : out.joined(separator: " ")
  }

  static let oracle: [(pattern: String, epochSeconds: Int, boutMinutes: Int, share: Double, runs: String)] = [
    // The cases: an isolated 8-minute run, two 5-minute runs with a
    // 2-minute break, are no 10-minute bout; a 1-minute break is held.
    ("0x20,1x8,0x20", 60, 10, 0.8, "none"),
    ("0x20,1x5,0x2,1x5,0x20", 60, 10, 0.8, "none"),
    ("0x20,1x5,0x1,1x5,0x20", 60, 10, 0.8, "21-31"),
    ("1x12", 60, 10, 0.8, "1-12"),
    ("0x3,1x10,0x1,1x3,0x1,1x20,0x30", 60, 10, 0.8, "4-38"),
    ("1x4,0x1,1x4,0x1,1x4,0x1,1x4,0x10", 60, 10, 0.8, "1-19"),
    // A 9-minute run after a lone epoch below: the window holds 9 of 10.
    ("0x5,1x9,0x1,0x10", 60, 10, 0.8, "6-14"),
    // Epochs already in a bout are skipped when the next bout's start is
    // sought, so its breaks are not bout time.
    ("1x3,0x1,1x3,0x1,1x3,0x1,1x3,0x1,1x3", 60, 10, 0.8, "1-11 13-15 17-19"),
    // 5 s epochs: a break of 12 epochs (one minute) is held, 13 is not.
    ("0x240,1x60,0x12,1x60,0x240", 5, 10, 0.8, "241-372"),
    ("0x240,1x60,0x13,1x60,0x240", 5, 10, 0.8, "none"),
    ("0x240,1x96,0x240", 5, 10, 0.8, "none"),
    ("0x100,1x50,0x6,1x50,0x7,1x40,0x100", 5, 10, 0.8, "101-253"),
    ("1x130", 5, 10, 0.8, "1-130"),
    // Sedentary bouts: GGIR's boutcriter.in of 0.9 over 30 minutes.
    ("1x28,0x1,1x5,0x3,1x40", 60, 30, 0.9, "1-34 38-77"),
  ]

  @Test(arguments: 0..<oracle.count) func agreesWithGGIR(_ index: Int) {
    let c = Self.oracle[index]
    let marked = GGIRBouts.mark(
      Self.pattern(c.pattern), epochsPerMinute: 60 / c.epochSeconds,
      boutEpochs: c.boutMinutes * 60 / c.epochSeconds, share: c.share)
    #expect(Self.runs(marked) == c.runs, "\(c.pattern)")
  }
}
