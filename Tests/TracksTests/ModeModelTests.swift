import EnergyLabCore
import Foundation
import TestSupport
import Testing
import Tracks

/// The epoch mode model on tracks whose modes are known by construction.
struct ModeModelTests {
  static func track(_ legs: [(speed: Double, minutes: Double)], interval: Double, noise: Double, seed: UInt64)
    -> Track
  {
    var spec = SyntheticTrackSpec()
    spec.legs = legs.map {
      SyntheticTrackSpec.Leg(
        speedMetersPerSecond: $0.speed, gradeFraction: 0, durationSeconds: $0.minutes * 60)
    }
    spec.sampleIntervalSeconds = interval
    spec.horizontalNoiseMeters = noise
    spec.seed = seed
    return TrackSynthesizer.track(spec)
  }

  static func activities(_ track: Track) -> [Activity] {
    let steps = TrackAnalysis(parameters: TrackAnalysisParameters()).steps(of: track).steps
    return EpochModeClassifier().activities(of: steps, points: track.points)
  }

  /// The defect: a walk with 1 m of position noise on fixes a
  /// second apart was cut into "running" pieces. Twenty minutes at 1.3 m/s
  /// are one walk, whatever the seed.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func noisyWalkingStaysWalking(seed: UInt64) {
    let a = Self.activities(Self.track([(1.3, 20)], interval: 1, noise: 1, seed: seed))
    #expect(a.map(\.mode) == [.walk], "\(a.map { ($0.mode, $0.durationSeconds) })")
  }

  /// The same walk logged every 5 s (the rate the model was fitted on)
  /// with 3 m of noise.
  @Test func noisyWalkingAtFiveSecondsStaysWalking() {
    let a = Self.activities(Self.track([(1.3, 20)], interval: 5, noise: 3, seed: 7))
    #expect(a.map(\.mode) == [.walk])
  }

  /// Walk 5 min at 1.3 m/s, stand 5 min, cycle 10 min at 4.5 m/s, drive
  /// 10 min at 12 m/s, walk 5 min: five activities of those modes, each
  /// boundary within one epoch (30 s) of the leg's end. Fixes every 5 s
  /// with 0.3 m noise.
  @Test func legsOfKnownModesAreFoundWithinAnEpoch() {
    let a = Self.activities(
      Self.track([(1.3, 5), (0, 5), (4.5, 10), (12, 10), (1.3, 5)], interval: 5, noise: 0.3, seed: 11))
    #expect(a.map(\.mode) == [.walk, .stationary, .cycle, .vehicle, .walk], "\(a.map(\.mode))")
    let t0 = 1_336_467_600.0
    let ends = [5.0, 10, 20, 30].map { t0 + $0 * 60 }
    for (activity, end) in zip(a, ends) {
      expectClose(activity.endSecondsSince1970, end, tolerance: 30.001, "end of \(activity.mode)")
    }
  }

  /// A car stopped at lights for 60 s between two minutes of driving
  /// stays a car: leaving a mode costs its transition probability.
  @Test func aCarAtLightsStaysACar() {
    let a = Self.activities(Self.track([(12, 4), (0, 1), (12, 4)], interval: 5, noise: 0.3, seed: 5))
    #expect(a.map(\.mode) == [.vehicle])
  }

  /// Viterbi by hand on two states of the model would need every count;
  /// the bins at least are checked by hand: 0.2 m/s is the second bin
  /// (edges are upper, open), 30 m/s the last.
  @Test func speedBinsAreUpperEdges() {
    let p = ModeModelParameters()
    #expect(p.bin(0.19) == 0)
    #expect(p.bin(0.2) == 1)
    #expect(p.bin(1.3) == 4)
    #expect(p.bin(30) == 18)
  }
}
