import Foundation

/// Bouts by GGIR's bout rule (the one rule of GGIR 3's `g.getbout`,
/// formerly its default `bout.metric = 6`), written from its documented
/// definition and checked against GGIR's own function run in R
/// (`scripts/oracles/ggir-bouts.R`):
///
/// ```
/// m = epochs per minute, D = epochs per bout, c = share (0.8 for MVPA)
/// 1. a break longer than a minute: an epoch whose centred window of
///    m + 1 epochs holds no epoch meeting the criterion (outside the
///    recording counts as not meeting it) weighs -D, so no bout spans it;
///    every other epoch weighs 1 (meets) or 0 (does not)
/// 2. a bout window: D epochs centred on an epoch (for even D the centre
///    is the (D/2)-th), outside the recording weighing -D, whose mean
///    weight is at least c
/// 3. consecutive centres of bout windows make one bout; it starts at the
///    first epoch meeting the criterion from floor(D/2) epochs before the
///    first centre on and ends at the last one meeting it up to floor(D/2)
///    epochs after the last centre (an epoch already in a bout is skipped
///    in this search, as GGIR marks them as it goes)
/// 4. every epoch from a bout's start to its end is bout time, its
///    breaks of a minute or less included
/// ```
///
/// So a bout starts and ends with an epoch meeting the criterion, holds
/// no break longer than a minute, and an isolated run shorter than the
/// bout length is no bout (an 8-minute run is not a 10-minute bout; nor
/// are two 5-minute runs with a 2-minute break between them).
///
/// Migueles et al. 2019 (J Meas Phys Behav 2(3):188-196) describe GGIR;
/// the rule is that of its R function `g.getbout` (version 3).
public enum GGIRBouts {
  /// Which epochs are bout time.
  ///
  /// - Parameters:
  ///   - meets: whether each consecutive epoch meets the criterion
  ///     (MVPA, or sedentary for sedentary bouts).
  ///   - epochsPerMinute: 60 / epoch length in seconds (GGIR's 60/ws3),
  ///     at least 1.
  ///   - boutEpochs: the bout length in epochs, at least 1.
  ///   - share: the share of a bout window that must meet it (0-1].
  public static func mark(_ meets: [Bool], epochsPerMinute: Int, boutEpochs: Int, share: Double) -> [Bool] {
    let n = meets.count
    guard n > 0, boutEpochs >= 1 else { return [Bool](repeating: false, count: n) }
    let m = max(1, epochsPerMinute)
    let d = boutEpochs
    // 1. Weights; long breaks weigh -D.
    let breakLeft = m / 2
    let breakRight = m - breakLeft
    var metPrefix = [Int](repeating: 0, count: n + 1)
    for i in 0..<n { metPrefix[i + 1] = metPrefix[i] + (meets[i] ? 1 : 0) }
    func metCount(_ low: Int, _ high: Int) -> Int {
      let lo = max(0, low)
      let hi = min(n - 1, high)
      return hi < lo ? 0 : metPrefix[hi + 1] - metPrefix[lo]
    }
    var weight = [Int](repeating: 0, count: n)
    for i in 0..<n {
      if meets[i] {
        weight[i] = 1
      } else if metCount(i - breakLeft, i + breakRight) == 0 {
        weight[i] = -d
      }
    }
    // 2. Centres of windows of D epochs whose mean weight reaches the share.
    let left = (d - 1) / 2
    let right = d - 1 - left
    var weightPrefix = [Int](repeating: 0, count: n + 1)
    for i in 0..<n { weightPrefix[i + 1] = weightPrefix[i] + weight[i] }
    var centres: [Int] = []
    for i in 0..<n {
      let lo = i - left
      let hi = i + right
      let outside = max(0, -lo) + max(0, hi - (n - 1))
      let sum = weightPrefix[min(n - 1, hi) + 1] - weightPrefix[max(0, lo)] - outside * d
      if Double(sum) / Double(d) >= share { centres.append(i) }
    }
    // 3-4. Runs of centres; each run's bout from its first to its last
    // epoch meeting the criterion.
    var inBout = [Bool](repeating: false, count: n)
    let half = d / 2
    var r = 0
    while r < centres.count {
      var s = r
      while s + 1 < centres.count, centres[s + 1] == centres[s] + 1 { s += 1 }
      let first = centres[r]
      let last = centres[s]
      var start = max(0, first - half)
      while start < n, !(meets[start] && !inBout[start]) { start += 1 }
      var end = min(n - 1, last + half)
      while end >= 0, !(meets[end] && !inBout[end]) { end -= 1 }
      if start <= end { for i in start...end { inBout[i] = true } }
      r = s + 1
    }
    return inBout
  }
}
