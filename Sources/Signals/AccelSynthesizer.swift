import Foundation

/// A movement of a synthetic recording: vertical acceleration of 1 g plus
/// `amplitudeG` x sin(2 pi `frequencyHz` t), one peak per step.
public struct SyntheticMovement: Sendable, Hashable {
  public var name: String
  public var frequencyHz: Double
  public var amplitudeG: Double

  public init(name: String, frequencyHz: Double, amplitudeG: Double) {
    self.name = name
    self.frequencyHz = frequencyHz
    self.amplitudeG = amplitudeG
  }

  public static let still = SyntheticMovement(name: "still", frequencyHz: 0, amplitudeG: 0)
  /// 120 steps/min, a usual walking cadence.
  public static let walk = SyntheticMovement(name: "walk", frequencyHz: 2, amplitudeG: 0.3)
  /// 168 steps/min.
  public static let run = SyntheticMovement(name: "run", frequencyHz: 2.8, amplitudeG: 0.8)

  public static let presets = [still, walk, run]
}

/// What to synthesise: legs of movement at a sample rate, with noise.
public struct SyntheticRecordingSpec: Sendable {
  public var startSecondsSince1970 = 1_772_438_400.0  // 2026-03-02T08:00:00Z
  public var rateHz = 100.0
  public var legs: [(movement: SyntheticMovement, seconds: Double)] = [(.walk, 60)]
  /// Standard deviation of Gaussian noise on each axis, g.
  public var noiseG = 0.01
  public var seed: UInt64 = 1

  public init() {}

  /// Steps by construction: one per cycle of every leg.
  public var steps: Int {
    legs.reduce(0) { $0 + Int(($1.movement.frequencyHz * $1.seconds).rounded(.down)) }
  }

  public var samples: Int { legs.reduce(0) { $0 + Int(($1.seconds * rateHz).rounded()) } }
}

/// Produces the samples of a `SyntheticRecordingSpec` in order, x, y, z in
/// g, without holding them.
public enum AccelSynthesizer {
  public static func generate(
    _ spec: SyntheticRecordingSpec,
    _ body: (_ index: Int, _ x: Double, _ y: Double, _ z: Double) throws -> Void
  ) rethrows {
    var state = spec.seed &+ 0x9E37_79B9_7F4A_7C15
    func uniform() -> Double {
      // SplitMix64 (Steele, Lea and Flood 2014).
      state = state &+ 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      return (Double(z >> 11) + 0.5) / 9_007_199_254_740_992
    }
    var spare: Double?
    func gaussian() -> Double {
      if let s = spare {
        spare = nil
        return s
      }
      let r = (-2 * log(uniform())).squareRoot()
      let a = 2 * Double.pi * uniform()
      spare = r * sin(a)
      return r * cos(a)
    }
    var index = 0
    for leg in spec.legs {
      let n = Int((leg.seconds * spec.rateHz).rounded())
      let w = 2 * Double.pi * leg.movement.frequencyHz / spec.rateHz
      for i in 0..<n {
        let a = leg.movement.amplitudeG * sin(w * Double(i))
        let noise = spec.noiseG
        try body(index, noise * gaussian(), noise * gaussian(), 1 + a + noise * gaussian())
        index += 1
      }
    }
  }
}
