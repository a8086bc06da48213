/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF), checked in place.
enum UTF8Validation {
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    let n = bytes.count
    while i < n {
      let lead = bytes[i]
      if lead < 0x80 {
        i += 1
        continue
      }
      let length: Int
      var scalar: UInt32
      let lowest: UInt32
      switch lead {
      case 0xC0...0xDF: (length, scalar, lowest) = (2, UInt32(lead & 0x1F), 0x80)
      case 0xE0...0xEF: (length, scalar, lowest) = (3, UInt32(lead & 0x0F), 0x800)
      case 0xF0...0xF7: (length, scalar, lowest) = (4, UInt32(lead & 0x07), 0x10000)
      default: return false
      }
      guard i + length <= n else { return false }
      for k in 1..<length {
        let next = bytes[i + k]
        guard next & 0xC0 == 0x80 else { return false }
        scalar = scalar << 6 | UInt32(next & 0x3F)
      }
      guard scalar >= lowest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
      i += length
    }
    return true
  }
}
