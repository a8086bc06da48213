import EnergyLabCore
import Foundation
import Ingest
import TestSupport
import Testing
import Tracks

/// Tracks with answers known by construction: a 10-minute walk at 2.9 mph
/// (1.296416 m/s) on a 2 % grade.
struct TrackAnalysisTests {
  static func walk(noise: Double = 0) -> Track {
    var spec = SyntheticTrackSpec()
    spec.speedMetersPerSecond = Units.metersPerSecond(fromMilesPerHour: 2.9)
    spec.gradeFraction = 0.02
    spec.durationSeconds = 600
    spec.horizontalNoiseMeters = noise
    return TrackSynthesizer.track(spec)
  }

  @Test func syntheticWalkSummaryMatchesConstruction() throws {
    let summary = TrackAnalysis().summary(of: Self.walk())
    let distance = 2.9 * 1609.344 / 3600 * 600  // 777.8496 m
    #expect(summary.points == 601)
    #expect(summary.durationSeconds == 600)
    #expect(summary.movingTimeSeconds == 600)
    expectClose(summary.distance2DMeters, distance, tolerance: 1e-3)
    // 3D: each 1 s step rises 2 % of its run: sqrt(1 + 0.02^2) longer.
    expectClose(summary.distance3DMeters, distance * sqrt(1 + 0.0004), tolerance: 1e-3)
    expectClose(summary.elevationGainMeters, 0.02 * distance, tolerance: 1e-6)
    #expect(summary.elevationLossMeters == 0)
    expectClose(summary.averageSpeedMetersPerSecond, 1.29641600, tolerance: 1e-6)
    expectClose(summary.gradeMeanFraction, 0.02, tolerance: 1e-9)
    expectClose(summary.gradeMinFraction, 0.02, tolerance: 1e-9)
    #expect(summary.heartRateMeanBeatsPerMinute == nil)
  }

  /// A step of 5,000 km (a damaged position) holds 250,000 grade windows,
  /// all of the step's grade: summed at once, with the same answer as a
  /// window at a time (the 2 % walk, then a 5,000 km step rising 1 %).
  @Test func aVeryLongStepHasTheGradeOfItsWindows() throws {
    var track = Self.walk()
    let last = try #require(track.points.last)
    let run = 5_000_000.0
    // Due south along a meridian; WGS-84 meridian arc, about 111.2 km per
    // degree here: the distance is the geodesic's, the grade 1 % of it.
    var far = last
    far.latitudeDegrees = last.latitudeDegrees - run / 111_200
    far.timeSecondsSince1970 = last.timeSecondsSince1970.map { $0 + 1 }
    // Elevation as constructed: a 50 km rise in one fix is what the test
    // is about, and the default cleaning would take it for a spike.
    var parameters = TrackAnalysisParameters()
    parameters.elevationCleaning.method = .recorded
    let analysis = TrackAnalysis(parameters: parameters)
    let summary0 = analysis.summary(of: track)
    track.points.append(far)
    let step = analysis.summary(of: track).distance2DMeters - summary0.distance2DMeters
    track.points[track.points.count - 1].elevationMeters = (last.elevationMeters ?? 0) + 0.01 * step
    let summary = analysis.summary(of: track)
    expectClose(summary.gradeMaxFraction, 0.02, tolerance: 1e-9)
    expectClose(summary.gradeMinFraction, 0.01, tolerance: 1e-9)
    // Mean over the run: 777.85 m at 2 % and the step at 1 %.
    let walk = 2.9 * 1609.344 / 3600 * 600
    expectClose(
      summary.gradeMeanFraction, (0.02 * walk + 0.01 * step) / (walk + step), tolerance: 1e-6)
  }

  @Test func gpxRoundTripKeepsTheAnswers() throws {
    let text = GPXWriter.gpx(Self.walk(), creator: "test")
    let track = try GPXReader().read(data: Data(text.utf8), source: "walk.gpx")
    let summary = TrackAnalysis().summary(of: track)
    // 8 decimal places of a degree are ~1 mm; elevation is written to 1 mm.
    expectClose(summary.distance2DMeters, 777.8496, tolerance: 0.01)
    expectClose(summary.gradeMeanFraction, 0.02, tolerance: 1e-4)
  }

  /// 20 m windows (PEM thesis Fig 6.13): 777.85 m gives 38 full windows and a
  /// 17.85 m rest, longer than half a window, so 39 windows.
  @Test func gradeWindowsOfTwentyMetres() {
    let windows = TrackAnalysis().gradeWindows(of: Self.walk())
    #expect(windows.count == 39)
    expectClose(windows[0].endMeters, 20, tolerance: 1e-9)
    #expect(windows.allSatisfy { abs($0.gradeFraction - 0.02) < 1e-9 })
  }

  @Test func timesBackwardsAndRepeatedBecomeDiagnostics() {
    var track = Self.walk()
    track.points[10].timeSecondsSince1970 = track.points[9].timeSecondsSince1970
    track.points[20].timeSecondsSince1970 = track.points[19].timeSecondsSince1970! - 5
    let summary = TrackAnalysis().summary(of: track)
    let codes = Set(summary.diagnostics.map(\.code))
    #expect(codes.contains("time-backwards"))
    #expect(codes.contains("time-repeated"))
  }

  @Test func seededNoiseIsReproducibleAndBounded() {
    let a = Self.walk(noise: 2)
    let b = Self.walk(noise: 2)
    #expect(a == b)
    #expect(a != Self.walk())
  }
}

/// Walk 10 min at 1.3 m/s, ride 10 min at 10 m/s, walk 5 min: the speed
/// bands must find walk, bus, walk with boundaries at 600 s and 1200 s.
struct SpeedBandClassifierTests {
  static func journey() -> Track {
    var spec = SyntheticTrackSpec()
    spec.legs = [
      .init(speedMetersPerSecond: 1.3, gradeFraction: 0, durationSeconds: 600),
      .init(speedMetersPerSecond: 10, gradeFraction: 0, durationSeconds: 600),
      .init(speedMetersPerSecond: 1.3, gradeFraction: 0, durationSeconds: 300),
    ]
    return TrackSynthesizer.track(spec)
  }

  @Test func findsTheLegs() throws {
    let (steps, _) = TrackAnalysis().steps(of: Self.journey())
    let activities = SpeedBandClassifier().activities(of: steps)
    #expect(activities.map(\.mode) == [.walk, .bus, .walk])
    #expect(activities.map(\.durationSeconds) == [600, 600, 300])
    expectClose(activities[1].distanceMeters, 6000, tolerance: 0.01)
  }

  /// A 20 s burst of running inside a walk is shorter than the 60 s minimum
  /// and is absorbed; at 90 s it stands as its own activity.
  @Test(arguments: [(20.0, [TransportMode.walk]), (90, [.walk, .run, .walk])])
  func shortActivitiesJoinANeighbour(burstSeconds: Double, expected: [TransportMode]) {
    var spec = SyntheticTrackSpec()
    spec.legs = [
      .init(speedMetersPerSecond: 1.3, gradeFraction: 0, durationSeconds: 300),
      .init(speedMetersPerSecond: 3.0, gradeFraction: 0, durationSeconds: burstSeconds),
      .init(speedMetersPerSecond: 1.3, gradeFraction: 0, durationSeconds: 300),
    ]
    let (steps, _) = TrackAnalysis().steps(of: TrackSynthesizer.track(spec))
    #expect(SpeedBandClassifier().activities(of: steps).map(\.mode) == expected)
  }

  /// The multi-leg generator puts every leg where its speed says.
  @Test func legsAddUp() {
    let summary = TrackAnalysis().summary(of: Self.journey())
    #expect(summary.durationSeconds == 1500)
    expectClose(summary.distance2DMeters, (780 + 6000 + 390), tolerance: 0.01)
  }
}

struct SpeedSmoothingTests {
  /// A centred average of 3 over speeds 1, 2, 3, 4: 1.5, 2, 3, 3.5.
  @Test func movingAverageByHand() {
    let steps = [1.0, 2, 3, 4].map {
      TrackStep(
        startSecondsSince1970: nil, durationSeconds: 1, distance2DMeters: $0, distance3DMeters: $0,
        elevationChangeMeters: nil, speedMetersPerSecond: $0, gradeFraction: nil, heartRateBeatsPerMinute: nil
      )
    }
    #expect(SpeedSmoothing.movingAverage(steps, fixes: 3).map(\.speedMetersPerSecond) == [1.5, 2, 3, 3.5])
    #expect(SpeedSmoothing.movingAverage(steps, fixes: 1) == steps)
  }
}

/// Elevation 0, 2, 4, 6, 5, 10 m one fix per 10 m, 10 s apart; speeds 1, 1,
/// 10, 1, 1 m/s by moving the fourth fix. Hand calculations below.
struct ElevationAndSpeedMetricsTests {
  static func track(elevations: [Double], speeds: [Double]) -> Track {
    var points: [TrackPoint] = []
    var distance = 0.0
    for (i, z) in elevations.enumerated() {
      if i > 0 { distance += speeds[i - 1] * 10 }
      let p = Geodesy.destination(fromLatitude: 50, longitude: 0, azimuthDegrees: 0, distanceMeters: distance)
      points.append(
        TrackPoint(
          latitudeDegrees: p.latitudeDegrees, longitudeDegrees: p.longitudeDegrees, elevationMeters: z,
          timeSecondsSince1970: Double(i) * 10))
    }
    return Track(source: "t", points: points)
  }

  /// Raw gain 2 + 2 + 2 + 5 = 11, loss 1. Hysteresis 5 m: 0 -> 6 counts 6,
  /// then 6 -> 10 is only 4: gain 6, loss 0. Centred 5-fix average: 2, 3,
  /// 3.4, 5.4, 6.25, 7: gain 5, loss 0. (Elevation as recorded: the
  /// default cleaning comes first otherwise.)
  @Test func gainThreeWays() throws {
    var parameters = TrackAnalysisParameters()
    parameters.elevationCleaning.method = .recorded
    let s = TrackAnalysis(parameters: parameters).summary(
      of: Self.track(elevations: [0, 2, 4, 6, 5, 10], speeds: [1, 1, 1, 1, 1]))
    expectClose(s.elevationGainMeters, 11, tolerance: 1e-9)
    expectClose(s.elevationLossMeters, 1, tolerance: 1e-9)
    expectClose(s.elevationGainHysteresisMeters, 6, tolerance: 1e-9)
    expectClose(s.elevationGainSmoothedMeters, 5, tolerance: 1e-9)
    #expect(abs(try #require(s.elevationLossSmoothedMeters)) < 1e-9)
    // Cleaned: medians (symmetric, shrinking at the ends) 0, 2, 4, 5, 6,
    // 10; 10 s means over fixes 10 s apart (reach 5 s holds one fix):
    // the same; 0.5 m hysteresis: gain 10, loss 0.
    var cleaned = TrackAnalysisParameters()
    cleaned.elevationCleaning.method = .cleaned
    let c = TrackAnalysis(parameters: cleaned).summary(
      of: Self.track(elevations: [0, 2, 4, 6, 5, 10], speeds: [1, 1, 1, 1, 1]))
    expectClose(c.elevationGainMeters, 10, tolerance: 1e-9)
    expectClose(c.elevationLossMeters, 0, tolerance: 1e-9)
    expectClose(c.elevationGainRecordedMeters, 11, tolerance: 1e-9)
  }

  /// One 10 m/s step among 1 m/s steps: raw max 10, robust (running median of
  /// 5) max 1.
  @Test func robustMaximumSpeed() throws {
    let s = TrackAnalysis().summary(
      of: Self.track(elevations: [0, 0, 0, 0, 0, 0], speeds: [1, 1, 10, 1, 1]))
    expectClose(s.maxSpeedMetersPerSecond, 10, tolerance: 1e-6)
    expectClose(s.robustMaxSpeedMetersPerSecond, 1, tolerance: 1e-6)
  }
}

/// The Alter Eco rules (thesis Appendix B) on journeys built by hand.
struct AlterEcoClassifierTests {
  static func journey() -> Track {
    var spec = SyntheticTrackSpec()
    spec.legs = [
      .init(speedMetersPerSecond: 1.3, gradeFraction: 0, durationSeconds: 600),
      .init(speedMetersPerSecond: 12, gradeFraction: 0, durationSeconds: 600),
      .init(speedMetersPerSecond: 1.3, gradeFraction: 0, durationSeconds: 300),
    ]
    return TrackSynthesizer.track(spec)
  }

  /// 4 m/s splits walking from driving; the 12 m/s leg is a car.
  @Test func speedActivities() {
    let activities = AlterEcoClassifier().activities(of: Self.journey().points)
    #expect(activities.map(\.mode) == ["walk-or-cycle", "car", "walk-or-cycle"])
    expectClose(activities[1].distanceMeters, 7200, tolerance: 100)
  }

  /// With a cycling speed of 15 m/s as the threshold, nothing is a car.
  @Test func cyclingSpeedReplacesTheThreshold() {
    var p = AlterEcoParameters()
    p.carSpeedMetersPerSecond = 15
    #expect(
      AlterEcoClassifier(parameters: p).activities(of: Self.journey().points).map(\.mode) == ["walk-or-cycle"]
    )
  }

  /// Two stations 20 km apart visited 20 minutes apart with no fixes in
  /// between (underground): a train journey of max(15 m/s x 1200 s, 20 km)
  /// = 20 km, the great circle being longer than the speed estimate.
  @Test func stationToStation() {
    let a = Geodesy.destination(fromLatitude: 51.5, longitude: -0.1, azimuthDegrees: 90, distanceMeters: 0)
    let b = Geodesy.destination(
      fromLatitude: 51.5, longitude: -0.1, azimuthDegrees: 90, distanceMeters: 20_000)
    let regions = [
      RegionOfInterest(
        name: "A", kind: .station, latitudeDegrees: a.latitudeDegrees, longitudeDegrees: a.longitudeDegrees,
        radiusMeters: 150),
      RegionOfInterest(
        name: "B", kind: .station, latitudeDegrees: b.latitudeDegrees, longitudeDegrees: b.longitudeDegrees,
        radiusMeters: 150),
    ]
    let points = [
      TrackPoint(
        latitudeDegrees: a.latitudeDegrees, longitudeDegrees: a.longitudeDegrees, timeSecondsSince1970: 0),
      TrackPoint(
        latitudeDegrees: b.latitudeDegrees, longitudeDegrees: b.longitudeDegrees, timeSecondsSince1970: 1200),
    ]
    let activities = AlterEcoClassifier(regions: regions).activities(of: points)
    #expect(activities.map(\.mode) == ["train"])
    expectClose((activities.first?.distanceMeters ?? 0), 20_000, tolerance: 1)
  }

  /// Fixes above 6000 m are dropped (thesis L579).
  @Test func altitudeLimit() {
    var track = Self.journey()
    for i in track.points.indices { track.points[i].elevationMeters = 9000 }
    #expect(AlterEcoClassifier().activities(of: track.points).isEmpty)
  }
}

/// A route of three waypoints (north 556 m, then east 694 m, climbing 20 m on
/// the first leg) travelled at 1.4 m/s: the fixes follow it, the distance is
/// the route's to within one step, the climb is 20 m.
struct RouteSynthesisTests {
  @Test func followsTheRoute() throws {
    var spec = SyntheticTrackSpec()
    spec.speedMetersPerSecond = 1.4
    spec.route = [
      TrackPoint(latitudeDegrees: 51.5, longitudeDegrees: -0.1, elevationMeters: 10),
      TrackPoint(latitudeDegrees: 51.505, longitudeDegrees: -0.1, elevationMeters: 30),
      TrackPoint(latitudeDegrees: 51.505, longitudeDegrees: -0.09, elevationMeters: 30),
    ]
    let routeLength = TrackAnalysis().summary(of: Track(source: "r", points: spec.route)).distance2DMeters
    let s = TrackAnalysis().summary(of: TrackSynthesizer.track(spec))
    #expect(abs(s.distance2DMeters - routeLength) <= 1.4)
    expectClose(s.elevationGainMeters, 20, tolerance: 1e-6)
    let last = try #require(TrackSynthesizer.track(spec).points.last)
    #expect(abs(last.latitudeDegrees - 51.505) < 1e-4 && abs(last.longitudeDegrees - -0.09) < 1e-4)
  }
}
