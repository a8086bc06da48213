import Foundation
import Testing

/// The checkout's root folder (Package.swift, Datasets/, Reports/), for
/// tests that read shipped data.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent()
  .deletingLastPathComponent().path

/// `actual`, or nil after recording that there is no value.
private func present(_ actual: Double?, _ expected: Double, _ what: String, _ location: SourceLocation)
  -> Double?
{
  if actual == nil { Issue.record("\(what): no value; expected \(expected)", sourceLocation: location) }
  return actual
}

/// Expects `actual` closer than `tolerance` to `expected`, saying both,
/// the error and the tolerance when it is not.
public func expectClose(
  _ actual: Double?, _ expected: Double, tolerance: Double, _ what: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let actual = present(actual, expected, what(), sourceLocation) else { return }
  let error = abs(actual - expected)
  #expect(
    error < tolerance,
    "\(what()) \(actual) against \(expected): off by \(error), tolerance \(tolerance)",
    sourceLocation: sourceLocation)
}

/// Expects `actual` within `relative` of `expected` as a share of
/// `expected`'s size (1e-9: nine significant digits), for values whose
/// scale varies (a 1e-9 absolute tolerance means nothing at 1e6 kcal and
/// too much at 1e-12); `expected` 0 asks for `actual` exactly 0.
public func expectClose(
  _ actual: Double?, _ expected: Double, relative: Double, _ what: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let actual = present(actual, expected, what(), sourceLocation) else { return }
  let error = abs(actual - expected)
  #expect(
    expected == 0 ? actual == 0 : error <= relative * abs(expected),
    "\(what()) \(actual) against \(expected): off by \(error) (\(error / abs(expected)) of it), relative tolerance \(relative)",
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
