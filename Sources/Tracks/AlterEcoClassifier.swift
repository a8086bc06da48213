import EnergyLabCore
import Foundation

/// A region of interest of the Alter Eco classifier: a station or an airport.
public struct RegionOfInterest: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    case station
    case airport
  }
  public var name: String
  public var kind: Kind
  public var latitudeDegrees: Double
  public var longitudeDegrees: Double
  public var radiusMeters: Double

  public init(
    name: String, kind: Kind, latitudeDegrees: Double, longitudeDegrees: Double, radiusMeters: Double
  ) {
    self.name = name
    self.kind = kind
    self.latitudeDegrees = latitudeDegrees
    self.longitudeDegrees = longitudeDegrees
    self.radiusMeters = radiusMeters
  }
}

/// The Alter Eco thesis's transport classifier (Appendix B, L1007-1041;
/// L558-579), every rule a parameter. Values the thesis states are the
/// defaults; values it leaves unstated are marked so.
public struct AlterEcoParameters: Sendable, Hashable {
  /// Location updates every 50 m (thesis).
  public var updateDistanceMeters = 50.0
  /// Speeds at or above this are car (thesis: 4 m/s); a user's cycling speed
  /// replaces it.
  public var carSpeedMetersPerSecond = 4.0
  /// Activities of one kind in a row that close a group (thesis: 3).
  public var sameKindRun = 3
  /// Time without updates that closes a group, s (thesis: 5 minutes).
  public var timeoutSeconds = 300.0
  /// Weight of car activities in the weighted vote (the thesis says cars
  /// weigh more but not how much): 2.
  public var carWeight = 2.0
  /// Speed activities faster than this are not recorded (planes), m/s; the
  /// thesis gives no value: 70.
  public var speedLimitMetersPerSecond = 70.0
  /// Fixes above this altitude are dropped (thesis: 6000 m).
  public var altitudeLimitMeters = 6000.0
  /// Two regions closer than this do not make a journey (terminals), m; not
  /// stated: 2000.
  public var minimumRegionDistanceMeters = 2000.0
  /// Speed activities in a row that clear a region flag; not stated: 3.
  public var flagResetActivities = 3
  /// Average speeds used for region journeys, m/s; not stated: train 15
  /// (54 km/h), plane 200 (720 km/h).
  public var stationSpeedMetersPerSecond = 15.0
  public var airportSpeedMetersPerSecond = 200.0

  public init() {}

  public var described: [NamedParameter] {
    [
      NamedParameter(
        name: "ae_update_distance_m", value: Fixed.shortest(updateDistanceMeters),
        meaning: "location update spacing (thesis)"),
      NamedParameter(
        name: "ae_car_speed_mps", value: Fixed.shortest(carSpeedMetersPerSecond),
        meaning: "car at or above (thesis 4; user cycling speed)"),
      NamedParameter(
        name: "ae_same_kind_run", value: String(sameKindRun),
        meaning: "activities in a row that close a group (thesis)"),
      NamedParameter(
        name: "ae_timeout_s", value: Fixed.shortest(timeoutSeconds),
        meaning: "gap that closes a group (thesis)"),
      NamedParameter(
        name: "ae_car_weight", value: Fixed.shortest(carWeight),
        meaning: "car weight in the vote (not stated in the thesis)"),
      NamedParameter(
        name: "ae_speed_limit_mps", value: Fixed.shortest(speedLimitMetersPerSecond),
        meaning: "faster speed activities ignored (not stated)"),
      NamedParameter(
        name: "ae_altitude_limit_m", value: Fixed.shortest(altitudeLimitMeters),
        meaning: "fixes above dropped (thesis)"),
      NamedParameter(
        name: "ae_min_region_distance_m", value: Fixed.shortest(minimumRegionDistanceMeters),
        meaning: "closer regions make no journey (not stated)"),
      NamedParameter(
        name: "ae_flag_reset_activities", value: String(flagResetActivities),
        meaning: "speed activities clearing a region flag (not stated)"),
      NamedParameter(
        name: "ae_station_speed_mps", value: Fixed.shortest(stationSpeedMetersPerSecond),
        meaning: "average train speed (not stated)"),
      NamedParameter(
        name: "ae_airport_speed_mps", value: Fixed.shortest(airportSpeedMetersPerSecond),
        meaning: "average plane speed (not stated)"),
    ]
  }
}

/// An activity as the Alter Eco classifier writes it.
public struct AlterEcoActivity: Sendable, Hashable {
  /// `walk-or-cycle`, `car`, `train` or `plane`.
  public var mode: String
  public var startSecondsSince1970: Double
  public var endSecondsSince1970: Double
  public var distanceMeters: Double
  /// The path segment a speed activity lies in; nil for a journey between
  /// two regions, which may span a gap (the phone off during a flight).
  public var segment: Int32?
}

/// Runs the classifier over a track's fixes.
public struct AlterEcoClassifier: Sendable {
  public var parameters: AlterEcoParameters
  public var regions: [RegionOfInterest]

  public init(parameters: AlterEcoParameters = AlterEcoParameters(), regions: [RegionOfInterest] = []) {
    self.parameters = parameters
    self.regions = regions
  }

  func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
    Geodesy.distanceMeters(fromLatitude: a.0, longitude: a.1, toLatitude: b.0, longitude: b.1)
  }

  /// The activities of a path's fixes. No speed activity spans a gap
  /// between segments unless `joinSegments`; journeys between regions
  /// (stations, airports) may, as the app infers them from visits.
  public func activities(of points: [TrackPoint], joinSegments: Bool = false) -> [AlterEcoActivity] {
    // Location updates: fixes with a time, under the altitude limit, 50 m apart.
    var updates: [TrackPoint] = []
    for p in points
    where p.timeSecondsSince1970 != nil && (p.elevationMeters ?? 0) <= parameters.altitudeLimitMeters {
      if let last = updates.last,
        distance((last.latitudeDegrees, last.longitudeDegrees), (p.latitudeDegrees, p.longitudeDegrees))
          < parameters.updateDistanceMeters
      {
        continue
      }
      updates.append(p)
    }
    var out: [AlterEcoActivity] = []
    var group: [AlterEcoActivity] = []
    var flag: (region: RegionOfInterest, time: Double)?
    var speedSinceFlag = 0
    func flush() {
      guard let first = group.first, let last = group.last else { return }
      var carVotes = 0.0
      var otherVotes = 0.0
      for a in group { if a.mode == "car" { carVotes += parameters.carWeight } else { otherVotes += 1 } }
      out.append(
        AlterEcoActivity(
          mode: carVotes >= otherVotes ? "car" : "walk-or-cycle",
          startSecondsSince1970: first.startSecondsSince1970, endSecondsSince1970: last.endSecondsSince1970,
          distanceMeters: group.reduce(0) { $0 + $1.distanceMeters }, segment: first.segment))
      group.removeAll()
    }
    for k in updates.indices {
      let p = updates[k]
      // Every update has a time (chosen so above).
      guard let t = p.timeSecondsSince1970 else { continue }
      // Regions of interest take precedence.
      if let region = regions.first(where: {
        distance(($0.latitudeDegrees, $0.longitudeDegrees), (p.latitudeDegrees, p.longitudeDegrees))
          <= $0.radiusMeters
      }) {
        if let open = flag, open.region.kind == region.kind, open.region != region {
          let direct = distance(
            (open.region.latitudeDegrees, open.region.longitudeDegrees),
            (region.latitudeDegrees, region.longitudeDegrees))
          if direct >= parameters.minimumRegionDistanceMeters {
            // The journey replaces the speed activities collected since the first visit.
            group.removeAll()
            out.removeAll { $0.startSecondsSince1970 >= open.time }
            let speed =
              region.kind == .airport
              ? parameters.airportSpeedMetersPerSecond : parameters.stationSpeedMetersPerSecond
            out.append(
              AlterEcoActivity(
                mode: region.kind == .airport ? "plane" : "train", startSecondsSince1970: open.time,
                endSecondsSince1970: t,
                distanceMeters: max(speed * (t - open.time), direct)))
            flag = nil
            continue
          }
        }
        if flag?.region != region { flag = (region, t) }
        speedSinceFlag = 0
      }
      guard k > 0, let t0 = updates[k - 1].timeSecondsSince1970, t > t0 else { continue }
      if !joinSegments && updates[k - 1].segment != p.segment {
        flush()
        continue
      }
      let d = distance(
        (updates[k - 1].latitudeDegrees, updates[k - 1].longitudeDegrees),
        (p.latitudeDegrees, p.longitudeDegrees))
      let speed = d / (t - t0)
      if t - t0 > parameters.timeoutSeconds { flush() }
      guard speed <= parameters.speedLimitMetersPerSecond else { continue }
      let activity = AlterEcoActivity(
        mode: speed >= parameters.carSpeedMetersPerSecond ? "car" : "walk-or-cycle",
        startSecondsSince1970: t0,
        endSecondsSince1970: t, distanceMeters: d, segment: joinSegments ? 0 : p.segment)
      if flag != nil {
        speedSinceFlag += 1
        if speedSinceFlag >= parameters.flagResetActivities { flag = nil }
      }
      // A change of kind after others closes the group; so does a full run.
      if let last = group.last, last.mode != activity.mode,
        group.suffix(2).allSatisfy({ $0.mode == last.mode }) && group.count >= 2
      {
        flush()
      }
      group.append(activity)
      if group.count >= parameters.sameKindRun
        && group.suffix(parameters.sameKindRun).allSatisfy({ $0.mode == activity.mode })
      {
        flush()
      }
    }
    flush()
    // Neighbouring activities of one mode are one activity.
    var merged: [AlterEcoActivity] = []
    for a in out.sorted(by: { $0.startSecondsSince1970 < $1.startSecondsSince1970 }) {
      if let last = merged.last, last.mode == a.mode, last.segment == a.segment,
        a.startSecondsSince1970 - last.endSecondsSince1970 <= parameters.timeoutSeconds
      {
        merged[merged.count - 1].endSecondsSince1970 = a.endSecondsSince1970
        merged[merged.count - 1].distanceMeters += a.distanceMeters
      } else {
        merged.append(a)
      }
    }
    return merged
  }
}
