import EnergyLabCore
import Foundation

/// The states of the epoch mode model: the classes a GPS track tells apart
/// on its own (car, bus and train are one `vehicle`; running is not told
/// from cycling by speed, so it is left to a declared sport).
public let modeModelStates: [TransportMode] = [.walk, .cycle, .vehicle, .stationary]

/// Counts from which the epoch mode model's probabilities come: epochs of
/// each true mode per speed bin, and consecutive epochs per pair of true
/// modes. Mergeable, so days, files and folds add up the same way.
public struct ModeModelCounts: Sendable, Hashable {
  /// `emission[state][bin]`: epochs of `modeModelStates[state]` whose speed
  /// falls in `bin`.
  public var emission: [[Double]]
  /// `transition[from][to]`: pairs of consecutive epochs (no gap between).
  public var transition: [[Double]]

  public init(bins: Int) {
    emission = Array(repeating: Array(repeating: 0, count: bins), count: modeModelStates.count)
    transition = Array(
      repeating: Array(repeating: 0, count: modeModelStates.count), count: modeModelStates.count)
  }

  public init(emission: [[Double]], transition: [[Double]]) {
    self.emission = emission
    self.transition = transition
  }

  public mutating func merge(_ other: ModeModelCounts) {
    for s in emission.indices {
      for b in emission[s].indices { emission[s][b] += other.emission[s][b] }
      for t in transition[s].indices { transition[s][t] += other.transition[s][t] }
    }
  }
}

/// Named parameters of the epoch mode model; every one is reported with
/// the run.
///
/// A hidden Markov model over epochs: the hidden state is the mode (walk,
/// cycle, vehicle, stationary), the observation the epoch's speed in one of
/// `speedBinUpperEdges`' bins, and the most likely sequence of modes
/// (Viterbi) is the answer. Probabilities are counts plus a pseudocount,
/// normalised:
///
/// ```
/// P(bin b | mode m)  = (n_emit[m][b] + a) / (sum_b n_emit[m][b] + a * bins)
/// P(mode j | mode i) = (n_trans[i][j] + c) / (sum_j n_trans[i][j] + c * 4)
/// ```
///
/// An epoch's speed is the median of the speeds of the steps whose middle
/// falls in it
/// (steps longer than `maximumStepSeconds` are signal loss and give no
/// speed); an epoch with a fix but no speed observes nothing. Runs of
/// epochs with fixes are decoded apart where no fix falls for more than
/// `maximumEpochGapSeconds`. A vehicle stopped at lights or a cyclist
/// waiting stays in its mode because leaving a mode costs the transition
/// probability: the model judges minutes, not single epochs.
///
/// The default counts were fitted on the 19 days of the PALMS validation
/// study shipped in part as `Datasets/palms-mode-validation` (one
/// participant, San Diego, Qstarz BT-1000 at 5 s; MD2K, BSD 3-clause) by
/// `energylab evaluate modes --fit`; left-one-day-out scores are in the
/// README. The shape follows Zheng et al. (2008, "Understanding mobility
/// based on GPS data", UbiComp) in judging segments by speed in context,
/// and PALMS (Carlson et al. 2015, Med Sci Sports Exerc 47(3):662-667) in
/// scoring 30 s epochs.
public struct ModeModelParameters: Sendable, Hashable {
  /// Epoch length, s.
  public var epochSeconds = 30.0
  /// Steps longer than this are signal loss: no speed, s.
  public var maximumStepSeconds = 60.0
  /// A step's speed is measured over at least this long (back along the
  /// steps before it), so that fixes a second apart do not turn position
  /// noise into speed, s. The 5 s fixes the model was fitted on are
  /// measured step by step.
  public var minimumBaselineSeconds = 5.0
  /// A longer time without a fix splits the epochs into runs decoded
  /// apart, s.
  public var maximumEpochGapSeconds = 120.0
  /// Upper edges of the speed bins, m/s; the last bin is open.
  public var speedBinUpperEdges: [Double] = [
    0.2, 0.4, 0.7, 1.0, 1.5, 2.0, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 10, 13, 17, 25,
  ]
  /// Pseudocount added to every emission count.
  public var emissionPseudocount = 1.0
  /// Pseudocount added to every transition count.
  public var transitionPseudocount = 0.5
  /// A signal-loss step slower than this is stationary; a faster one takes
  /// the mode of the epoch after it, m/s.
  public var gapStationarySpeedMetersPerSecond = 0.4
  /// The counts of the fitted model.
  public var counts = ModeModelParameters.palmsValidationCounts
  /// Where the counts came from, as reported.
  public var countsSource = "palms-validation-19-days"
  /// With an accelerometer recording of the same person (`--accel`), an
  /// epoch's accelerometer state joins its speed as a second observation:
  /// `P(moving | mode)` for walk, cycle, vehicle and stationary, where
  /// moving is an accelerometer epoch at light intensity or above by the
  /// recording's own cut-points, still one that is sedentary. Set from
  /// what each mode does to the body, not fitted (no labelled days with an
  /// accelerometer ship): walking moves the body in nearly every 30 s
  /// (0.95), cycling mostly (0.7, the wrist rests on the bars), a
  /// passenger or driver rarely (0.1), a person staying in a place now and
  /// then (0.2). A still accelerometer then outweighs a walking speed in
  /// crawling traffic, which the speed alone calls walking; as PALMS and
  /// hbGPS let activity counts or ENMO join the decision.
  public var accelerometerMovingLikelihood: [Double] = [0.95, 0.7, 0.1, 0.2]
  /// Per epoch start (s since 1970): whether the accelerometer recording
  /// was moving then; empty without one.
  public var accelerometerMoving: [Double: Bool] = [:]

  public init() {}

  /// Counts fitted on the 19 shipped-in-part days of the PALMS validation
  /// study (`energylab evaluate modes --fit`, every day).
  public static let palmsValidationCounts = ModeModelCounts(
    emission: [
      [170, 60, 83, 98, 523, 381, 40, 8, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1],
      [81, 20, 22, 16, 33, 34, 37, 75, 167, 212, 296, 79, 23, 3, 0, 0, 0, 0, 0],
      [273, 108, 89, 48, 63, 58, 63, 55, 65, 51, 102, 91, 91, 74, 159, 173, 99, 77, 55],
      [1929, 101, 42, 25, 23, 6, 4, 3, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0],
    ],
    transition: [
      [1223, 33, 18, 74], [9, 1027, 0, 60], [16, 0, 1667, 73], [97, 26, 88, 1903],
    ])

  var binCount: Int { speedBinUpperEdges.count + 1 }

  /// The bin of a speed, m/s.
  public func bin(_ speedMetersPerSecond: Double) -> Int {
    var lo = 0
    var hi = speedBinUpperEdges.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if speedMetersPerSecond < speedBinUpperEdges[mid] { hi = mid } else { lo = mid + 1 }
    }
    return lo
  }

  public var described: [NamedParameter] {
    func row(_ xs: [Double]) -> String { xs.map { Fixed.shortest($0) }.joined(separator: " ") }
    var out = [
      NamedParameter(
        name: "mode_classifier", value: "epoch-hmm", meaning: "modes by a hidden Markov model over epochs"),
      NamedParameter(name: "mode_epoch_s", value: Fixed.shortest(epochSeconds), meaning: "epoch length"),
      NamedParameter(
        name: "mode_max_step_s", value: Fixed.shortest(maximumStepSeconds),
        meaning: "longer steps are signal loss and give no speed"),
      NamedParameter(
        name: "mode_min_baseline_s", value: Fixed.shortest(minimumBaselineSeconds),
        meaning: "a step's speed is measured over at least this long"),
      NamedParameter(
        name: "mode_max_epoch_gap_s", value: Fixed.shortest(maximumEpochGapSeconds),
        meaning: "a longer time without a fix splits the decoding"),
      NamedParameter(
        name: "mode_speed_bins_mps", value: row(speedBinUpperEdges), meaning: "upper edges of the speed bins"),
      NamedParameter(
        name: "mode_emission_pseudocount", value: Fixed.shortest(emissionPseudocount),
        meaning: "added to every emission count"),
      NamedParameter(
        name: "mode_transition_pseudocount", value: Fixed.shortest(transitionPseudocount),
        meaning: "added to every transition count"),
      NamedParameter(
        name: "mode_gap_stationary_mps", value: Fixed.shortest(gapStationarySpeedMetersPerSecond),
        meaning: "a slower signal-loss step is stationary"),
      NamedParameter(
        name: "mode_counts", value: countsSource, meaning: "what the model's counts were fitted on"),
    ]
    for (s, state) in modeModelStates.enumerated() {
      out.append(
        NamedParameter(
          name: "mode_emission_\(state.rawValue)", value: row(counts.emission[s]),
          meaning: "epochs of \(state.rawValue) per speed bin"))
    }
    for (s, state) in modeModelStates.enumerated() {
      out.append(
        NamedParameter(
          name: "mode_transition_\(state.rawValue)", value: row(counts.transition[s]),
          meaning:
            "epochs after \(state.rawValue) that were \(modeModelStates.map(\.rawValue).joined(separator: ", "))"
        ))
    }
    if !accelerometerMoving.isEmpty {
      out.append(
        NamedParameter(
          name: "mode_accel_p_moving", value: row(accelerometerMovingLikelihood),
          meaning:
            "P(accelerometer epoch light or above | walk, cycle, vehicle, stationary); set, not fitted"))
    }
    return out
  }
}

/// One epoch of a track: when it starts, whether a fix fell in it, its
/// speed and its mode.
public struct ModeEpoch: Sendable, Hashable {
  /// Start, seconds since 1970 (UTC); epochs start at whole multiples of
  /// the epoch length.
  public var startSecondsSince1970: Double
  /// Fixes that fall in the epoch.
  public var fixes: Int
  /// Median speed of the steps whose middle falls in the epoch, m/s; nil
  /// when none.
  public var speedMetersPerSecond: Double?
  public var mode: TransportMode
  /// Distance of the steps whose middle falls in the epoch (signal loss
  /// included), m.
  public var distanceMeters: Double = 0
  /// Position of the last fix in the epoch (with the track's points).
  public var latitudeDegrees: Double?
  public var longitudeDegrees: Double?
  /// Whether an accelerometer recording of the same person was moving in
  /// the epoch (light intensity or above); nil without one.
  public var accelerometerMoving: Bool? = nil
}

/// The epoch mode model (`ModeModelParameters`): epochs of a track's steps,
/// their modes, and activities of one mode each.
public struct EpochModeClassifier: Sendable {
  public var parameters: ModeModelParameters

  public init(parameters: ModeModelParameters = ModeModelParameters()) {
    self.parameters = parameters
  }

  /// Epochs with a fix or a step's middle, in time order, with their speed; modes
  /// are not yet decided (`.stationary`). With the track's `points` (which
  /// the steps' `endPointIndex` index), a step's speed is measured over a
  /// baseline of at least `minimumBaselineSeconds` back along contiguous
  /// steps (the straight distance between the fixes at its ends), so that
  /// position noise of fixes a second apart is not read as speed; without
  /// them, each step's own speed.
  public func observedEpochs(of steps: [TrackStep], points: [TrackPoint]? = nil) -> [ModeEpoch] {
    let length = parameters.epochSeconds
    var fixes: [Double: Int] = [:]
    var speeds: [Double: [Double]] = [:]
    var distances: [Double: Double] = [:]
    var positions: [Double: (Double, Double)] = [:]
    var lastEnd: Double?
    for (k, step) in steps.enumerated() {
      guard let start = step.startSecondsSince1970 else { continue }
      let duration = step.durationSeconds ?? 0
      let end = start + duration
      // A segment's first fix (the step's start) is a fix too.
      if lastEnd != start {
        let first = (start / length).rounded(.down) * length
        fixes[first, default: 0] += 1
        if let points, step.endPointIndex >= 1, step.endPointIndex - 1 < points.count {
          let p = points[step.endPointIndex - 1]
          positions[first] = (p.latitudeDegrees, p.longitudeDegrees)
        }
      }
      let fixEpoch = (end / length).rounded(.down) * length
      fixes[fixEpoch, default: 0] += 1
      if let points, step.endPointIndex < points.count {
        let p = points[step.endPointIndex]
        positions[fixEpoch] = (p.latitudeDegrees, p.longitudeDegrees)
      }
      lastEnd = end
      // A step counts in the epoch that holds its middle: a step across a
      // boundary belongs where most of it lies.
      let epoch = ((start + end) / 2 / length).rounded(.down) * length
      distances[epoch, default: 0] += step.distance2DMeters
      guard duration > 0, duration <= parameters.maximumStepSeconds else { continue }
      if let points, let speed = baselineSpeed(steps, k, end: end, points: points) {
        speeds[epoch, default: []].append(speed)
      } else {
        speeds[epoch, default: []].append(step.distance2DMeters / duration)
      }
    }
    return Set(fixes.keys).union(speeds.keys).sorted().map { start in
      ModeEpoch(
        startSecondsSince1970: start, fixes: fixes[start] ?? 0,
        speedMetersPerSecond: speeds[start].map(median),
        mode: .stationary, distanceMeters: distances[start] ?? 0, latitudeDegrees: positions[start]?.0,
        longitudeDegrees: positions[start]?.1, accelerometerMoving: parameters.accelerometerMoving[start])
    }
  }

  /// The speed of step `k` over at least `minimumBaselineSeconds`: back
  /// along steps of one segment, each with a time, no longer than
  /// `maximumStepSeconds` and joined end to start.
  func baselineSpeed(_ steps: [TrackStep], _ k: Int, end: Double, points: [TrackPoint]) -> Double? {
    var j = k
    while let start = steps[j].startSecondsSince1970, end - start < parameters.minimumBaselineSeconds, j > 0 {
      let previous = steps[j - 1]
      guard previous.segment == steps[j].segment, previous.endPointIndex == steps[j].endPointIndex - 1,
        let d = previous.durationSeconds, d > 0, d <= parameters.maximumStepSeconds
      else { break }
      j -= 1
    }
    let from = steps[j].endPointIndex - 1
    let to = steps[k].endPointIndex
    guard from >= 0, to < points.count, let t0 = steps[j].startSecondsSince1970, end > t0 else { return nil }
    let a = points[from]
    let b = points[to]
    return Geodesy.distanceMeters(
      fromLatitude: a.latitudeDegrees, longitude: a.longitudeDegrees, toLatitude: b.latitudeDegrees,
      longitude: b.longitudeDegrees) / (end - t0)
  }

  /// The epochs of `steps` with their modes.
  public func epochs(of steps: [TrackStep], points: [TrackPoint]? = nil) -> [ModeEpoch] {
    decode(observedEpochs(of: steps, points: points))
  }

  /// Observed epochs (`observedEpochs`) with their modes decided.
  public func decode(_ observed: [ModeEpoch]) -> [ModeEpoch] {
    var epochs = observed
    guard !epochs.isEmpty else { return [] }
    let logs = logProbabilities()
    var start = 0
    for i in 1...epochs.count
    where i == epochs.count
      || epochs[i].startSecondsSince1970 - epochs[i - 1].startSecondsSince1970
        > parameters.maximumEpochGapSeconds
    {
      let states = viterbi(Array(epochs[start..<i]), logs: logs)
      for (k, s) in states.enumerated() { epochs[start + k].mode = modeModelStates[s] }
      start = i
    }
    return epochs
  }

  struct LogProbabilities {
    var emission: [[Double]]
    var transition: [[Double]]
    /// log P(moving | state) and log P(still | state).
    var moving: [Double]
    var still: [Double]
  }

  func logProbabilities() -> LogProbabilities {
    let a = parameters.emissionPseudocount
    let c = parameters.transitionPseudocount
    let emission = parameters.counts.emission.map { row -> [Double] in
      let total = row.reduce(0, +) + a * Double(row.count)
      return row.map { Foundation.log(($0 + a) / total) }
    }
    let transition = parameters.counts.transition.map { row -> [Double] in
      let total = row.reduce(0, +) + c * Double(row.count)
      return row.map { Foundation.log(($0 + c) / total) }
    }
    let p = parameters.accelerometerMovingLikelihood
    return LogProbabilities(
      emission: emission, transition: transition, moving: p.map { Foundation.log($0) },
      still: p.map { Foundation.log(1 - $0) })
  }

  /// The most likely states of a run of epochs (ties to the earlier state).
  func viterbi(_ epochs: [ModeEpoch], logs: LogProbabilities) -> [Int] {
    guard !epochs.isEmpty else { return [] }
    let n = modeModelStates.count
    func emit(_ s: Int, _ e: ModeEpoch) -> Double {
      (e.speedMetersPerSecond.map { logs.emission[s][parameters.bin($0)] } ?? 0)
        + (e.accelerometerMoving.map { $0 ? logs.moving[s] : logs.still[s] } ?? 0)
    }
    var score = (0..<n).map { emit($0, epochs[0]) }
    var back: [[Int]] = []
    back.reserveCapacity(epochs.count)
    for k in 1..<max(1, epochs.count) {
      var next = Array(repeating: -Double.infinity, count: n)
      var from = Array(repeating: 0, count: n)
      for j in 0..<n {
        for i in 0..<n {
          let v = score[i] + logs.transition[i][j]
          if v > next[j] {
            next[j] = v
            from[j] = i
          }
        }
        next[j] += emit(j, epochs[k])
      }
      back.append(from)
      score = next
    }
    var state = 0
    for s in 1..<n where score[s] > score[state] { state = s }
    var out = [state]
    for from in back.reversed() {
      state = from[state]
      out.append(state)
    }
    return out.reversed()
  }

  /// The mode of every step: the mode of the epoch that holds its middle; a
  /// signal-loss step (longer than `maximumStepSeconds`) is stationary
  /// when slower than `gapStationarySpeedMetersPerSecond`.
  public func stepModes(of steps: [TrackStep], epochs: [ModeEpoch]) -> [TransportMode] {
    var byStart: [Double: TransportMode] = [:]
    for e in epochs { byStart[e.startSecondsSince1970] = e.mode }
    let length = parameters.epochSeconds
    var last = TransportMode.stationary
    return steps.map { step in
      guard let start = step.startSecondsSince1970 else { return last }
      let duration = step.durationSeconds ?? 0
      if duration > parameters.maximumStepSeconds
        && step.distance2DMeters / duration < parameters.gapStationarySpeedMetersPerSecond
      {
        return .stationary
      }
      let mode = byStart[((start + duration / 2) / length).rounded(.down) * length] ?? last
      last = mode
      return mode
    }
  }

  /// Activities of `steps`: runs of steps of one mode, never across a gap
  /// between segments.
  public func activities(of steps: [TrackStep], points: [TrackPoint]? = nil) -> [Activity] {
    activities(of: steps, modes: stepModes(of: steps, epochs: epochs(of: steps, points: points)))
  }

  /// Activities from steps' modes already decided.
  public func activities(of steps: [TrackStep], modes: [TransportMode]) -> [Activity] {
    var out: [Activity] = []
    var start = 0
    for i in 1...max(1, steps.count) where !steps.isEmpty {
      if i == steps.count || modes[i] != modes[start] || steps[i].segment != steps[i - 1].segment {
        out.append(Activity(mode: modes[start], steps: steps, range: start..<i))
        start = i
      }
    }
    return out
  }

  /// Counts for fitting: each observed epoch whose true mode `truth` knows
  /// adds to its mode's speed bin; each pair of consecutive epochs (one
  /// epoch apart) whose true modes are known adds a transition.
  public func counts(of epochs: [ModeEpoch], truth: (Double) -> TransportMode?) -> ModeModelCounts {
    var counts = ModeModelCounts(bins: parameters.binCount)
    var previous: (start: Double, state: Int)?
    for e in epochs {
      let state = truth(e.startSecondsSince1970).flatMap { modeModelStates.firstIndex(of: $0) }
      if let state, let v = e.speedMetersPerSecond { counts.emission[state][parameters.bin(v)] += 1 }
      if let state, let previous, e.startSecondsSince1970 - previous.start == parameters.epochSeconds {
        counts.transition[previous.state][state] += 1
      }
      previous = state.map { (e.startSecondsSince1970, $0) }
    }
    return counts
  }
}

private func median(_ values: [Double]) -> Double {
  let s = values.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
