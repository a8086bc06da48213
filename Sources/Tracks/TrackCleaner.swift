import EnergyLabCore
import Foundation

/// Cleaning of fixes before any metric, each rule recorded with the run.
/// The impossible-fix rules are on by default; the others are off unless set.
public struct CleaningParameters: Sendable, Hashable {
  /// Leave out fixes at exactly latitude 0, longitude 0 ("null island"),
  /// where receivers and apps put a fix they have no position for. Default on.
  public var dropNullIsland = true
  /// A single fix whose steps to both neighbours need a speed above this,
  /// while the neighbours are within it of each other, is an impossible
  /// spike and is left out, m/s. Default 400 m/s: above the ground speed of
  /// any airliner (about 360 m/s in the strongest jet stream), far beyond
  /// any movement a person records. Nil: keep such fixes.
  public var impossibleSpeedMetersPerSecond: Double? = 400
  /// The same test for steps without usable times: both steps longer than
  /// this while the neighbours are nearer than it to each other, metres.
  /// Default 200 km.
  public var impossibleJumpMeters: Double? = 200_000
  /// Drop leading fixes more than this far (m) from the fix after them:
  /// start-up fixes before the receiver settles (the PEM thesis saw jumps of
  /// up to 500 m, L649). Applied at the start of every segment.
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

  public var described: [NamedParameter] {
    func text(_ value: Double?) -> String { value.map(Fixed.shortest) ?? "off" }
    return [
      NamedParameter(
        name: "drop_null_island", value: dropNullIsland ? "on" : "off",
        meaning: "leave out fixes at latitude 0, longitude 0"),
      NamedParameter(
        name: "impossible_speed_mps", value: text(impossibleSpeedMetersPerSecond),
        meaning: "leave out a single fix whose steps both need a faster speed"),
      NamedParameter(
        name: "impossible_jump_m", value: text(impossibleJumpMeters),
        meaning: "the same for steps without times: both steps longer than this"),
      NamedParameter(
        name: "clean_startup_jump_m", value: text(startupJumpMeters),
        meaning: "drop leading fixes this far from the next (first \(startupFixes) of each segment)"),
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

/// Applies `CleaningParameters` to the path fixes of a file one at a time,
/// segment by segment (no rule looks across a gap), and counts what each
/// rule dropped. Waypoints and time-only trackpoints pass untouched, in
/// their place in the order: one that arrives while path fixes before it
/// are still undecided waits for them (elevation and power are read in
/// file order downstream).
///
/// The impossible-fix rule decides a fix once its next neighbour is known
/// (two at the start of a segment): fix B between A and C is a spike when
/// A to B and B to C are both impossible and A to C is not. A fix whose
/// neighbours are off as well is kept, and its impossible steps are counted
/// in a warning.
public struct TrackCleaner: Sendable {
  public let parameters: CleaningParameters
  public private(set) var dropped: [String: Int] = [:]
  /// Lines (and positions) of the first fixes left out as impossible.
  private var impossibleExamples: [String] = []
  /// Steps between kept fixes that still need an impossible speed.
  private var impossibleStepsKept = 0
  private var firstImpossibleStepLine: Int?
  // Per segment.
  private var segmentKey: (kind: FixKind, segment: Int32)?
  private var outlierKept: TrackPoint?
  private var outlierPending: [TrackPoint] = []
  private var seen = 0
  private var startupPending: TrackPoint?
  private var inStartup = true
  private var lastKept: TrackPoint?
  /// Path fixes arrived and decided (kept or dropped; decided in the order
  /// they arrived), and the other fixes waiting for the path fixes before
  /// them, each with the number of path fixes that arrived before it.
  private var arrived = 0
  private var decided = 0
  private var held: [(after: Int, point: TrackPoint)] = []
  private var heldHead = 0

  public init(parameters: CleaningParameters) { self.parameters = parameters }

  public mutating func add(_ p: TrackPoint, emit: (TrackPoint) throws -> Void) rethrows {
    guard p.kind == .track || p.kind == .route else {
      if heldHead == held.count && decided == arrived {
        try emit(p)
      } else {
        held.append((arrived, p))
      }
      return
    }
    arrived += 1
    if let key = segmentKey, key.kind != p.kind || key.segment != p.segment {
      try finish(emit: emit)
    }
    segmentKey = (p.kind, p.segment)
    if parameters.dropNullIsland && p.latitudeDegrees == 0 && p.longitudeDegrees == 0 {
      dropped["null-island", default: 0] += 1
      noteImpossible(p)
      try decide(emit: emit)
      return
    }
    if let max = parameters.maximumHorizontalDilution, let h = p.horizontalDilution, h > max {
      dropped["hdop", default: 0] += 1
      try decide(emit: emit)
      return
    }
    if let max = parameters.maximumAltitudeMeters, let z = p.elevationMeters, z > max {
      dropped["altitude", default: 0] += 1
      try decide(emit: emit)
      return
    }
    guard parameters.impossibleSpeedMetersPerSecond != nil || parameters.impossibleJumpMeters != nil else {
      try afterOutliers(p, emit: emit)
      return
    }
    outlierPending.append(p)
    if let kept = outlierKept {
      // Pending: [B, C]; decide B.
      guard outlierPending.count == 2 else { return }
      let b = outlierPending[0]
      let c = outlierPending[1]
      if impossible(kept, b) && impossible(b, c) && !impossible(kept, c) {
        try dropSpike(b, emit: emit)
      } else {
        try keepPassed(b, after: kept, emit: emit)
      }
      outlierPending.removeFirst()
    } else {
      // Start of a segment: pending [P0, P1, P2]; decide P0.
      guard outlierPending.count == 3 else { return }
      let p0 = outlierPending[0]
      let p1 = outlierPending[1]
      let p2 = outlierPending[2]
      outlierPending.removeFirst()
      if impossible(p0, p1) && impossible(p0, p2) && !impossible(p1, p2) {
        try dropSpike(p0, emit: emit)
        outlierPending.removeFirst()
        try keepPassed(p1, after: nil, emit: emit)
      } else {
        try keepPassed(p0, after: nil, emit: emit)
        // Now [P1, P2] with a kept fix: decide P1.
        if impossible(p0, p1) && impossible(p1, p2) && !impossible(p0, p2) {
          try dropSpike(p1, emit: emit)
        } else {
          try keepPassed(p1, after: p0, emit: emit)
        }
        outlierPending.removeFirst()
      }
    }
  }

  /// Ends the current segment: decides the fixes still pending.
  public mutating func finish(emit: (TrackPoint) throws -> Void) rethrows {
    let pending = outlierPending
    outlierPending.removeAll()
    if let kept = outlierKept {
      // A last fix after a kept one: left out when its one step is impossible.
      for b in pending {
        if impossible(outlierKept ?? kept, b) {
          try dropSpike(b, emit: emit)
        } else {
          try keepPassed(b, after: outlierKept, emit: emit)
        }
      }
    } else {
      // One or two fixes alone: nothing to compare them with beyond each other.
      for b in pending { try keepPassed(b, after: outlierKept, emit: emit) }
    }
    if let pending = startupPending {
      startupPending = nil
      try keep(pending, emit: emit)
    }
    outlierKept = nil
    seen = 0
    inStartup = true
    lastKept = nil
    segmentKey = nil
  }

  /// Whether the step from `a` to `b` needs an impossible speed (or, without
  /// usable times, an impossible jump). A fast equirectangular distance is
  /// enough for a test against thresholds this far from real movement.
  private func impossible(_ a: TrackPoint, _ b: TrackPoint) -> Bool {
    let limit: Double
    if let ta = a.timeSecondsSince1970, let tb = b.timeSecondsSince1970, tb > ta {
      guard let v = parameters.impossibleSpeedMetersPerSecond else { return false }
      limit = v * (tb - ta)
    } else {
      guard let jump = parameters.impossibleJumpMeters else { return false }
      limit = jump
    }
    // Almost every step is far below the limit: R (|Δφ| + |Δλ|) bounds the
    // distance from above without a cosine.
    let bound =
      Geodesy.meanRadiusMeters
      * (abs(b.latitudeDegrees - a.latitudeDegrees)
        + abs(b.longitudeDegrees - a.longitudeDegrees)) * .pi / 180
    if bound <= limit { return false }
    return Geodesy.approximateMeters(a, b) > limit
  }

  private mutating func dropSpike(_ p: TrackPoint, emit: (TrackPoint) throws -> Void) rethrows {
    dropped["impossible", default: 0] += 1
    noteImpossible(p)
    try decide(emit: emit)
  }

  /// The next path fix (in arrival order) is decided, kept and handed on
  /// or dropped: the fixes waiting for it go on.
  private mutating func decide(emit: (TrackPoint) throws -> Void) rethrows {
    decided += 1
    while heldHead < held.count && held[heldHead].after <= decided {
      let p = held[heldHead].point
      heldHead += 1
      try emit(p)
    }
    if heldHead == held.count {
      held.removeAll(keepingCapacity: true)
      heldHead = 0
    }
  }

  private mutating func noteImpossible(_ p: TrackPoint) {
    if impossibleExamples.count < 3 {
      impossibleExamples.append(
        "line \(p.sourceLine) (\(Fixed.shortest(p.latitudeDegrees)), \(Fixed.shortest(p.longitudeDegrees)))")
    }
  }

  private mutating func keepPassed(
    _ p: TrackPoint, after previous: TrackPoint?, emit: (TrackPoint) throws -> Void
  )
    rethrows
  {
    if let previous, impossible(previous, p) {
      impossibleStepsKept += 1
      if firstImpossibleStepLine == nil { firstImpossibleStepLine = p.sourceLine }
    }
    outlierKept = p
    try afterOutliers(p, emit: emit)
  }

  private mutating func afterOutliers(_ p: TrackPoint, emit: (TrackPoint) throws -> Void) rethrows {
    seen += 1
    if let jump = parameters.startupJumpMeters, inStartup {
      if let pending = startupPending {
        let d = Geodesy.distanceMeters(
          fromLatitude: pending.latitudeDegrees, longitude: pending.longitudeDegrees,
          toLatitude: p.latitudeDegrees,
          longitude: p.longitudeDegrees)
        if d > jump && seen <= parameters.startupFixes + 1 {
          dropped["startup-jump", default: 0] += 1
          try decide(emit: emit)
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
        try decide(emit: emit)
        return
      }
    }
    if parameters.maximumSpeedMetersPerSecond != nil { lastKept = p }
    try emit(p)
    try decide(emit: emit)
  }

  /// One diagnostic per rule that dropped fixes, and a warning for
  /// impossible steps that were kept.
  public func diagnostics(source: String) -> [Diagnostic] {
    var out: [Diagnostic] = []
    let impossible = (dropped["null-island"] ?? 0) + (dropped["impossible"] ?? 0)
    if impossible > 0 {
      var rules: [String] = []
      if let n = dropped["null-island"] { rules.append("\(n) at latitude 0, longitude 0 (drop_null_island)") }
      if let n = dropped["impossible"] {
        rules.append("\(n) needing impossible speeds (impossible_speed_mps, impossible_jump_m)")
      }
      out.append(
        Diagnostic(
          code: "impossible-fix",
          message:
            "left out \(impossible) impossible \(impossible == 1 ? "fix" : "fixes"): \(rules.joined(separator: "; ")); first at \(impossibleExamples.joined(separator: ", "))",
          location: source))
    }
    if impossibleStepsKept > 0 {
      out.append(
        Diagnostic(
          code: "impossible-step",
          message:
            "\(impossibleStepsKept) steps need a speed above \(parameters.impossibleSpeedMetersPerSecond.map(Fixed.shortest) ?? "-") m/s (or jump over \(parameters.impossibleJumpMeters.map(Fixed.shortest) ?? "-") m without times) and were kept: more than one fix is off there",
          location: firstImpossibleStepLine.map { "\(source):\($0)" } ?? source))
    }
    for rule in dropped.keys.sorted() where rule != "null-island" && rule != "impossible" {
      out.append(
        Diagnostic(
          code: "cleaned-\(rule)", severity: .note,
          message: "cleaning dropped \(dropped[rule]!) fixes (\(rule) rule)", location: source))
    }
    return out
  }
}
