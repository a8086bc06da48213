import EnergyLabCore
import Foundation

/// Optional cleaning steps, each off unless set, each recorded with the run.
public struct CleaningParameters: Sendable, Hashable {
  /// Drop leading fixes more than this far (m) from the fix after them:
  /// start-up fixes before the receiver settles (the PEM thesis saw jumps of
  /// up to 500 m, L649).
  public var startupJumpMeters: Double?
  /// How many leading fixes the start-up rule may drop. Default 10.
  public var startupFixes = 10
  /// Drop fixes whose horizontal dilution of precision exceeds this.
  public var maximumHorizontalDilution: Double?
  /// Drop fixes above this elevation, m (the Alter Eco thesis drops points
  /// above 6000 m, L579).
  public var maximumAltitudeMeters: Double?
  /// Drop fixes that would need a speed above this from the last kept fix, m/s.
  public var maximumSpeedMetersPerSecond: Double?

  public init() {}

  public var isActive: Bool {
    startupJumpMeters != nil || maximumHorizontalDilution != nil || maximumAltitudeMeters != nil
      || maximumSpeedMetersPerSecond != nil
  }

  public var described: [NamedParameter] {
    func text(_ value: Double?) -> String { value.map(Fixed.shortest) ?? "off" }
    return [
      NamedParameter(
        name: "clean_startup_jump_m", value: text(startupJumpMeters),
        meaning: "drop leading fixes this far from the next (first \(startupFixes))"),
      NamedParameter(
        name: "clean_max_hdop", value: text(maximumHorizontalDilution),
        meaning: "drop fixes with a larger HDOP"),
      NamedParameter(
        name: "clean_max_altitude_m", value: text(maximumAltitudeMeters),
        meaning: "drop fixes above this elevation"),
      NamedParameter(
        name: "clean_max_speed_mps", value: text(maximumSpeedMetersPerSecond),
        meaning: "drop fixes needing a faster speed"),
    ]
  }
}

/// Applies `CleaningParameters` to fixes one at a time (one fix of look-ahead
/// for the start-up rule) and counts what each rule dropped.
public struct TrackCleaner: Sendable {
  public let parameters: CleaningParameters
  public private(set) var dropped: [String: Int] = [:]
  private var seen = 0
  private var startupPending: TrackPoint?
  private var inStartup = true
  private var lastKept: TrackPoint?

  public init(parameters: CleaningParameters) { self.parameters = parameters }

  public mutating func add(_ p: TrackPoint, emit: (TrackPoint) throws -> Void) rethrows {
    seen += 1
    if let max = parameters.maximumHorizontalDilution, let h = p.horizontalDilution, h > max {
      dropped["hdop", default: 0] += 1
      return
    }
    if let max = parameters.maximumAltitudeMeters, let z = p.elevationMeters, z > max {
      dropped["altitude", default: 0] += 1
      return
    }
    if let jump = parameters.startupJumpMeters, inStartup {
      if let pending = startupPending {
        let d = Geodesy.distanceMeters(
          fromLatitude: pending.latitudeDegrees, longitude: pending.longitudeDegrees,
          toLatitude: p.latitudeDegrees,
          longitude: p.longitudeDegrees)
        if d > jump && seen <= parameters.startupFixes + 1 {
          dropped["startup-jump", default: 0] += 1
        } else {
          inStartup = false
          try keep(pending, emit: emit)
        }
      }
      startupPending = p
      if !inStartup {
        startupPending = nil
        try keep(p, emit: emit)
      }
      return
    }
    try keep(p, emit: emit)
  }

  private mutating func keep(_ p: TrackPoint, emit: (TrackPoint) throws -> Void) rethrows {
    if let max = parameters.maximumSpeedMetersPerSecond, let last = lastKept,
      let ta = last.timeSecondsSince1970,
      let tb = p.timeSecondsSince1970, tb > ta
    {
      let d = Geodesy.distanceMeters(
        fromLatitude: last.latitudeDegrees, longitude: last.longitudeDegrees, toLatitude: p.latitudeDegrees,
        longitude: p.longitudeDegrees)
      if d / (tb - ta) > max {
        dropped["speed", default: 0] += 1
        return
      }
    }
    if parameters.maximumSpeedMetersPerSecond != nil { lastKept = p }
    try emit(p)
  }

  public mutating func finish(emit: (TrackPoint) throws -> Void) rethrows {
    if let pending = startupPending {
      startupPending = nil
      try keep(pending, emit: emit)
    }
  }

  /// One diagnostic per rule that dropped fixes.
  public func diagnostics(source: String) -> [Diagnostic] {
    dropped.keys.sorted().map {
      Diagnostic(
        code: "cleaned-\($0)", severity: .note,
        message: "cleaning dropped \(dropped[$0]!) fixes (\($0) rule)", location: source)
    }
  }
}
