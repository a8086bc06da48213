import EnergyLabCore
import Foundation
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

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The entry point SwiftPM gives an executable target; it hands over to libFuzzer.
@_cdecl("FuzzTracks_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runFuzzer(&count, &arguments) { data, size in fuzzTracks(data, size) }
}
