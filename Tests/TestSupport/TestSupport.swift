import Foundation
import Testing

/// The checkout's root folder (Package.swift, Datasets/, Reports/), for
/// tests that read shipped data.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent()
  .deletingLastPathComponent().path

/// Expects `actual` within `tolerance` of `expected`, saying both and the
/// error when it is not.
public func expectClose(
  _ actual: Double?, _ expected: Double, tolerance: Double, _ what: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let actual else {
    Issue.record("\(what()): no value; expected \(expected)", sourceLocation: sourceLocation)
    return
  }
  let error = abs(actual - expected)
  #expect(
    error <= tolerance,
    "\(what()) \(actual) against \(expected): off by \(error), tolerance \(tolerance)",
    sourceLocation: sourceLocation)
}
