import EnergyLabCore
import Foundation
import TestSupport
import Testing
import Tracks

/// Trips and places as PALMS defines them, on a day known by construction.
struct TripTests {
  /// Walk 5 min at 1.3 m/s (390 m); stay 10 min; cycle 10 min at 4.5 m/s;
  /// wait 4 min (a pause: at least 180 s, at most 300 s); drive 10 min at
  /// 12 m/s; stay 10 min. Fixes every 5 s without noise. Trips: the walk
  /// (390 m, 300 s) and cycle-then-vehicle with one pause (2,700 + 7,200 m,
  /// 24 min); stays: 10 min after each, at two places kilometres apart.
  @Test func aDayOfKnownTripsAndStays() throws {
    var spec = SyntheticTrackSpec()
    spec.legs = [(1.3, 5.0), (0, 10), (4.5, 10), (0, 4), (12, 10), (0, 10)].map {
      SyntheticTrackSpec.Leg(speedMetersPerSecond: $0.0, gradeFraction: 0, durationSeconds: $0.1 * 60)
    }
    spec.sampleIntervalSeconds = 5
    let track = TrackSynthesizer.track(spec)
    let steps = TrackAnalysis(parameters: TrackAnalysisParameters()).steps(of: track).steps
    let classifier = EpochModeClassifier()
    let modes = classifier.stepModes(of: steps, epochs: classifier.epochs(of: steps, points: track.points))
    let epochs = classifier.timeline(of: steps, points: track.points, modes: modes)
    let detector = TripDetector()
    var (trips, stays) = detector.tripsAndStays(of: epochs, epochSeconds: 30, source: "day")
    let places = detector.places(&stays)
    let t0 = spec.startSecondsSince1970
    #expect(trips.count == 2)
    #expect(trips.map(\.modes) == [[.walk], [.cycle, .vehicle]])
    #expect(trips.map(\.pauses) == [0, 1])
    expectClose(trips[0].distanceMeters, 390, tolerance: 1)
    expectClose(trips[1].distanceMeters, 2700 + 7200, tolerance: 1)
    // Each edge within one epoch of its leg's.
    for (found, built) in zip(
      trips.flatMap { [$0.startSecondsSince1970, $0.endSecondsSince1970] },
      [0.0, 5, 15, 39].map { t0 + $0 * 60 })
    {
      expectClose(found, built, tolerance: 30.001, "trip edge")
    }
    #expect(stays.count == 2)
    expectClose(stays[0].durationSeconds, 600, tolerance: 30.001, "first stay")
    #expect(places.count == 2 && stays.map(\.place) == [1, 2])
  }

  /// Stays 10 m apart are visits to one place; 100 m apart, two places
  /// (radius 30 m). Distances from the WGS-84 geodesic: 0.0001 degree of
  /// latitude at 50.87 N is 11.1 m, 0.0009 degree 100 m.
  @Test func staysWithinTheRadiusAreOnePlace() {
    func stay(_ start: Double, _ lat: Double) -> Stay {
      Stay(
        source: "s", startSecondsSince1970: start, endSecondsSince1970: start + 600, latitudeDegrees: lat,
        longitudeDegrees: -0.0873, place: nil)
    }
    var stays = [stay(0, 50.8671), stay(1000, 50.8672), stay(2000, 50.8680), stay(3000, 50.8671)]
    let places = TripDetector().places(&stays)
    #expect(stays.map(\.place) == [1, 1, 2, 1])
    #expect(places.map(\.visits) == [3, 1])
    #expect(places.map(\.durationSeconds) == [1800, 600])
  }

  /// Travel shorter than 100 m or 180 s is no trip (PALMS's defaults): a
  /// 2-minute walk (156 m) between two stays is part of one long stay.
  @Test func briefTravelIsNoTrip() {
    var spec = SyntheticTrackSpec()
    spec.legs = [(0, 10.0), (1.3, 2), (0, 10)].map {
      SyntheticTrackSpec.Leg(speedMetersPerSecond: $0.0, gradeFraction: 0, durationSeconds: $0.1 * 60)
    }
    spec.sampleIntervalSeconds = 5
    let track = TrackSynthesizer.track(spec)
    let steps = TrackAnalysis(parameters: TrackAnalysisParameters()).steps(of: track).steps
    let classifier = EpochModeClassifier()
    let modes = classifier.stepModes(of: steps, epochs: classifier.epochs(of: steps, points: track.points))
    let epochs = classifier.timeline(of: steps, points: track.points, modes: modes)
    let (trips, stays) = TripDetector().tripsAndStays(of: epochs, epochSeconds: 30, source: "day")
    #expect(trips.isEmpty)
    #expect(stays.count == 1)
  }
}
