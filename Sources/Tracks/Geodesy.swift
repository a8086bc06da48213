import EnergyLabCore
import Foundation

/// Distances and positions on the WGS-84 ellipsoid.
public enum Geodesy {
  /// WGS-84 semi-major axis, metres.
  public static let semiMajorAxisMeters = 6_378_137.0
  /// WGS-84 flattening.
  public static let flattening = 1 / 298.257_223_563
  /// Mean Earth radius R1 = (2a + b) / 3 of WGS-84 (IUGG), metres, used by
  /// the haversine distance.
  public static let meanRadiusMeters = 6_371_008.8

  /// How a distance between two fixes is computed.
  public enum DistanceMethod: String, Sendable, Hashable, CaseIterable {
    /// Geodesic on the WGS-84 ellipsoid (Vincenty 1975), accurate to well
    /// under a millimetre for track steps.
    case geodesic
    /// Great circle on a sphere of radius `meanRadiusMeters`; up to 0.5 %
    /// off the ellipsoid.
    case haversine
  }

  /// The distance between two points along the surface.
  public static func distanceMeters(
    fromLatitude lat1: Double, longitude lon1: Double, toLatitude lat2: Double, longitude lon2: Double,
    method: DistanceMethod = .geodesic
  ) -> Double {
    switch method {
    case .haversine: return haversineMeters(lat1, lon1, lat2, lon2)
    case .geodesic:
      return vincentyInverseMeters(lat1, lon1, lat2, lon2) ?? haversineMeters(lat1, lon1, lat2, lon2)
    }
  }

  /// Haversine great-circle distance:
  /// ```
  /// d = 2 R asin( sqrt( sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2) ) )
  /// ```
  static func haversineMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let phi1 = lat1 * .pi / 180
    let phi2 = lat2 * .pi / 180
    let dPhi = phi2 - phi1
    let dLambda = (lon2 - lon1) * .pi / 180
    let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
    return 2 * meanRadiusMeters * asin(min(1, sqrt(h)))
  }

  /// Vincenty's inverse formula (T. Vincenty, "Direct and inverse solutions
  /// of geodesics on the ellipsoid with application of nested equations",
  /// Survey Review 23(176), 1975). Returns nil when the iteration does not
  /// converge (nearly antipodal points), where the caller falls back to the
  /// great circle.
  static func vincentyInverseMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double?
  {
    vincentyInverseMeters(
      ReducedPoint(latitudeDegrees: lat1, longitudeDegrees: lon1),
      ReducedPoint(latitudeDegrees: lat2, longitudeDegrees: lon2))
  }

  /// A point with its reduced latitude U = atan((1 - f) tan(phi)) worked
  /// out once, for tracks, where every fix ends one step and starts the
  /// next.
  public struct ReducedPoint: Sendable, Hashable {
    public let latitudeDegrees: Double
    public let longitudeDegrees: Double
    let sinU: Double
    let cosU: Double

    public init(latitudeDegrees: Double, longitudeDegrees: Double) {
      self.latitudeDegrees = latitudeDegrees
      self.longitudeDegrees = longitudeDegrees
      // tan U = (1 - f) tan(phi); sin U and cos U from tan U without the
      // arctangent: cos U = 1 / sqrt(1 + tan^2 U), sin U = tan U cos U.
      let t = (1 - Geodesy.flattening) * tan(latitudeDegrees * .pi / 180)
      cosU = 1 / (1 + t * t).squareRoot()
      sinU = t * cosU
    }
  }

  /// The distance between two points, as `distanceMeters`, from their
  /// reduced latitudes.
  public static func distanceMeters(_ p: ReducedPoint, _ q: ReducedPoint, method: DistanceMethod = .geodesic)
    -> Double
  {
    switch method {
    case .haversine:
      return haversineMeters(p.latitudeDegrees, p.longitudeDegrees, q.latitudeDegrees, q.longitudeDegrees)
    case .geodesic:
      return vincentyInverseMeters(p, q)
        ?? haversineMeters(p.latitudeDegrees, p.longitudeDegrees, q.latitudeDegrees, q.longitudeDegrees)
    }
  }

  static func vincentyInverseMeters(_ p: ReducedPoint, _ q: ReducedPoint) -> Double? {
    let (lat1, lon1, lat2, lon2) = (
      p.latitudeDegrees, p.longitudeDegrees, q.latitudeDegrees, q.longitudeDegrees
    )
    if lat1 == lat2 && lon1 == lon2 { return 0 }
    let a = semiMajorAxisMeters
    let f = flattening
    let b = a * (1 - f)
    let L = (lon2 - lon1) * .pi / 180
    let sinU1 = p.sinU
    let cosU1 = p.cosU
    let sinU2 = q.sinU
    let cosU2 = q.cosU
    var lambda = L
    var iterations = 0
    var sinSigma = 0.0
    var cosSigma = 0.0
    var sigma = 0.0
    var cosSqAlpha = 0.0
    var cos2SigmaM = 0.0
    while true {
      let sinLambda = sin(lambda)
      let cosLambda = cos(lambda)
      let t1 = cosU2 * sinLambda
      let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
      sinSigma = sqrt(t1 * t1 + t2 * t2)
      if sinSigma == 0 { return 0 }
      cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
      sigma = atan2(sinSigma, cosSigma)
      let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
      cosSqAlpha = 1 - sinAlpha * sinAlpha
      cos2SigmaM = cosSqAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0
      let C = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
      let previous = lambda
      lambda =
        L + (1 - C) * f * sinAlpha
        * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
      iterations += 1
      if abs(lambda - previous) < 1e-15 { break }
      if iterations >= 200 { return nil }
    }
    let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
    let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
    let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
    let deltaSigma =
      B * sinSigma
      * (cos2SigmaM + B / 4
        * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma)
          * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
    return b * A * (sigma - deltaSigma)
  }

  /// A point and the forward azimuth there.
  public struct Destination: Sendable, Hashable {
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    public var finalAzimuthDegrees: Double
  }

  /// Vincenty's direct formula (same paper): the point `distanceMeters`
  /// along the geodesic that leaves (lat, lon) at `azimuthDegrees`
  /// clockwise from north.
  public static func destination(
    fromLatitude lat: Double, longitude lon: Double, azimuthDegrees: Double, distanceMeters s: Double
  ) -> Destination {
    let a = semiMajorAxisMeters
    let f = flattening
    let b = a * (1 - f)
    let alpha1 = azimuthDegrees * .pi / 180
    let sinAlpha1 = sin(alpha1)
    let cosAlpha1 = cos(alpha1)
    let tanU1 = (1 - f) * tan(lat * .pi / 180)
    let cosU1 = 1 / sqrt(1 + tanU1 * tanU1)
    let sinU1 = tanU1 * cosU1
    let sigma1 = atan2(tanU1, cosAlpha1)
    let sinAlpha = cosU1 * sinAlpha1
    let cosSqAlpha = 1 - sinAlpha * sinAlpha
    let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
    let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
    let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
    var sigma = s / (b * A)
    var cos2SigmaM = 0.0
    var sinSigma = 0.0
    var cosSigma = 0.0
    for _ in 0..<200 {
      cos2SigmaM = cos(2 * sigma1 + sigma)
      sinSigma = sin(sigma)
      cosSigma = cos(sigma)
      let deltaSigma =
        B * sinSigma
        * (cos2SigmaM + B / 4
          * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - B / 6 * cos2SigmaM
            * (-3 + 4 * sinSigma * sinSigma)
            * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
      let next = s / (b * A) + deltaSigma
      if abs(next - sigma) < 1e-15 {
        sigma = next
        break
      }
      sigma = next
    }
    cos2SigmaM = cos(2 * sigma1 + sigma)
    sinSigma = sin(sigma)
    cosSigma = cos(sigma)
    let tmp = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1
    let lat2 = atan2(
      sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1, (1 - f) * sqrt(sinAlpha * sinAlpha + tmp * tmp))
    let lambda = atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1)
    let C = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
    let L =
      lambda - (1 - C) * f * sinAlpha
      * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
    var lon2 = lon + L * 180 / .pi
    if lon2 > 180 { lon2 -= 360 }
    if lon2 < -180 { lon2 += 360 }
    let alpha2 = atan2(sinAlpha, -tmp)
    return Destination(
      latitudeDegrees: lat2 * 180 / .pi, longitudeDegrees: lon2, finalAzimuthDegrees: alpha2 * 180 / .pi)
  }
}

extension Geodesy {
  /// A quick equirectangular distance for tests against coarse thresholds
  /// (not for metrics):
  /// ```
  /// d = R sqrt( Δφ² + (cos φm Δλ)² ),  Δλ wrapped to ±180°
  /// ```
  /// Within 0.5 % of the great circle for steps of a few kilometres; it
  /// overstates long east-west distances at high latitudes.
  public static func approximateMeters(_ a: TrackPoint, _ b: TrackPoint) -> Double {
    let dPhi = (b.latitudeDegrees - a.latitudeDegrees) * .pi / 180
    var dLon = b.longitudeDegrees - a.longitudeDegrees
    if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
    let meanPhi = (a.latitudeDegrees + b.latitudeDegrees) * .pi / 360
    let dLambda = dLon * .pi / 180 * cos(meanPhi)
    return meanRadiusMeters * (dPhi * dPhi + dLambda * dLambda).squareRoot()
  }
}
