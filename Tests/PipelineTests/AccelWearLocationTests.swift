import EnergyLabCore
import Foundation
import Pipeline
import Signals
import TestSupport
import Testing

/// The shipped GT3X file (GGIR's test data) says `Limb: Waist` in its
/// info.txt: cut-points derived at the wrist are applied with a warning,
/// the hip's without; its idle sleep is filled by default, as ActiLife
/// fills it, and left out only when asked.
struct AccelWearLocationTests {
  static let file = packageRoot + "/Datasets/device-files/actigraph_testfile.gt3x"

  @Test func wristCutPointsOnAWaistFileAreAWarning() throws {
    let r = try AccelPipeline.analyse(Self.file, options: AccelOptions())
    #expect(r.statedWearLocation == "Waist")
    #expect(r.analysis.cutPoints.id == "hildebrand-wrist-actigraph")
    let warning = try #require(r.diagnostics.first { $0.code == "cut-points-wear-location" })
    #expect(warning.message.contains("hildebrand-hip-actigraph"))
    var hip = AccelOptions()
    hip.analysis.cutPoints = .hildebrandHipActiGraph
    let fits = try AccelPipeline.analyse(Self.file, options: hip)
    #expect(!fits.diagnostics.contains { $0.code == "cut-points-wear-location" })
  }

  @Test func idleSleepIsFilledUnlessAsked() throws {
    let filled = try AccelPipeline.analyse(Self.file, options: AccelOptions())
    var options = AccelOptions()
    options.fillIdleSleep = false
    let gaps = try AccelPipeline.analyse(Self.file, options: options)
    // 17,640 samples read, 1,180 s x 30 Hz filled (pygt3x's 53,040).
    #expect(filled.analysis.samples == 53_040)
    #expect(gaps.analysis.samples == 17_640)
    #expect(filled.analysis.gaps == 0 && gaps.analysis.gaps == 23)
    // scripts/oracles/accel-equations.py (part D), from pygt3x's samples
    // and its IdleSleepMode flags: 15.135246 mg filled, 30.272020 mg
    // with the idle sleep left out.
    expectClose(filled.analysis.enmoMeanMilliG, 15.135246, tolerance: 1e-5, "ENMO filled")
    expectClose(gaps.analysis.enmoMeanMilliG, 30.272020, tolerance: 1e-5, "ENMO without idle sleep")
    #expect(filled.diagnostics.contains { $0.code == "idle-sleep" && $0.severity == .note })
    #expect(gaps.diagnostics.contains { $0.code == "idle-sleep" && $0.severity == .warning })
    #expect(AccelOptions().described([filled]).contains { $0.name == "idle_sleep" && $0.value == "fill" })
    #expect(options.described([gaps]).contains { $0.name == "idle_sleep" && $0.value == "gap" })
  }
}

/// The shipped day of 60 s counts: GGIR's own `g.getbout` run in R by
/// scripts/oracles/ggir-bouts.R on its minutes (MVPA at Freedson's 1952
/// cpm, sedentary below 100) marks 100 minutes of MVPA bouts (10 min at
/// 80 %: 451-470, 721-750, 1051-1070, 1111-1140) and 1270 of sedentary
/// bouts (30 min at 90 %); three sedentary minutes are followed by active
/// ones.
struct GGIRBoutsOnADayTests {
  @Test func boutsOfTheDayAreGGIRs() throws {
    let r = try AccelPipeline.analyse(
      packageRoot + "/Datasets/accelerometer/day-counts-60s.csv", options: AccelOptions())
    let day = try #require(r.analysis.days.first)
    expectClose(day.mvpaBoutMinutes, 100, tolerance: 1e-9, "MVPA bouts")
    expectClose(day.sedentaryBoutMinutes, 1270, tolerance: 1e-9, "sedentary bouts")
    #expect(day.sedentaryBreaks == 3)
  }
}
