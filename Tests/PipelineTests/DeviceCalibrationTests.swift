import EnergyLabCore
import Foundation
import Ingest
import Signals
import TestSupport
import Testing

/// Auto-calibration of a real recording: ActiGraph's `actigraph_testfile.gt3x`
/// (GGIR's test data, 30 Hz, 588 s), shipped in Datasets/device-files.
@Suite struct DeviceCalibrationTests {
  static let file = packageRoot + "/Datasets/device-files/actigraph_testfile.gt3x"

  /// The still points of the file with x' = gain * x + offset per axis.
  func points(gain: SIMD3<Double>, offset: SIMD3<Double>) throws -> StillPointCollector {
    var collector = StillPointCollector()
    let format = try #require(DeviceFileReader.format(ofFileAt: Self.file))
    _ = try DeviceFileReader.read(
      path: Self.file, format: format, options: DeviceReadOptions(fillIdleSleep: false)
    ) { block in
      var values = block.values
      for i in 0..<(values.count / 3) {
        for k in 0..<3 { values[3 * i + k] = gain[k] * values[3 * i + k] + offset[k] }
      }
      collector.add(time: block.time, values: values, temperature: block.temperatureCelsius)
    }
    collector.finish()
    return collector
  }

  @Test
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

  /// Every sample of the file: times (s), x, y, z (g).
  func samples() throws -> (time: [Double], values: [Double]) {
    var time: [Double] = []
    var values: [Double] = []
    let format = try #require(DeviceFileReader.format(ofFileAt: Self.file))
    _ = try DeviceFileReader.read(
      path: Self.file, format: format, options: DeviceReadOptions(fillIdleSleep: false)
    ) { block in
      time += block.time
      values += block.values
    }
    return (time, values)
  }

  /// What actipy and the numpy implementation of the method fitted
  /// (scripts/fixtures/calibration-temperature-expectations.py).
  static func temperatureFixture() throws -> [String: Any] {
    let path = packageRoot + "/Tests/PipelineTests/Fixtures/device-calibration/temperature.json"
    let data = try #require(FileManager.default.contents(atPath: path))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  /// The file played three times at a stated device temperature of 18, 31
  /// and 24 °C, each copy moved on by the file's span rounded up to 10 s
  /// (so its windows are the same), with per axis
  /// `a' = gain * a + offset + coefficient * (T - 25 °C)`: gain (1.05, 1,
  /// 0.97), offset (0.03, -0.02, 0.01) g, coefficient (2, -1.5, 1) mg/°C.
  /// The file records no temperature; a cold and a warm spell are what the
  /// temperature term of van Hees et al. 2014 is for.
  @Test
  func aTemperatureDependentOffsetErrorIsUndone() throws {
    let (time, values) = try samples()
    let shift = ((time.last! - time.first! + 1) / 10).rounded(.up) * 10
    let copies = [18.0, 31.0, 24.0]
    let gain = SIMD3(1.05, 1, 0.97)
    let offset = SIMD3(0.03, -0.02, 0.01)
    let coefficient = SIMD3(0.002, -0.0015, 0.001)
    var plain = StillPointCollector()
    var distorted = StillPointCollector()
    var allTime: [Double] = []
    var allPlain: [Double] = []
    var allDistorted: [Double] = []
    var allTemperature: [Double] = []
    for (copy, celsius) in copies.enumerated() {
      let t = time.map { $0 + Double(copy) * shift }
      var d = values
      for i in 0..<(d.count / 3) {
        for k in 0..<3 { d[3 * i + k] = gain[k] * d[3 * i + k] + offset[k] + coefficient[k] * (celsius - 25) }
      }
      let temperature = [Double](repeating: celsius, count: t.count)
      plain.add(time: t, values: values, temperature: [])
      distorted.add(time: t, values: d, temperature: temperature)
      allTime += t
      allPlain += values
      allDistorted += d
      allTemperature += temperature
    }
    plain.finish()
    distorted.finish()
    let a = AutoCalibration.fit(plain.points, windows: plain.windows)
    let b = AutoCalibration.fit(distorted.points, windows: distorted.windows)
    #expect(a.applied && b.applied)
    #expect(!a.usesTemperature)
    #expect(b.usesTemperature)
    // The coefficient found undoes the one put in: the correction adds
    // t * (T - reference) before scaling, so t = -coefficient.
    for k in 0..<3 {
      expectClose(b.temperatureCoefficientGPerCelsius[k], -coefficient[k], tolerance: 5e-5, "axis \(k) g/°C")
    }
    // Every sample of the distorted copies, corrected, lands within 5 mg
    // of the same sample of the plain copies, corrected.
    var worst = 0.0
    for i in 0..<(allTime.count) {
      let p = a.corrected(
        SIMD3(allPlain[3 * i], allPlain[3 * i + 1], allPlain[3 * i + 2]), temperatureCelsius: .nan)
      let q = b.corrected(
        SIMD3(allDistorted[3 * i], allDistorted[3 * i + 1], allDistorted[3 * i + 2]),
        temperatureCelsius: allTemperature[i])
      worst = max(worst, ((p - q) * (p - q)).sum().squareRoot())
    }
    #expect(worst < 0.005, "worst sample \(worst * 1000) mg apart")

    let fixture = try Self.temperatureFixture()
    #expect(fixture["samples_per_copy"] as? Int == time.count)
    #expect(fixture["copy_shift_s"] as? Double == shift)
    // The numpy implementation of the published method: the same windows,
    // points, errors and corrected samples.
    let numpy = try #require(fixture["numpy"] as? [String: Any])
    #expect(distorted.windows == numpy["windows"] as? Int)
    #expect(b.stillPoints == numpy["still_points"] as? Int)
    expectClose(b.errorBeforeMilliG, try #require(numpy["error_before_mg"] as? Double), tolerance: 0.01)
    expectClose(b.errorAfterMilliG, try #require(numpy["error_after_mg"] as? Double), tolerance: 0.01)
    expectClose(b.referenceTemperatureCelsius, try #require(numpy["reference_c"] as? Double), tolerance: 1e-9)
    // actipy 3.8.3 calibrate_gravity (its weights zero the worst 0.5 % of
    // points where the method weighs by the inverse residual, and it
    // scales before adding its temperature term): the same still points,
    // an error after within 0.1 mg, temperature slopes (ours times the
    // scale) within 0.15 mg/°C, corrected samples within 10 mg.
    let actipy = try #require(fixture["actipy"] as? [String: Any])
    #expect(actipy["ok"] as? Int == 1)
    #expect(b.stillPoints == actipy["still_points"] as? Int)
    expectClose(b.errorAfterMilliG, try #require(actipy["error_after_mg"] as? Double), tolerance: 0.1)
    let slopes = try #require(actipy["slope_t_g_per_c"] as? [Double])
    for k in 0..<3 {
      expectClose(
        b.scale[k] * b.temperatureCoefficientGPerCelsius[k], slopes[k], tolerance: 1.5e-4, "slope T \(k)")
    }
    for (name, tolerance) in [("numpy", 1e-5), ("actipy", 0.01)] {
      let at = try #require((fixture[name] as? [String: Any])?["corrected_at"] as? [String: [Double]])
      for (key, expected) in at {
        let i = try #require(Int(key))
        let q = b.corrected(
          SIMD3(allDistorted[3 * i], allDistorted[3 * i + 1], allDistorted[3 * i + 2]),
          temperatureCelsius: allTemperature[i])
        for k in 0..<3 {
          expectClose(q[k], expected[k], tolerance: tolerance, "\(name): sample \(i) axis \(k)")
        }
      }
    }
  }
}
