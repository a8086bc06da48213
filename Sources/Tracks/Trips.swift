import EnergyLabCore
import Foundation

/// Named parameters of trips and places, with PALMS's defaults; every one
/// is reported with the run.
///
/// The definitions follow PALMS (Kerr et al. 2011, Am J Prev Med
/// 41(5):532-540; Carlson et al. 2015, Med Sci Sports Exerc 47(3):662-667)
/// and the parameter names and defaults of its successor PALMSpy: a trip
/// is travel of at least `minimumTripLengthMeters` and
/// `minimumTripDurationSeconds` (PALMS: 100 m, 180 s); a stop inside it of
/// at least `minimumPauseSeconds` (180 s) is a pause, and one longer than
/// `maximumPauseSeconds` (300 s) ends it; a place is where the person
/// stays at least `minimumDurationAtLocationSeconds` (180 s), and stays
/// within `locationRadiusMeters` (30 m) of a place's centre are visits to
/// the same place. EnergyLab's epochs and modes stand in for PALMS's
/// speed rules: a trip's epochs are those the mode classifier calls
/// travel, joined across stops no longer than the maximum pause.
public struct TripParameters: Sendable, Hashable {
  public var minimumTripLengthMeters = 100.0
  public var minimumTripDurationSeconds = 180.0
  public var minimumPauseSeconds = 180.0
  public var maximumPauseSeconds = 300.0
  public var locationRadiusMeters = 30.0
  public var minimumDurationAtLocationSeconds = 180.0

  public init() {}

  public var described: [NamedParameter] {
    [
      NamedParameter(
        name: "trip_min_length_m", value: Fixed.shortest(minimumTripLengthMeters),
        meaning: "shorter travel is no trip (PALMS min_trip_length)"),
      NamedParameter(
        name: "trip_min_duration_s", value: Fixed.shortest(minimumTripDurationSeconds),
        meaning: "briefer travel is no trip (PALMS min_trip_duration)"),
      NamedParameter(
        name: "trip_min_pause_s", value: Fixed.shortest(minimumPauseSeconds),
        meaning: "a stop this long inside a trip is a pause (PALMS min_pause_duration)"),
      NamedParameter(
        name: "trip_max_pause_s", value: Fixed.shortest(maximumPauseSeconds),
        meaning: "a longer stop ends the trip (PALMS max_pause_duration)"),
      NamedParameter(
        name: "place_radius_m", value: Fixed.shortest(locationRadiusMeters),
        meaning: "stays this near a place's centre are visits to it (PALMS location_radius)"),
      NamedParameter(
        name: "place_min_duration_s", value: Fixed.shortest(minimumDurationAtLocationSeconds),
        meaning: "a shorter stay is no visit to a place (PALMS min_duration_at_location)"),
    ]
  }
}

/// A trip: from the first travelling epoch to the last, its modes in
/// order (consecutive repeats joined), distance and pauses.
public struct Trip: Sendable, Hashable {
  public var source: String
  public var startSecondsSince1970: Double
  public var endSecondsSince1970: Double
  public var modes: [TransportMode]
  public var distanceMeters: Double
  public var pauses: Int
  public var durationSeconds: Double { endSecondsSince1970 - startSecondsSince1970 }
}

/// A stay between trips: where (the median of its fixes' positions; nil
/// without any) and which place it is a visit to.
public struct Stay: Sendable, Hashable {
  public var source: String
  public var startSecondsSince1970: Double
  public var endSecondsSince1970: Double
  public var latitudeDegrees: Double?
  public var longitudeDegrees: Double?
  /// 1-based index into the places; nil for a stay without a position.
  public var place: Int?
  public var durationSeconds: Double { endSecondsSince1970 - startSecondsSince1970 }

  public init(
    source: String, startSecondsSince1970: Double, endSecondsSince1970: Double, latitudeDegrees: Double?,
    longitudeDegrees: Double?, place: Int?
  ) {
    self.source = source
    self.startSecondsSince1970 = startSecondsSince1970
    self.endSecondsSince1970 = endSecondsSince1970
    self.latitudeDegrees = latitudeDegrees
    self.longitudeDegrees = longitudeDegrees
    self.place = place
  }
}

/// A place where the person stays: the centre of its first visit, the
/// visits and the time spent there.
public struct Place: Sendable, Hashable {
  public var index: Int
  public var latitudeDegrees: Double
  public var longitudeDegrees: Double
  public var visits: Int
  public var durationSeconds: Double
}

public struct TripsAndPlaces: Sendable, Hashable {
  public var trips: [Trip]
  public var stays: [Stay]
  public var places: [Place]
  public init(trips: [Trip], stays: [Stay], places: [Place]) {
    self.trips = trips
    self.stays = stays
    self.places = places
  }
}

/// Trips and places from epochs with modes (`EpochModeClassifier.timeline`).
public struct TripDetector: Sendable {
  public var parameters: TripParameters
  public init(parameters: TripParameters = TripParameters()) { self.parameters = parameters }

  /// Trips and stays of one track's epochs (every epoch, first fix to
  /// last, in order, each `epochSeconds` long).
  public func tripsAndStays(of epochs: [ModeEpoch], epochSeconds: Double, source: String) -> (
    trips: [Trip], stays: [Stay]
  ) {
    let moving = epochs.map { $0.mode != .stationary }
    // Candidate trips: runs of travel joined across stops no longer than
    // the maximum pause.
    var candidates: [Range<Int>] = []
    var i = 0
    while i < epochs.count {
      guard moving[i] else {
        i += 1
        continue
      }
      var end = i + 1
      while end < epochs.count {
        if moving[end] {
          end += 1
          continue
        }
        var stop = end
        while stop < epochs.count && !moving[stop] { stop += 1 }
        if stop < epochs.count && Double(stop - end) * epochSeconds <= parameters.maximumPauseSeconds {
          end = stop
        } else {
          break
        }
      }
      candidates.append(i..<end)
      i = end
    }
    var trips: [Trip] = []
    var inTrip = Array(repeating: false, count: epochs.count)
    for range in candidates {
      let distance = epochs[range].reduce(0) { $0 + $1.distanceMeters }
      let start = epochs[range.lowerBound].startSecondsSince1970
      let end = epochs[range.upperBound - 1].startSecondsSince1970 + epochSeconds
      guard distance >= parameters.minimumTripLengthMeters,
        end - start >= parameters.minimumTripDurationSeconds
      else { continue }
      var modes: [TransportMode] = []
      var pauses = 0
      var stopLength = 0
      for e in epochs[range] {
        if e.mode == .stationary {
          stopLength += 1
          continue
        }
        if Double(stopLength) * epochSeconds >= parameters.minimumPauseSeconds { pauses += 1 }
        stopLength = 0
        if modes.last != e.mode { modes.append(e.mode) }
      }
      for k in range { inTrip[k] = true }
      trips.append(
        Trip(
          source: source, startSecondsSince1970: start, endSecondsSince1970: end, modes: modes,
          distanceMeters: distance, pauses: pauses))
    }
    // Stays: the rest, long enough.
    var stays: [Stay] = []
    i = 0
    while i < epochs.count {
      guard !inTrip[i] else {
        i += 1
        continue
      }
      var end = i
      while end < epochs.count && !inTrip[end] { end += 1 }
      let start = epochs[i].startSecondsSince1970
      let stop = epochs[end - 1].startSecondsSince1970 + epochSeconds
      if stop - start >= parameters.minimumDurationAtLocationSeconds {
        let lats = epochs[i..<end].compactMap(\.latitudeDegrees)
        let lons = epochs[i..<end].compactMap(\.longitudeDegrees)
        stays.append(
          Stay(
            source: source, startSecondsSince1970: start, endSecondsSince1970: stop,
            latitudeDegrees: lats.isEmpty ? nil : median(lats),
            longitudeDegrees: lons.isEmpty ? nil : median(lons),
            place: nil))
      }
      i = end
    }
    return (trips, stays)
  }

  /// Places of stays (of one person, any number of days), in time order: a
  /// stay within the radius of a place's centre (its first visit) is a
  /// visit to it, the nearest when several; otherwise it founds a place.
  public func places(_ stays: inout [Stay]) -> [Place] {
    var places: [Place] = []
    let order = stays.indices.sorted { stays[$0].startSecondsSince1970 < stays[$1].startSecondsSince1970 }
    for k in order {
      guard let lat = stays[k].latitudeDegrees, let lon = stays[k].longitudeDegrees else { continue }
      var best: (index: Int, meters: Double)?
      for (p, place) in places.enumerated() {
        let d = Geodesy.distanceMeters(
          fromLatitude: lat, longitude: lon, toLatitude: place.latitudeDegrees,
          longitude: place.longitudeDegrees)
        if d <= parameters.locationRadiusMeters && d < (best?.meters ?? .infinity) { best = (p, d) }
      }
      if let best {
        places[best.index].visits += 1
        places[best.index].durationSeconds += stays[k].durationSeconds
        stays[k].place = best.index + 1
      } else {
        places.append(
          Place(
            index: places.count + 1, latitudeDegrees: lat, longitudeDegrees: lon, visits: 1,
            durationSeconds: stays[k].durationSeconds))
        stays[k].place = places.count
      }
    }
    return places
  }
}

private func median(_ values: [Double]) -> Double {
  let s = values.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
