import EnergyLabCore
import Estimation
import Foundation
import Pipeline
import Signals
import TestSupport
import Testing

/// `accel energy --model` on shipped recordings against
/// scripts/oracles/accel-equations.py, which reads the files with Python's
/// csv and pygt3x and applies the published equations: the 60 s counts
/// file (parts B) and the real GT3X file, idle sleep filled (part C).
struct AccelEquationEnergyTests {
  static func energy(_ file: String, models: [String], massKilograms: Double) throws -> (
    totals: [String: Double], diagnostics: [Diagnostic]
  ) {
    var energy = AccelEnergyOptions()
    energy.bodyMassKilograms = massKilograms
    energy.equations = models
    let options = try AccelCommands.withEquationEpochs(AccelOptions(), energy: energy)
    let r = try AccelPipeline.analyse(packageRoot + "/" + file, options: options)
    let result = try AccelCommands.recordingEnergy(
      r, options: options, energy: energy, intakeKilocalories: nil, allowanceKilocalories: nil)
    return (
      Dictionary(uniqueKeysWithValues: result.totals.map { ($0.model, $0.kcal) }), result.diagnostics
    )
  }

  @Test func countsEquationsOnAFileOfMinutes() throws {
    let e = try Self.energy(
      "Datasets/accelerometer/day-counts-60s.csv", models: ["freedson-1998", "sasaki-2011-vm3"],
      massKilograms: 70)
    expectClose(e.totals["freedson-1998"], 3047.4546, tolerance: 1e-3, "freedson-1998")
    expectClose(e.totals["sasaki-2011-vm3"], 2315.4493, tolerance: 1e-3, "sasaki-2011-vm3")
  }

  /// 120 epochs of 10 s counts written by scripts/oracles/crouter-2010.py,
  /// which computes the CVs and energy from the published rule: 88.190225
  /// kcal at 70 kg.
  @Test func refinedTwoRegressionModelOnTenSecondCounts() throws {
    let e = try Self.energy(
      "Tests/PipelineTests/Fixtures/crouter-2010/counts-10s.csv", models: ["crouter-2010-refined"],
      massKilograms: 70)
    expectClose(e.totals["crouter-2010-refined"], 88.190225, tolerance: 1e-5, "crouter-2010-refined")
    #expect(!e.diagnostics.contains { $0.code == "equation-epochs-unknown" })
  }

  @Test func variationOfSixEpochs() {
    // SD (n - 1) / mean x 100 of 1..6 = 1.870829 / 3.5 x 100; the third
    // value lies in windows starting at 0, 1 and 2.
    let cv = AccelEquation.lowestVariation([1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6])
    expectClose(cv[0], 53.452248, tolerance: 1e-5, "first")
    #expect(cv[10] == 0)
    #expect(AccelEquation.lowestVariation([1, 2, 3]).allSatisfy { $0 == nil })
  }

  @Test func enmoEquationOnTheRealGT3X() throws {
    let e = try Self.energy(
      "Datasets/device-files/actigraph_testfile.gt3x",
      models: ["hildebrand-2014-actigraph-hip-adult", "hildebrand-2014-actigraph-wrist-adult"],
      massKilograms: 61)
    expectClose(e.totals["hildebrand-2014-actigraph-hip-adult"], 67.4813, tolerance: 1e-3, "hip line")
    // The header says Waist: the wrist line is applied with a warning, the
    // hip line without.
    let site = e.diagnostics.filter { $0.code == "equation-wear-location" }
    #expect(site.count == 1 && site[0].message.hasPrefix("hildebrand-2014-actigraph-wrist-adult"))
    #expect(!e.diagnostics.contains { $0.code == "equation-device" })
  }

  @Test func anotherDeviceIsAWarning() throws {
    let e = try Self.energy(
      "Datasets/device-files/ax3_testfile.cwa", models: ["hildebrand-2014-geneactiv-wrist-adult"],
      massKilograms: 70)
    #expect(e.totals["hildebrand-2014-geneactiv-wrist-adult"] != nil)
    #expect(e.diagnostics.contains { $0.code == "equation-device" && $0.severity == .warning })
  }

  @Test func anEquationWithoutItsQuantityIsAnError() throws {
    // A file of 60 s counts cannot give Crouter's 5 s counts, nor ENMO.
    #expect(throws: UsageError.self) {
      try Self.energy(
        "Datasets/accelerometer/day-counts-60s.csv", models: ["crouter-2015-wrist-va"], massKilograms: 70)
    }
    #expect(throws: UsageError.self) {
      try Self.energy(
        "Datasets/accelerometer/day-counts-60s.csv", models: ["hildebrand-2014-actigraph-hip-adult"],
        massKilograms: 70)
    }
    #expect(throws: (any Error).self) {
      try Self.energy("Datasets/accelerometer/day-counts-60s.csv", models: ["no-such"], massKilograms: 70)
    }
  }
}
