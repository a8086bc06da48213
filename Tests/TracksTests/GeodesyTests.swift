import Foundation
import TestSupport
import Testing
import Tracks

struct GeodesyTests {
  static func dms(_ d: Double, _ m: Double, _ s: Double) -> Double {
    (abs(d) + m / 60 + s / 3600) * (d < 0 ? -1 : 1)
  }

  /// Vincenty's worked example as published by Geoscience Australia: Flinders
  /// Peak (-37 57 03.72030, 144 25 29.52440) to Buninyong (-37 39 10.15610,
  /// 143 55 35.38390) on GRS80/WGS-84 is 54 972.271 m at azimuth 306 52 05.37.
  @Test func vincentyInverseFlindersPeakToBuninyong() {
    let d = Geodesy.distanceMeters(
      fromLatitude: Self.dms(-37, 57, 3.72030), longitude: Self.dms(144, 25, 29.52440),
      toLatitude: Self.dms(-37, 39, 10.15610), longitude: Self.dms(143, 55, 35.38390))
    expectClose(d, 54_972.271, tolerance: 0.002)
  }

  @Test func vincentyDirectReachesBuninyong() {
    let p = Geodesy.destination(
      fromLatitude: Self.dms(-37, 57, 3.72030), longitude: Self.dms(144, 25, 29.52440),
      azimuthDegrees: Self.dms(306, 52, 5.37), distanceMeters: 54_972.271)
    // 1e-7 degrees is about 1 cm.
    expectClose(p.latitudeDegrees, Self.dms(-37, 39, 10.15610), tolerance: 1e-7)
    expectClose(p.longitudeDegrees, Self.dms(143, 55, 35.38390), tolerance: 1e-7)
  }

  /// Along the equator the geodesic is the equator: a x dlambda =
  /// 6378137 x pi/180 = 111 319.491 m per degree; on the R1 sphere the
  /// haversine gives 6371008.8 x pi/180 = 111 195.080 m.
  @Test func oneDegreeAlongTheEquator() {
    let geodesic = Geodesy.distanceMeters(fromLatitude: 0, longitude: 0, toLatitude: 0, longitude: 1)
    let haversine = Geodesy.distanceMeters(
      fromLatitude: 0, longitude: 0, toLatitude: 0, longitude: 1, method: .haversine)
    expectClose(geodesic, 111_319.491, tolerance: 0.001)
    expectClose(haversine, 111_195.080, tolerance: 0.001)
  }

  @Test func samePointIsZero() {
    #expect(Geodesy.distanceMeters(fromLatitude: 50, longitude: 0, toLatitude: 50, longitude: 0) == 0)
  }

  /// Nearly antipodal points, where Vincenty's inverse does not converge,
  /// fall back to a finite great-circle distance (half the circumference).
  @Test func nearlyAntipodalStaysFinite() {
    let d = Geodesy.distanceMeters(fromLatitude: 0, longitude: 0, toLatitude: 0.5, longitude: 179.7)
    #expect(d.isFinite)
    #expect(d > 19_900_000 && d < 20_020_000)
  }
}
