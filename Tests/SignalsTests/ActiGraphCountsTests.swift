import Foundation
import Signals
import TestSupport
import Testing

/// Counts from raw acceleration against ActiGraph's own implementation
/// (agcounts 0.2.6) on the same recordings (Fixtures/agcounts/README.md).
struct ActiGraphCountsTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures/agcounts"
  ).path

  static func table(_ name: String) throws -> [[Double]] {
    let text = try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)
    return text.split(separator: "\n").dropFirst().map { line in
      line.split(separator: ",").map { Double($0)! }
    }
  }

  static func counts(rate: Int) throws -> [(x: Int, y: Int, z: Int)] {
    var counter = try #require(ActiGraphCounts(sampleRateHz: Double(rate)))
    for row in try table("synth-\(rate)hz.csv") { counter.add(x: row[1], y: row[2], z: row[3]) }
    return counter.drainSeconds()
  }

  @Test(arguments: [30, 60, 100])
  func perSecondCountsEqualActiGraphs(rate: Int) throws {
    let ours = try Self.counts(rate: rate)
    let theirs = try Self.table("synth-\(rate)hz-counts-1s.csv")
    #expect(ours.count == theirs.count, "whole seconds only")
    var differing = 0
    for (o, t) in zip(ours, theirs) where [Double(o.x), Double(o.y), Double(o.z)] != Array(t.prefix(3)) {
      differing += 1
    }
    #expect(differing == 0, "\(differing) of \(theirs.count) seconds differ")
    let total = ours.reduce(0) { $0 + $1.x + $1.y + $1.z }
    #expect(total == Int(theirs.reduce(0) { $0 + $1[0] + $1[1] + $1[2] }))
  }

  /// A 60 s epoch sums its seconds, and its vector magnitude is that of the
  /// summed axes, as ActiGraph's 60 s epochs are.
  @Test(arguments: [30, 100])
  func minutesSumTheSecondsAndTakeTheMagnitudeOfTheSums(rate: Int) throws {
    let ours = try Self.counts(rate: rate)
    let minutes = try Self.table("synth-\(rate)hz-counts-60s.csv")
    for (m, expected) in minutes.enumerated() {
      let seconds = ours[(m * 60)..<(m * 60 + 60)]
      let x = Double(seconds.reduce(0) { $0 + $1.x })
      let y = Double(seconds.reduce(0) { $0 + $1.y })
      let z = Double(seconds.reduce(0) { $0 + $1.z })
      #expect([x, y, z] == Array(expected.prefix(3)))
      expectClose((x * x + y * y + z * z).squareRoot(), expected[3], tolerance: 1e-5)
    }
  }

  @Test func onlyThePublishedRatesAreCounted() {
    #expect(ActiGraphCounts(sampleRateHz: 25) == nil)
    #expect(ActiGraphCounts(sampleRateHz: 128) == nil)
    #expect(ActiGraphCounts(sampleRateHz: 100.3) != nil, "within 0.5 % of 100 Hz")
  }
}
