import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

/// The session of each fix is found by one sorted lookup, not a scan of
/// every session for every fix (a file of 100,000 records and 100,000
/// sessions took 63 s: probe S4-10). The lookup must choose what the
/// definition chooses.
struct FITSessionLookupTests {
  /// The definition, written out: the first session whose span holds `t`,
  /// else the first of the nearest, else the first.
  static func byDefinition(_ sessions: [FITSession], _ t: Double?) -> Int? {
    guard !sessions.isEmpty else { return nil }
    guard let t else { return 0 }
    var nearest: (index: Int, seconds: Double)?
    for (i, s) in sessions.enumerated() {
      guard let start = s.startSecondsSince1970 else { continue }
      var end = s.endSecondsSince1970 ?? s.totalElapsedSeconds.map { start + $0 } ?? start
      if end < start { end = start }
      if start <= t && t <= end { return i }
      let away = t < start ? start - t : t - end
      if away < (nearest?.seconds ?? .infinity) { nearest = (i, away) }
    }
    return nearest?.index ?? 0
  }

  /// Random sessions on a coarse grid, so that spans overlap, touch, tie
  /// in distance and repeat; some without a start, an end, or with an end
  /// before the start; queries on and between the grid.
  @Test(arguments: 0..<40)
  func theLookupChoosesWhatTheDefinitionChooses(seed: Int) {
    var random = SeededGenerator(seed: UInt64(seed + 1))
    let n = Int.random(in: 0...30, using: &random)
    var sessions: [FITSession] = []
    for _ in 0..<n {
      var s = FITSession()
      if Int.random(in: 0..<8, using: &random) > 0 {
        s.startSecondsSince1970 = Double(Int.random(in: 0...40, using: &random))
      }
      switch Int.random(in: 0..<4, using: &random) {
      case 0: s.endSecondsSince1970 = Double(Int.random(in: 0...40, using: &random))
      case 1: s.totalElapsedSeconds = Double(Int.random(in: 0...10, using: &random))
      case 2:
        s.endSecondsSince1970 = (s.startSecondsSince1970 ?? 0) + Double(Int.random(in: 0...6, using: &random))
      default: break
      }
      sessions.append(s)
    }
    let lookup = FITSessionLookup(sessions)
    for half in -4...90 {
      let t = Double(half) / 2
      #expect(lookup.index(at: t) == Self.byDefinition(sessions, t), "t = \(t), seed \(seed)")
    }
    #expect(lookup.index(at: nil) == Self.byDefinition(sessions, nil))
  }

  /// The probe's shape, crafted with the protocol's layout: 100,000
  /// records a second apart, then 100,000 sessions written after them.
  /// Session j < 50,000 spans records 2j and 2j + 1 and declares running
  /// (even j) or cycling (odd j); the other 50,000 lie a day later and hold
  /// no record. By construction: 50,000 legs, leg j being records 2j and
  /// 2j + 1 with session j's sport.
  @Test func aHundredThousandSessionsSplitTheirRecords() throws {
    let records = 100_000
    var file = FITFileBuilder()
    // Local 0: record: timestamp uint32, position_lat and _long sint32.
    file.definition(
      local: 0, global: 20, bigEndian: false, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
    let t0: UInt32 = 1_000_000_000
    for k in 0..<records {
      file.data(local: 0, bigEndian: false, [.u32(t0 + UInt32(k)), .s32(Int32(k * 100)), .s32(0)])
    }
    // Local 1: session: timestamp, start_time uint32, sport enum.
    file.definition(
      local: 1, global: 18, bigEndian: false, fields: [(253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00)])
    for j in 0..<records / 2 {
      let start = t0 + UInt32(2 * j)
      file.data(local: 1, bigEndian: false, [.u32(start + 1), .u32(start), .u8(j % 2 == 0 ? 1 : 2)])
    }
    for j in 0..<records / 2 {
      let start = t0 + UInt32(records + 86_400 + 10 * j)
      file.data(local: 1, bigEndian: false, [.u32(start + 5), .u32(start), .u8(1)])
    }
    var fixes: [TrackPoint] = []
    let header = try FITReader().stream(data: file.bytes(), source: "sessions.fit") { fixes.append($0) }
    let fit = try #require(header.fit)
    #expect(fixes.count == records && fit.sessions.count == records)
    let split = fit.splittingSegmentsBySession(Track(source: "sessions.fit", points: fixes))
    #expect(split.structure.segments == records / 2)
    #expect(split.points.enumerated().allSatisfy { k, p in p.segment == Int32(k / 2) })
    #expect(split.declaredSportBySegment.count == records / 2)
    #expect(split.declaredSportBySegment[0] == "running" && split.declaredSportBySegment[1] == "cycling")
    #expect(split.declaredSportBySegment[49_999] == "cycling")
  }
}

/// A small deterministic generator (SplitMix64) for reproducible cases.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
