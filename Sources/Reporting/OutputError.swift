import EnergyLabCore

/// An output that could not be written: a file (disk full, no permission,
/// a folder in the way) or a chart gnuplot could not draw. It names the
/// path or chart and the system's reason.
package struct OutputError: ReportedError, Sendable, Hashable {
  package enum Kind: String, Sendable, Hashable {
    case file
    case chart
  }

  package var kind: Kind
  /// The file's path, or the chart's file stem.
  package var target: String
  package var reason: String

  package init(_ kind: Kind, _ target: String, reason: String) {
    self.kind = kind
    self.target = target
    self.reason = reason
  }

  package var description: String {
    switch kind {
    case .file: "\(target): cannot write file (\(reason))"
    case .chart: "chart \(target): \(reason)"
    }
  }
}
