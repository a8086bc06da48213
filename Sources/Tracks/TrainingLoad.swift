import EnergyLabCore
import Foundation

/// Chronic and acute training load and training stress balance from
/// daily TSS (the Performance Manager of Coggan, after Banister et al.
/// 1975's impulse-response model):
///
/// ```
/// CTL_d = CTL_(d-1) + (TSS_d - CTL_(d-1)) / 42      (fitness, 42-day time constant)
/// ATL_d = ATL_(d-1) + (TSS_d - ATL_(d-1)) / 7       (fatigue, 7-day time constant)
/// TSB_d = CTL_(d-1) - ATL_(d-1)                      (form on the morning of day d)
/// ```
///
/// Both loads start at 0 the day before the first ride; a day without a
/// ride has TSS 0.
public struct TrainingLoad: Sendable, Hashable {
  public var chronicDays = 42.0
  public var acuteDays = 7.0

  public init() {}

  public struct Day: Sendable, Hashable {
    /// Days since 1970-01-01 in the stated time zone.
    public var day: Int
    public var tss: Double
    public var rides: Int
    public var ctl: Double
    public var atl: Double
    public var tsb: Double
  }

  /// The days from the first to the last of `tssByDay` (day number to the
  /// day's TSS and rides).
  public func days(_ tssByDay: [Int: (tss: Double, rides: Int)]) -> [Day] {
    guard let first = tssByDay.keys.min(), let last = tssByDay.keys.max() else { return [] }
    var ctl = 0.0
    var atl = 0.0
    var out: [Day] = []
    out.reserveCapacity(last - first + 1)
    for d in first...last {
      let today = tssByDay[d] ?? (0, 0)
      let tsb = ctl - atl
      ctl += (today.tss - ctl) / chronicDays
      atl += (today.tss - atl) / acuteDays
      out.append(Day(day: d, tss: today.tss, rides: today.rides, ctl: ctl, atl: atl, tsb: tsb))
    }
    return out
  }
}
