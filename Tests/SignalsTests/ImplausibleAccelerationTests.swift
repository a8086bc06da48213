import EnergyLabCore
import Foundation
import Signals
import TestSupport
import Testing

/// One row of 1e308 mg in a Polar export made every mean infinite: the
/// whole file's steps and ENMO were empty, with a gravity warning. The row
/// is left out and said; the rest keeps its values.
struct ImplausibleAccelerationTests {
  /// By hand: 3,000 rows of (0, 0.9, 1.2) g at 50 Hz have |a| = 1.5 g,
  /// ENMO 500 mg each; row 1,500 holds 1e305 g (1e308 mg). The other 2,999
  /// rows keep a mean ENMO of 500 mg.
  @Test func oneAbsurdRowIsLeftOut() throws {
    var analyzer = AccelAnalyzer(kind: .raw, declaredRateHz: 50, parameters: AccelAnalysisParameters())
    var time: [Double] = []
    var values: [Double] = []
    for k in 0..<3000 {
      time.append(1_700_000_000 + Double(k) / 50)
      values += k == 1500 ? [0, 1e305, 1.2] : [0, 0.9, 1.2]
    }
    analyzer.add(time: time, values: values)
    let a = analyzer.finish()
    #expect(a.samples == 2999)
    expectClose(a.enmoMeanMilliG, 500, tolerance: 1e-6)
    #expect(!a.diagnostics.contains { $0.code == "gravity-missing" })
    let warning = try #require(a.diagnostics.first { $0.code == "implausible-acceleration" })
    #expect(warning.message.hasPrefix("1 row(s) with an acceleration beyond ±1000 g"))
    #expect(warning.message.hasSuffix("the first 1e+305 g at 2023-11-14T22:13:50.000Z"))
  }
}
