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
    #expect(filled.diagnostics.contains { $0.code == "idle-sleep" && $0.severity == .note })
    #expect(gaps.diagnostics.contains { $0.code == "idle-sleep" && $0.severity == .warning })
    #expect(AccelOptions().described([filled]).contains { $0.name == "idle_sleep" && $0.value == "fill" })
    #expect(options.described([gaps]).contains { $0.name == "idle_sleep" && $0.value == "gap" })
  }
}
