@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Hands a fuzz target's entry point over to libFuzzer.
public func runFuzzer(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt {
  var count = argc
  var arguments = argv
  return runFuzzerDriver(&count, &arguments, callback)
}

@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// Numbers that break arithmetic on a header value that is trusted: the
/// largest and smallest integers, values whose product with a page or
/// sample count overflows, signs where none belong, infinities, NaN, 0,
/// and years no device writes. (The GENEActiv `Number of Pages` of
/// 2^63 - 1 and a page year of 999999999999999 crashed the reader.)
public let hostileHeaderValues = [
  "9223372036854775807", "-9223372036854775808", "30744573456182585", "99999999999999999999", "-1", "0",
  "1e308", "-1e308", "1e-300", "inf", "-inf", "nan", "+-99999999999999999", "4294967295", "65535",
  "999999999999999-05-30 10:12:54:500", "-999999999999999-05-30 10:12:54:500", "GMT +99:99",
]

/// libFuzzer's custom mutator shared by the readers of files with
/// headers: half the time libFuzzer's own mutation, else one header field
/// set to a hostile value. In text (`key:value` or `key,value` lines, as
/// GENEActiv, E4 and ActiGraph CSV headers), one line's value is replaced
/// by one of `hostileHeaderValues`; in binary (CWA, FIT), an integer of
/// 1, 2, 4 or 8 bytes in the first 4 KiB is set to 0, the largest or the
/// smallest signed or unsigned value, and a CWA block's checksum is made
/// to hold again so the reader looks past it.
public func mutateHeaderField(
  _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32
) -> Int {
  var random = SplitMix(seed: UInt64(seed))
  if size == 0 || random.next() % 2 == 0 { return libFuzzerMutate(data, size, maxSize) }
  let bytes = UnsafeMutableBufferPointer(start: data, count: size)
  let probe = bytes.prefix(256)
  let printable = probe.filter { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || (0x20..<0x7F).contains($0) }.count
  if printable * 10 >= probe.count * 9 {
    return replaceTextValue(bytes, maxSize, &random)
  }
  setBinaryInteger(bytes, &random)
  return size
}

/// Replaces the value of one `key:value` (or `key,value`) line in the
/// first 64 KiB; the size changes, within `maxSize`.
func replaceTextValue(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ maxSize: Int, _ random: inout SplitMix)
  -> Int
{
  let limit = min(bytes.count, 1 << 16)
  var fields: [(valueStart: Int, lineEnd: Int)] = []
  var lineStart = 0
  for i in 0...limit where i == limit || bytes[i] == 0x0A {
    var end = i
    if end > lineStart && bytes[end - 1] == 0x0D { end -= 1 }
    if let separator = (lineStart..<end).first(where: { bytes[$0] == 0x3A || bytes[$0] == 0x2C }) {
      fields.append((separator + 1, end))
    }
    lineStart = i + 1
  }
  guard !fields.isEmpty else { return bytes.count }
  let field = fields[Int(random.next() % UInt64(fields.count))]
  let value = Array(hostileHeaderValues[Int(random.next() % UInt64(hostileHeaderValues.count))].utf8)
  let tail = Array(bytes[field.lineEnd...])
  let newSize = field.valueStart + value.count + tail.count
  guard newSize <= maxSize else { return bytes.count }
  // The buffer holds maxSize bytes; write past the old size as libFuzzer allows.
  let out = UnsafeMutableBufferPointer(start: bytes.baseAddress!, count: maxSize)
  for (k, b) in value.enumerated() { out[field.valueStart + k] = b }
  for (k, b) in tail.enumerated() { out[field.valueStart + value.count + k] = b }
  return newSize
}

/// Sets a 1, 2, 4 or 8-byte little-endian integer in the first 4 KiB to an
/// extreme; in a CWA file, fixes the checksum of the block it lands in.
func setBinaryInteger(_ bytes: UnsafeMutableBufferPointer<UInt8>, _ random: inout SplitMix) {
  let width = [1, 2, 4, 8][Int(random.next() % 4)]
  guard bytes.count >= width else { return }
  let at = Int(random.next() % UInt64(min(bytes.count, 4096) - width + 1))
  let extremes: [UInt64] = [0, .max, UInt64(Int64.max), UInt64(bitPattern: Int64.min)]
  var value = extremes[Int(random.next() % UInt64(extremes.count))]
  if width < 8 && value == UInt64(Int64.max) { value = (1 << UInt64(width * 8 - 1)) - 1 }
  if width < 8 && value == UInt64(bitPattern: Int64.min) { value = 1 << UInt64(width * 8 - 1) }
  for k in 0..<width { bytes[at + k] = UInt8(truncatingIfNeeded: value >> UInt64(8 * k)) }
  // CWA: "MD" header of 1024 bytes, then 512-byte "AX" blocks whose 16-bit
  // words sum to 0; the last word is the checksum.
  if bytes.count >= 1024 + 512, bytes[0] == 0x4D, bytes[1] == 0x44, at >= 1024 {
    let block = 1024 + (at - 1024) / 512 * 512
    guard block + 512 <= bytes.count else { return }
    var sum = 0
    for i in stride(from: block, to: block + 510, by: 2) { sum &+= Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
    let checksum = (0x10000 - (sum & 0xFFFF)) & 0xFFFF
    bytes[block + 510] = UInt8(checksum & 0xFF)
    bytes[block + 511] = UInt8(checksum >> 8)
  }
}

/// A small deterministic generator (SplitMix64), so a seed replays its mutation.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
