import EnergyLabCore
import TestSupport
import Testing

@testable import Ingest

/// The breath filter on series built by hand: 41 breaths 3 s apart (0 to
/// 120 s), VO2 1000 -/+ 10 mL/min alternating, VE 25 L/min, energy
/// 5 kcal/min; the energy of a known interval is 5 x seconds / 60 kcal.
struct BreathFilterTests {
  static func breaths(_ change: (Int, inout MeasuredSample) -> Void = { _, _ in }) -> MeasuredExpenditure {
    var samples: [MeasuredSample] = []
    for k in 0...40 {
      var s = MeasuredSample(
        timeSeconds: Double(3 * k), energyKilocaloriesPerMinute: 5,
        vo2MillilitersPerMinute: k % 2 == 0 ? 990 : 1010, line: k + 3)
      s.ventilationLitersPerMinute = 25
      change(k, &s)
      samples.append(s)
    }
    return MeasuredExpenditure(
      source: "breaths.csv", format: .cosmedK5, timesAreAbsolute: false, energySource: .analyserColumn,
      samples: samples)
  }

  /// Nothing to leave out: 120 s known, 10 kcal.
  @Test func cleanBreathsAreAllKept() {
    let (cleaned, report, diagnostics) = BreathFilter().apply(to: Self.breaths())
    #expect(report.impossible == 0 && report.outliers == 0 && report.gaps == 0)
    #expect(diagnostics.isEmpty)
    let known = cleaned.knownEnergy(from: 0, to: 120)
    expectClose(known.kilocalories, 10, tolerance: 1e-12, "kcal")
    #expect(known.knownSeconds == 120 && known.unknownSeconds == 0)
  }

  /// VO2 5 mL/min while VE is 25 L/min at 30 s: impossible. The intervals
  /// 27-30 and 30-33 s are unknown: 114 s known, 5 x 114 / 60 = 9.5 kcal.
  @Test func impossibleBreathLeavesItsIntervalsUnknown() {
    let (cleaned, report, diagnostics) = BreathFilter().apply(
      to: Self.breaths { k, s in if k == 10 { s.vo2MillilitersPerMinute = 5 } })
    #expect(report.impossible == 1)
    #expect(cleaned.samples[10].exclusion == .impossible)
    #expect(diagnostics.map(\.code) == ["breaths-impossible"])
    let known = cleaned.knownEnergy(from: 0, to: 120)
    expectClose(known.kilocalories, 9.5, tolerance: 1e-12, "kcal")
    expectClose(known.unknownSeconds, 6, tolerance: 1e-12, "unknown s")
    #expect(cleaned.energyKilocalories(from: 0, to: 60) == nil)
    expectClose(cleaned.energyKilocalories(from: 60, to: 120), 5, tolerance: 1e-12, "60-120 s")
  }

  /// A rate above any human's (EEm 1e300) and an energy of 0 are
  /// impossible too; low VO2 without high ventilation is not.
  @Test func impossibleRatesAndZeroEnergy() {
    let (_, report, _) = BreathFilter().apply(
      to: Self.breaths { k, s in
        if k == 5 { s.energyKilocaloriesPerMinute = 1e300 }
        if k == 15 { s.energyKilocaloriesPerMinute = 0 }
        if k == 25 {
          s.vo2MillilitersPerMinute = 50
          s.ventilationLitersPerMinute = 6
        }
      })
    #expect(report.impossible == 2)
  }

  /// A spike of +600 mL/min at 60 s: every five-breath window of the
  /// alternating series (990, 1010, 990, 1010, 990: mean 998, squared
  /// deviations 3 x 64 + 2 x 144 = 480) has SD sqrt(480 / 4) = 10.954, so
  /// the median SD is 10.954 and 4 SD = 43.8. The spike is
  /// 600 from its neighbours' mean and is left out; its neighbours, whose
  /// means it pulls by about 150, are judged again without it and kept.
  @Test func spikeIsAnOutlierButNotItsNeighbours() {
    let (cleaned, report, diagnostics) = BreathFilter().apply(
      to: Self.breaths { k, s in if k == 20 { s.vo2MillilitersPerMinute = 1600 } })
    #expect(report.outliers == 1)
    #expect(cleaned.samples[20].exclusion == .outlier)
    #expect(cleaned.samples.filter { $0.exclusion != nil }.count == 1)
    #expect(diagnostics.map(\.code) == ["breaths-outlying"])
    expectClose(cleaned.knownEnergy(from: 0, to: 120).kilocalories, 5 * 114.0 / 60, tolerance: 1e-12, "kcal")
  }

  /// No breath from 57 to 90 s: a 33 s gap, over the 20 s limit, is unknown;
  /// without the filter it is integrated (a straight line across it).
  @Test func longGapIsUnknownTime() {
    let gapped = Self.breaths()
    var holed = gapped
    holed.samples.removeAll { $0.timeSeconds > 57 && $0.timeSeconds < 90 }
    let (cleaned, report, diagnostics) = BreathFilter().apply(to: holed)
    #expect(report.gaps == 1)
    expectClose(report.gapSeconds, 33, tolerance: 1e-12, "gap s")
    #expect(diagnostics.map(\.code) == ["measured-gaps"])
    let known = cleaned.knownEnergy(from: 0, to: 120)
    expectClose(known.unknownSeconds, 33, tolerance: 1e-12, "unknown s")
    expectClose(known.kilocalories, 5 * 87.0 / 60, tolerance: 1e-12, "kcal")
    expectClose(holed.knownEnergy(from: 0, to: 120).kilocalories, 10, tolerance: 1e-12, "unfiltered")
  }

  /// One breath without energy leaves only its own intervals unknown, not
  /// the whole file (the total over the rest is known).
  @Test func missingEnergyLeavesOnlyItsIntervals() {
    let missing = Self.breaths { k, s in if k == 30 { s.energyKilocaloriesPerMinute = nil } }
    let known = missing.knownEnergy(from: 0, to: 120)
    expectClose(known.unknownSeconds, 6, tolerance: 1e-12, "unknown s")
    expectClose(known.kilocalories, 9.5, tolerance: 1e-12, "kcal")
    // Before the first and after the last breath is unknown too.
    expectClose(missing.knownEnergy(from: -10, to: 130).unknownSeconds, 26, tolerance: 1e-12, "outside")
  }
}
