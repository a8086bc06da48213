import EnergyLabCore
import Testing

@testable import Tracks

/// The track cleaner holds path fixes until their neighbours decide them;
/// the fixes without a position between them must keep their place.
struct TrackCleanerOrderTests {
  /// Ten track fixes 10 m apart, 1 s apart, with a time-only record after
  /// the 2nd, 5th and 9th, and the 6th 1,000 km off (needs 10^6 m/s both
  /// ways: an impossible fix). Out: every fix but the 6th, in file order;
  /// before, a time-only record came out ahead of the track fixes still
  /// held, so elevation and power were read out of order.
  @Test func timeOnlyFixesKeepTheirPlace() {
    var input: [TrackPoint] = []
    var line = 0
    for k in 0..<10 {
      line += 1
      let latitude = k == 5 ? 59.0 : 50 + 0.00009 * Double(k)
      input.append(
        TrackPoint(
          latitudeDegrees: latitude, longitudeDegrees: 0, elevationMeters: Double(k),
          timeSecondsSince1970: Double(k), sourceLine: line))
      if [1, 4, 8].contains(k) {
        line += 1
        input.append(
          TrackPoint(
            latitudeDegrees: .nan, longitudeDegrees: .nan, timeSecondsSince1970: Double(k) + 0.5,
            sourceLine: line, kind: .timeOnly))
      }
    }
    var cleaner = TrackCleaner(parameters: CleaningParameters())
    var out: [Int] = []
    for p in input { cleaner.add(p) { out.append($0.sourceLine) } }
    cleaner.finish { out.append($0.sourceLine) }
    let spikeLine = input.first { $0.latitudeDegrees == 59 }!.sourceLine
    #expect(out == input.map(\.sourceLine).filter { $0 != spikeLine })
    #expect(cleaner.dropped["impossible"] == 1)
  }
}
