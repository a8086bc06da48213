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

  /// A route to follow instead of a straight line: waypoints joined by
  /// geodesics, travelled at `speedMetersPerSecond`, elevation interpolated
  /// from the waypoints' when they have one (the GOTOES step of the Alter
  /// Eco thesis, L795-801).
  public var route: [TrackPoint] = []

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
    if spec.route.count >= 2 { return routeTrack(spec) }
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

extension TrackSynthesizer {
  /// Follows the waypoints at constant speed, one fix per interval.
  static func routeTrack(_ spec: SyntheticTrackSpec) -> Track {
    var random = SplitMix64(seed: spec.seed)
    var cumulative = [0.0]
    for i in spec.route.indices.dropFirst() {
      let a = spec.route[i - 1]
      let b = spec.route[i]
      cumulative.append(
        cumulative[i - 1]
          + Geodesy.distanceMeters(
            fromLatitude: a.latitudeDegrees, longitude: a.longitudeDegrees, toLatitude: b.latitudeDegrees,
            longitude: b.longitudeDegrees))
    }
    let total = cumulative[cumulative.count - 1]
    let duration = total / spec.speedMetersPerSecond
    let count = Int((duration / spec.sampleIntervalSeconds).rounded(.down)) + 1
    var points: [TrackPoint] = []
    var segment = 1
    for k in 0..<count {
      let t = Double(k) * spec.sampleIntervalSeconds
      let along = min(total, spec.speedMetersPerSecond * t)
      while segment < spec.route.count - 1 && cumulative[segment] < along { segment += 1 }
      let a = spec.route[segment - 1]
      let b = spec.route[segment]
      let length = cumulative[segment] - cumulative[segment - 1]
      let fraction = length > 0 ? (along - cumulative[segment - 1]) / length : 0
      // Azimuth at the start of the segment, from a point 1 m along it.
      let azimuth = Self.azimuth(a, b)
      var position = Geodesy.destination(
        fromLatitude: a.latitudeDegrees, longitude: a.longitudeDegrees, azimuthDegrees: azimuth,
        distanceMeters: along - cumulative[segment - 1])
      if spec.horizontalNoiseMeters > 0 {
        let (east, north) = random.nextGaussianPair()
        position = Geodesy.destination(
          fromLatitude: position.latitudeDegrees, longitude: position.longitudeDegrees,
          azimuthDegrees: atan2(east, north) * 180 / .pi,
          distanceMeters: spec.horizontalNoiseMeters * hypot(east, north))
      }
      var elevation: Double?
      if let za = a.elevationMeters, let zb = b.elevationMeters {
        elevation = za + (zb - za) * fraction
      } else {
        elevation = spec.startElevationMeters + spec.gradeFraction * along
      }
      points.append(
        TrackPoint(
          latitudeDegrees: position.latitudeDegrees, longitudeDegrees: position.longitudeDegrees,
          elevationMeters: elevation,
          timeSecondsSince1970: spec.startSecondsSince1970 + t,
          heartRateBeatsPerMinute: spec.heartRateBeatsPerMinute))
    }
    return Track(name: spec.name, source: "synthetic", points: points)
  }

  /// Initial geodesic azimuth from a to b, degrees (by bisection on the
  /// direct problem would be slow; the spherical formula is within a
  /// fraction of a degree for route segments, and the direct problem then
  /// keeps every fix on the ellipsoid).
  static func azimuth(_ a: TrackPoint, _ b: TrackPoint) -> Double {
    let phi1 = a.latitudeDegrees * .pi / 180
    let phi2 = b.latitudeDegrees * .pi / 180
    let dLambda = (b.longitudeDegrees - a.longitudeDegrees) * .pi / 180
    let y = sin(dLambda) * cos(phi2)
    let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
    return atan2(y, x) * 180 / .pi
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
