import EnergyLabCore
import Foundation

/// Named parameters of the speed-band classifier; every one is reported.
///
/// Bands are on the median speed of a sliding window of fixes. The defaults
/// are deliberately simple, documented guesses for urban travel: walking
/// below 2.0 m/s (7.2 km/h, near the walk-run transition), running to 3.5 m/s
/// (12.6 km/h), cycling to 7.0 m/s (25 km/h), bus to 12 m/s (43 km/h, urban
/// average with stops), car to 30 m/s (108 km/h), train to 70 m/s (252 km/h),
/// plane above. A mode left out of `enabledModes` hands its band to the next
/// faster enabled mode (without bus, 7-12 m/s is car). Speed alone
/// cannot tell a bus in traffic from a car: where modes matter, use the
/// Alter Eco classifier with stations, or label activities by hand.
public struct SpeedBandParameters: Sendable, Hashable {
  /// Upper speed of each band, m/s, in the order walk, run, cycle, bus, car.
  public var walkMaxMetersPerSecond = 2.0
  public var runMaxMetersPerSecond = 3.5
  public var cycleMaxMetersPerSecond = 7.0
  public var busMaxMetersPerSecond = 12.0
  public var carMaxMetersPerSecond = 30.0
  public var trainMaxMetersPerSecond = 70.0
  /// Modes the classifier may give.
  public var enabledModes: [TransportMode] = TransportMode.speedBandModes
  /// Fixes in the running-median window that smooths step speeds.
  public var medianWindowFixes = 5
  /// Activities shorter than this are absorbed by a neighbour, s.
  public var minimumActivitySeconds = 60.0

  public init() {}

  public var described: [NamedParameter] {
    [
      NamedParameter(
        name: "mode_walk_max_mps", value: Fixed.shortest(walkMaxMetersPerSecond),
        meaning: "median speed below which a fix is walking"),
      NamedParameter(
        name: "mode_run_max_mps", value: Fixed.shortest(runMaxMetersPerSecond),
        meaning: "upper speed of running"),
      NamedParameter(
        name: "mode_cycle_max_mps", value: Fixed.shortest(cycleMaxMetersPerSecond),
        meaning: "upper speed of cycling"),
      NamedParameter(
        name: "mode_bus_max_mps", value: Fixed.shortest(busMaxMetersPerSecond), meaning: "upper speed of bus"),
      NamedParameter(
        name: "mode_car_max_mps", value: Fixed.shortest(carMaxMetersPerSecond),
        meaning: "upper speed of car; faster is train"),
      NamedParameter(
        name: "mode_median_window_fixes", value: String(medianWindowFixes),
        meaning: "running-median window of step speeds"),
      NamedParameter(
        name: "mode_min_activity_s", value: Fixed.shortest(minimumActivitySeconds),
        meaning: "shorter activities join a neighbour"),
    ]
  }

  func mode(forSpeed speed: Double) -> TransportMode {
    let bands: [(TransportMode, Double)] = [
      (.walk, walkMaxMetersPerSecond), (.run, runMaxMetersPerSecond), (.cycle, cycleMaxMetersPerSecond),
      (.bus, busMaxMetersPerSecond), (.car, carMaxMetersPerSecond), (.train, trainMaxMetersPerSecond),
      (.plane, .infinity),
    ]
    guard let first = bands.firstIndex(where: { speed < $0.1 }) else { return enabledModes.last ?? .plane }
    for (mode, _) in bands[first...] where enabledModes.contains(mode) { return mode }
    return enabledModes.last ?? bands[first].0
  }
}

/// A stretch of a track travelled one way: steps `stepRange` of the track's
/// steps.
public struct Activity: Sendable, Hashable {
  public var mode: TransportMode
  public var stepRange: Range<Int>
  public var startSecondsSince1970: Double?
  public var endSecondsSince1970: Double?
  public var distanceMeters: Double
  public var durationSeconds: Double

  /// The activity of one mode over `range` of `steps`: its times, distance
  /// and the time its steps cover.
  public init(mode: TransportMode, steps: [TrackStep], range: Range<Int>) {
    let slice = steps[range]
    self.mode = mode
    stepRange = range
    startSecondsSince1970 = slice.first?.startSecondsSince1970
    endSecondsSince1970 = slice.last.flatMap { step in
      step.startSecondsSince1970.map { $0 + (step.durationSeconds ?? 0) }
    }
    distanceMeters = slice.reduce(0) { $0 + $1.distance2DMeters }
    durationSeconds = slice.reduce(0) { $0 + ($1.durationSeconds ?? 0) }
  }
}

/// Splits a track's steps into activities by bands of smoothed speed.
public struct SpeedBandClassifier: Sendable {
  public var parameters: SpeedBandParameters

  public init(parameters: SpeedBandParameters = SpeedBandParameters()) {
    self.parameters = parameters
  }

  /// The mode of every step: the band of the running median of step speeds
  /// (steps without a speed take their predecessor's mode).
  public func modes(of steps: [TrackStep]) -> [TransportMode] {
    let half = max(0, parameters.medianWindowFixes / 2)
    var modes: [TransportMode] = []
    modes.reserveCapacity(steps.count)
    var window: [Double] = []
    for i in steps.indices {
      window.removeAll(keepingCapacity: true)
      for j in max(0, i - half)...min(steps.count - 1, i + half) {
        if let v = steps[j].speedMetersPerSecond { window.append(v) }
      }
      if window.isEmpty {
        modes.append(modes.last ?? .walk)
        continue
      }
      window.sort()
      let median =
        window.count % 2 == 1
        ? window[window.count / 2] : (window[window.count / 2 - 1] + window[window.count / 2]) / 2
      modes.append(parameters.mode(forSpeed: median))
    }
    return modes
  }

  /// The activities of the steps, segment by segment: an activity never
  /// spans a gap between segments or a time gap, and the smoothing window never reaches
  /// across one. `stepRange`s index `steps`.
  public func activities(of steps: [TrackStep]) -> [Activity] {
    var out: [Activity] = []
    var start = 0
    for i in steps.indices.dropFirst().map({ $0 }) + [steps.count]
    where i == steps.count || steps[i].segment != steps[i - 1].segment || steps[i].followsTimeGap {
      out += activities(ofSegment: Array(steps[start..<i])).map { a in
        var a = a
        a.stepRange = (a.stepRange.lowerBound + start)..<(a.stepRange.upperBound + start)
        return a
      }
      start = i
    }
    return out
  }

  /// The activities of steps of one segment: runs of one mode; the
  /// shortest run below `minimumActivitySeconds` (the earliest of equals)
  /// joins its longer neighbour (the earlier of equals), neighbours of one
  /// mode then join, until no short run is left. Runs are kept in a linked
  /// list and the short ones in a heap, so a noisy track of many thousand
  /// runs takes O(n log n), not the O(n^2) of rescanning every run.
  func activities(ofSegment steps: [TrackStep]) -> [Activity] {
    guard !steps.isEmpty else { return [] }
    let modes = modes(of: steps)
    // Prefix sums of step durations: the seconds of any range in O(1).
    var prefix = [0.0]
    prefix.reserveCapacity(steps.count + 1)
    for step in steps { prefix.append(prefix[prefix.count - 1] + (step.durationSeconds ?? 0)) }
    struct Run {
      var mode: TransportMode
      var range: Range<Int>
      var previous: Int?
      var next: Int?
      var alive = true
      var version = 0
    }
    var list: [Run] = []
    var start = 0
    for i in 1...steps.count where i == steps.count || modes[i] != modes[start] {
      list.append(
        Run(mode: modes[start], range: start..<i, previous: list.isEmpty ? nil : list.count - 1, next: nil))
      if list.count > 1 { list[list.count - 2].next = list.count - 1 }
      start = i
    }
    func seconds(_ k: Int) -> Double { prefix[list[k].range.upperBound] - prefix[list[k].range.lowerBound] }
    var heap = ShortRunHeap()
    for k in list.indices where seconds(k) < parameters.minimumActivitySeconds {
      heap.push(.init(seconds: seconds(k), position: list[k].range.lowerBound, run: k, version: 0))
    }
    var alive = list.count
    /// Joins run `b` into run `a` (neighbours), keeping `a`'s mode.
    func absorb(_ a: Int, _ b: Int) {
      list[a].range =
        min(
          list[a].range.lowerBound, list[b].range.lowerBound)..<max(
          list[a].range.upperBound, list[b].range.upperBound)
      if list[b].previous == a {
        list[a].next = list[b].next
        if let n = list[b].next { list[n].previous = a }
      } else {
        list[a].previous = list[b].previous
        if let p = list[b].previous { list[p].next = a }
      }
      list[b].alive = false
      alive -= 1
    }
    while alive > 1, let entry = heap.pop() {
      let shortest = entry.run
      guard list[shortest].alive, list[shortest].version == entry.version else { continue }
      let target: Int
      switch (list[shortest].previous, list[shortest].next) {
      case (let p?, let n?): target = seconds(p) >= seconds(n) ? p : n
      case (let p?, nil): target = p
      case (nil, let n?): target = n
      default: continue
      }
      absorb(target, shortest)
      // Neighbours of one mode join.
      if let p = list[target].previous, list[p].mode == list[target].mode { absorb(target, p) }
      if let n = list[target].next, list[n].mode == list[target].mode { absorb(target, n) }
      list[target].version += 1
      if seconds(target) < parameters.minimumActivitySeconds {
        heap.push(
          .init(
            seconds: seconds(target), position: list[target].range.lowerBound, run: target,
            version: list[target].version))
      }
    }
    var runs: [(mode: TransportMode, range: Range<Int>)] = []
    var k: Int? = list.firstIndex { $0.alive && $0.previous == nil }
    while let current = k {
      runs.append((list[current].mode, list[current].range))
      k = list[current].next
    }
    return runs.map { Activity(mode: $0.mode, steps: steps, range: $0.range) }
  }
}

/// A binary min-heap of short runs, by seconds and then by position (the
/// earliest of equally short runs first).
struct ShortRunHeap {
  struct Entry {
    var seconds: Double
    var position: Int
    var run: Int
    var version: Int

    func precedes(_ other: Entry) -> Bool {
      seconds != other.seconds ? seconds < other.seconds : position < other.position
    }
  }

  private var items: [Entry] = []

  mutating func push(_ entry: Entry) {
    items.append(entry)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].precedes(items[parent]) else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> Entry? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let top = items.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < items.count && items[left].precedes(items[first]) { first = left }
      if right < items.count && items[right].precedes(items[first]) { first = right }
      if first == parent { break }
      items.swapAt(parent, first)
      parent = first
    }
    return top
  }
}
