import EnergyLabCore
import Foundation
import Ingest
import Signals
import TestSupport
import Testing

/// Auto-calibration of a real recording: ActiGraph's `actigraph_testfile.gt3x`
/// (GGIR's test data, 30 Hz, 588 s), beside the checkout.
@Suite struct DeviceCalibrationTests {
  static let file = (packageRoot as NSString).appendingPathComponent(
    "../shared/datasets/accelerometer-device-files/actigraph_testfile.gt3x")

  /// The still points of the file with x' = gain * x + offset per axis.
  func points(gain: SIMD3<Double>, offset: SIMD3<Double>) throws -> StillPointCollector {
    var collector = StillPointCollector()
    let format = try #require(DeviceFileReader.format(ofFileAt: Self.file))
    _ = try DeviceFileReader.read(path: Self.file, format: format, options: DeviceReadOptions()) { block in
      var values = block.values
      for i in 0..<(values.count / 3) {
        for k in 0..<3 { values[3 * i + k] = gain[k] * values[3 * i + k] + offset[k] }
      }
      collector.add(time: block.time, values: values, temperature: block.temperatureCelsius)
    }
    collector.finish()
    return collector
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: file)))
  func aKnownGainAndOffsetErrorIsUndone() throws {
    let plain = try points(gain: SIMD3(repeating: 1), offset: SIMD3())
    let distorted = try points(gain: SIMD3(1.05, 1, 0.97), offset: SIMD3(0.03, -0.02, 0.01))
    let a = AutoCalibration.fit(plain.points, windows: plain.windows)
    let b = AutoCalibration.fit(distorted.points, windows: distorted.windows)
    #expect(a.applied && b.applied)
    // scripts/fixtures/calibration-expectations.py (numpy, the published
    // method): 78 windows, 25 still, 22.943 mg before, 6.071 mg after;
    // actipy 3.8.3 calibrate_gravity (stdtol 13 mg): 25 points,
    // 22.943 mg before, 6.097 mg after.
    #expect(plain.windows == 78)
    #expect(a.stillPoints == 25)
    #expect(abs((a.errorBeforeMilliG ?? 0) - 22.943) < 0.01)
    #expect(abs((a.errorAfterMilliG ?? 0) - 6.071) < 0.01)
    #expect(abs((a.errorAfterMilliG ?? 0) - 6.097) < 0.1)
    // The distorted file's corrected still points land within 5 mg of the
    // plain file's corrected ones.
    #expect(a.stillPoints == b.stillPoints)
    for (p, q) in zip(plain.points, distorted.points) {
      let d =
        a.corrected(p.mean, temperatureCelsius: p.temperatureCelsius)
        - b.corrected(q.mean, temperatureCelsius: q.temperatureCelsius)
      #expect((d * d).sum().squareRoot() < 0.005)
    }
  }
}
