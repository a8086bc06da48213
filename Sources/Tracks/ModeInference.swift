import EnergyLabCore

/// How the mode of steps is inferred where a file declares no sport: the
/// epoch model (the default) or the speed bands of earlier versions.
public enum ModeInference: Sendable, Hashable {
  /// `EpochModeClassifier`: walk, cycle, vehicle, stationary per epoch.
  case epochModel(ModeModelParameters)
  /// `SpeedBandClassifier`: walk, run, cycle, bus, car, train, plane by
  /// bands of smoothed speed.
  case speedBands(SpeedBandParameters)

  public static let standard = ModeInference.epochModel(ModeModelParameters())

  /// The classifier's identifier, as `--classifier` names it.
  public var identifier: String {
    switch self {
    case .epochModel: return "epoch-hmm"
    case .speedBands: return "speed-bands"
    }
  }

  /// Activities of `steps` (indices into `steps`), never across a gap
  /// between segments.
  public func activities(of steps: [TrackStep], points: [TrackPoint]? = nil) -> [Activity] {
    switch self {
    case .epochModel(let p): return EpochModeClassifier(parameters: p).activities(of: steps, points: points)
    case .speedBands(let p): return SpeedBandClassifier(parameters: p).activities(of: steps)
    }
  }

  public var described: [NamedParameter] {
    switch self {
    case .epochModel(let p): return p.described
    case .speedBands(let p):
      return [
        NamedParameter(name: "mode_classifier", value: "speed-bands", meaning: "modes by bands of speed")
      ]
        + p.described
    }
  }

  /// Epoch length of the epoch model (30 s for the speed bands, which have
  /// none of their own).
  public var epochSeconds: Double {
    if case .epochModel(let p) = self { return p.epochSeconds }
    return 30
  }
}

extension EpochModeClassifier {
  /// Every epoch from the first fix to the last, whether a fix fell in it
  /// or not, with the mode of `modes` (one per step): an epoch takes the
  /// mode of the last step whose middle falls in it, an epoch without one
  /// the mode of the step that spans it. Its speed is the median of the
  /// speeds of the steps whose middle falls in it (nil without one).
  public func timeline(of steps: [TrackStep], points: [TrackPoint]? = nil, modes: [TransportMode])
    -> [ModeEpoch]
  {
    let observed = observedEpochs(of: steps, points: points)
    guard let first = observed.first?.startSecondsSince1970, let last = observed.last?.startSecondsSince1970
    else { return [] }
    let length = parameters.epochSeconds
    let count = Int(((last - first) / length).rounded()) + 1
    var out = (0..<count).map {
      ModeEpoch(
        startSecondsSince1970: first + Double($0) * length, fixes: 0, speedMetersPerSecond: nil,
        mode: .stationary)
    }
    for e in observed {
      let k = Int(((e.startSecondsSince1970 - first) / length).rounded())
      out[k].fixes = e.fixes
      out[k].speedMetersPerSecond = e.speedMetersPerSecond
      out[k].distanceMeters = e.distanceMeters
      out[k].latitudeDegrees = e.latitudeDegrees
      out[k].longitudeDegrees = e.longitudeDegrees
    }
    // 0: not yet, 1: spanned by a step, 2: holds a step's middle.
    var assigned = Array(repeating: 0, count: count)
    func index(_ t: Double) -> Int {
      Int((((t / length).rounded(.down) * length - first) / length).rounded())
    }
    for (i, step) in steps.enumerated() {
      guard let start = step.startSecondsSince1970 else { continue }
      let end = start + (step.durationSeconds ?? 0)
      let a = max(0, index(start))
      let b = min(count - 1, index(end))
      let middle = index((start + end) / 2)
      guard a <= b else { continue }
      for k in a...b where k == middle || assigned[k] == 0 {
        out[k].mode = modes[i]
        assigned[k] = k == middle ? 2 : 1
      }
    }
    return out
  }
}
