import EnergyLabCore
import Foundation

/// Reads a track file of any format EnergyLab knows, chosen by its content
/// rather than its name: FIT when bytes 8-11 read `.FIT`, else GPX or TCX
/// (told apart by their root element).
public struct TrackFileReader: Sendable {
  public var gpx: GPXReader
  public var fit: FITReader

  public init(gpx: GPXReader = GPXReader(), fit: FITReader = FITReader()) {
    self.gpx = gpx
    self.fit = fit
  }

  /// Streams the fixes of the file at `path` (`-` is standard input, read as
  /// GPX or TCX) to `onPoint`, in file order.
  @discardableResult
  public func stream(path: String, onPoint: @escaping (TrackPoint) throws -> Void) throws -> TrackHeader {
    if FITFileHeader.isFIT(path: path) { return try fit.stream(path: path, onPoint: onPoint) }
    return try gpx.stream(path: path, onPoint: onPoint)
  }

  /// Reads a whole file into a `Track`.
  public func read(path: String) throws -> Track {
    if FITFileHeader.isFIT(path: path) { return try fit.read(path: path) }
    return try gpx.read(path: path)
  }
}
