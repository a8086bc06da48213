import EnergyLabCore
import Foundation
import FuzzSupport
import Ingest
import Tracks

/// Any bytes as a GPX or TCX file: the reader must return a track or throw
/// an `InputError`, never crash, hang or leak; whatever it reads must
/// summarise.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTracks(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(bytes: data, count: size)
  do {
    let track = try GPXReader().read(data: bytes, source: "fuzz.gpx")
    _ = TrackAnalysis().summary(of: track)
  } catch is InputError {
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  return 0
}

/// The entry point SwiftPM gives an executable target; it hands over to libFuzzer.
@_cdecl("FuzzTracks_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv) { fuzzTracks($0, $1) }
}
