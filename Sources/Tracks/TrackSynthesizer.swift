import EnergyLabCore
import Foundation

/// Settings of a synthetic track: a straight walk along a geodesic at a
/// constant horizontal speed and grade, the answers known by construction.
public struct SyntheticTrackSpec: Sendable, Hashable {
  public var startLatitudeDegrees: Double = 50.8671  // University of Sussex, Falmer
  public var startLongitudeDegrees: Double = -0.0873
  public var startElevationMeters: Double = 50
  /// Direction of travel, degrees clockwise from north.
  public var azimuthDegrees: Double = 45
  public var speedMetersPerSecond: Double = 1.2
  /// Rise over horizontal run; elevation grows linearly with distance.
  public var gradeFraction: Double = 0
  public var durationSeconds: Double = 600
  public var sampleIntervalSeconds: Double = 1
  /// Seconds since 1970 of the first fix.
  public var startSecondsSince1970: Double = 1_336_467_600  // 2012-05-08T09:00:00Z
  /// Standard deviation of Gaussian horizontal position noise, metres; 0
  /// gives exact positions.
  public var horizontalNoiseMeters: Double = 0
  /// Seed of the noise generator (SplitMix64); the same seed gives the same
  /// file.
  public var seed: UInt64 = 1
  public var name: String = "synthetic walk"
  /// Heart rate written with every fix, bpm; nil writes none.
  public var heartRateBeatsPerMinute: Double?
  /// Consecutive legs of constant speed and grade; when empty, one leg of
  /// `speedMetersPerSecond`, `gradeFraction` and `durationSeconds`.
  public var legs: [Leg] = []

  /// A stretch at constant horizontal speed and grade.
  public struct Leg: Sendable, Hashable {
    public var speedMetersPerSecond: Double
    public var gradeFraction: Double
    public var durationSeconds: Double
    public init(speedMetersPerSecond: Double, gradeFraction: Double, durationSeconds: Double) {
      self.speedMetersPerSecond = speedMetersPerSecond
      self.gradeFraction = gradeFraction
      self.durationSeconds = durationSeconds
    }
  }

  /// The legs to generate.
  public var effectiveLegs: [Leg] {
    legs.isEmpty
      ? [
        Leg(
          speedMetersPerSecond: speedMetersPerSecond, gradeFraction: gradeFraction,
          durationSeconds: durationSeconds)
      ]
      : legs
  }

  public init() {}
}

/// Generates synthetic tracks (the GOTOES step of the Alter Eco thesis:
/// a route turned into timestamped fixes from an average speed).
public enum TrackSynthesizer {
  public static func track(_ spec: SyntheticTrackSpec) -> Track {
    var random = SplitMix64(seed: spec.seed)
    let legs = spec.effectiveLegs
    let total = legs.reduce(0) { $0 + $1.durationSeconds }
    let count = Int((total / spec.sampleIntervalSeconds + 1e-9).rounded(.down)) + 1
    var points: [TrackPoint] = []
    points.reserveCapacity(count)
    /// Distance and rise after `t` seconds, leg by leg.
    func position(at t: Double) -> (distance: Double, rise: Double) {
      var distance = 0.0
      var rise = 0.0
      var remaining = t
      for leg in legs {
        let dt = min(remaining, leg.durationSeconds)
        distance += leg.speedMetersPerSecond * dt
        rise += leg.speedMetersPerSecond * dt * leg.gradeFraction
        remaining -= dt
        if remaining <= 0 { break }
      }
      return (distance, rise)
    }
    for k in 0..<count {
      let t = Double(k) * spec.sampleIntervalSeconds
      let (distance, rise) = position(at: t)
      var position = Geodesy.destination(
        fromLatitude: spec.startLatitudeDegrees, longitude: spec.startLongitudeDegrees,
        azimuthDegrees: spec.azimuthDegrees, distanceMeters: distance)
      if spec.horizontalNoiseMeters > 0 {
        let (east, north) = random.nextGaussianPair()
        let offset = spec.horizontalNoiseMeters * hypot(east, north)
        let bearing = atan2(east, north) * 180 / .pi
        position = Geodesy.destination(
          fromLatitude: position.latitudeDegrees, longitude: position.longitudeDegrees,
          azimuthDegrees: bearing,
          distanceMeters: offset)
      }
      points.append(
        TrackPoint(
          latitudeDegrees: position.latitudeDegrees, longitudeDegrees: position.longitudeDegrees,
          elevationMeters: spec.startElevationMeters + rise,
          timeSecondsSince1970: spec.startSecondsSince1970 + t,
          heartRateBeatsPerMinute: spec.heartRateBeatsPerMinute, sourceLine: 0))
    }
    return Track(name: spec.name, source: "synthetic", points: points)
  }
}

/// SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014): small, seedable and the same on every
/// platform, unlike the system generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A uniform double in (0, 1).
  public mutating func nextUnit() -> Double { (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992 }
  /// Two independent standard normal values (Box-Muller).
  public mutating func nextGaussianPair() -> (Double, Double) {
    let u1 = nextUnit()
    let u2 = nextUnit()
    let r = sqrt(-2 * log(u1))
    return (r * cos(2 * .pi * u2), r * sin(2 * .pi * u2))
  }
}
