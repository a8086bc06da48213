import Foundation
import Testing

/// The checkout's root folder (Package.swift, Datasets/, Reports/), for
/// tests that read shipped data.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent()
  .deletingLastPathComponent().path

/// Expects `actual` closer than `tolerance` to `expected`, saying both,
/// the error and the tolerance when it is not.
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
    error < tolerance,
    "\(what()) \(actual) against \(expected): off by \(error), tolerance \(tolerance)",
    sourceLocation: sourceLocation)
}

/// The same for whole numbers (step counts, counts per epoch).
public func expectClose<T: BinaryInteger>(
  _ actual: T?, _ expected: T, tolerance: T, _ what: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let actual else {
    Issue.record("\(what()): no value; expected \(expected)", sourceLocation: sourceLocation)
    return
  }
  let error = actual > expected ? actual - expected : expected - actual
  #expect(
    error < tolerance,
    "\(what()) \(actual) against \(expected): off by \(error), tolerance \(tolerance)",
    sourceLocation: sourceLocation)
}
