import EnergyLabCore
import Foundation
import FuzzSupport
import Ingest

/// The file each input is written to: the device readers read a path (they
/// seek, as a GT3X's ZIP directory needs).
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
  "energylab-fuzz-device-\(ProcessInfo.processInfo.processIdentifier)"
).path

/// Any bytes as each research-device format (Axivity CWA, GENEActiv .bin,
/// ActiGraph .gt3x, idle sleep left as gaps and filled): each reader must
/// pass on whole rows with increasing times or throw an `InputError`,
/// never crash, hang or leak. Detection by content must not crash either.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(bytes: data, count: size)
  _ = DeviceFileFormat.detect(head: [UInt8](bytes.prefix(32)))
  guard FileManager.default.createFile(atPath: scratch, contents: bytes) else {
    fatalError("cannot write \(scratch)")
  }
  let cases: [(DeviceFileFormat, Bool)] = [
    (.axivityCWA, false), (.geneactivBin, false), (.actigraphGT3X, false), (.actigraphGT3X, true),
  ]
  for (format, fill) in cases {
    var last = -Double.infinity
    do {
      _ = try DeviceFileReader.read(
        path: scratch, format: format, options: DeviceReadOptions(fillIdleSleep: fill)
      ) { block in
        precondition(block.values.count == block.time.count * 3, "a block's rows are not whole")
        for t in block.time {
          precondition(t > last, "times do not increase")
          last = t
        }
      }
    } catch is InputError {
    } catch {
      fatalError("unexpected error type: \(error)")
    }
  }
  return 0
}

/// The entry point SwiftPM gives an executable target; it hands over to libFuzzer.
@_cdecl("FuzzDeviceFiles_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv) { fuzzDeviceFiles($0, $1) }
}

/// Header-field mutations besides libFuzzer's own (FuzzSupport).
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(
  _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt
) -> Int {
  mutateHeaderField(data, size, maxSize, seed)
}
