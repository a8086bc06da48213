import EnergyLabCore
import Foundation

/// Receives the events of `XMLScanner`. Names are local names (prefix
/// removed) as raw bytes; text and attribute values are raw bytes with
/// entities not yet decoded (`XMLScanner.decode` does it when needed).
protocol XMLEventHandler {
  mutating func startElement(
    _ name: UnsafeBufferPointer<UInt8>,
    attributes: UnsafeBufferPointer<XMLAttribute>, line: Int, column: Int) throws
  mutating func endElement(_ name: UnsafeBufferPointer<UInt8>, line: Int, column: Int) throws
  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) throws
}

/// One attribute of a start tag: name and raw value (entities not decoded).
typealias XMLAttribute = (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)

/// Limits that keep a pathological file from using unbounded memory or time.
public struct XMLLimits: Sendable, Hashable {
  /// Deepest element nesting accepted.
  public var maximumDepth = 256
  /// Longest single token (tag, text run, comment) held in memory, bytes.
  public var maximumTokenBytes = 16 << 20
  public init() {}
}

/// A streaming, byte-level XML scanner: reads a file in chunks and reports
/// start tags, end tags and text, never building a tree, so memory stays
/// flat whatever the file size. It checks well-formedness as far as GPX and
/// TCX reading needs (matching tags, quoted attributes, closed comments and
/// CDATA) and reports problems as `file:line:column: what; expected what`.
struct XMLScanner {
  /// What a scan learns besides its events.
  struct Result {
    /// The encoding the XML declaration names, when it names one.
    var encoding: String?
    /// Bytes read.
    var bytesRead = 0
  }

  private static let commentOpen = Array("<!--".utf8)
  private static let commentClose = Array("-->".utf8)
  private static let cdataOpen = Array("<![CDATA[".utf8)
  private static let cdataClose = Array("]]>".utf8)
  private static let piOpen = Array("<?".utf8)
  private static let declarationOpen = Array("<!".utf8)
  private static let piClose = Array("?>".utf8)
  private static let tagClose = Array(">".utf8)

  let source: String
  let limits: XMLLimits
  /// Bytes per read.
  static let chunkSize = 1 << 20

  init(source: String, limits: XMLLimits = XMLLimits()) {
    self.source = source
    self.limits = limits
  }

  func fail(_ line: Int, _ column: Int, _ what: String, expected: String) -> InputError {
    InputError(.malformed, SourceLocation(file: source, line: line, column: column), what, expected: expected)
  }

  /// Whether any byte of `w` is one of the bytes a tag's end search stops
  /// at: line feed, '>', '"', '\'' or '<'.
  @inline(__always)
  static func hasAny(_ w: UInt64) -> Bool {
    @inline(__always) func zero(_ x: UInt64) -> UInt64 {
      (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }
    return zero(w ^ 0x0A0A_0A0A_0A0A_0A0A) | zero(w ^ 0x3E3E_3E3E_3E3E_3E3E) | zero(w ^ 0x2222_2222_2222_2222)
      | zero(w ^ 0x2727_2727_2727_2727) | zero(w ^ 0x3C3C_3C3C_3C3C_3C3C) != 0
  }

  /// Scans the file at `path`.
  @discardableResult
  func scan<H: XMLEventHandler>(path: String, handler: inout H) throws -> Result {
    // Plain read(2) into the scanner's own buffer: no intermediate copy.
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      throw InputError(
        .unreadable,
        SourceLocation(file: path), "cannot open file (\(String(cString: strerror(errno))))",
        expected: "a readable file")
    }
    defer { close(fd) }
    return try scan(fileDescriptor: fd, handler: &handler)
  }

  /// Scans what can be read from an open file descriptor (a file or a pipe).
  @discardableResult
  func scan<H: XMLEventHandler>(
    fileDescriptor fd: Int32, handler: inout H, tap: ((UnsafeRawBufferPointer) -> Void)? = nil
  ) throws -> Result {
    // A small file gets a small buffer: zeroing 2 MB for a 100 kB track
    // costs more than reading it.
    var info = stat()
    let size = fstat(fd, &info) == 0 ? Int(info.st_size) : Self.chunkSize
    var bytesRead = 0
    let encoding = try scan(
      chunk: min(Self.chunkSize, max(1 << 16, size + 1)),
      read: { buffer, capacity in
        var n: Int
        repeat { n = read(fd, buffer, capacity) } while n < 0 && errno == EINTR
        if n > 0 {
          bytesRead += n
          tap?(UnsafeRawBufferPointer(start: buffer, count: n))
        }
        return n
      }, handler: &handler)
    return Result(encoding: encoding, bytesRead: bytesRead)
  }

  /// Scans bytes in memory.
  @discardableResult
  func scan<H: XMLEventHandler>(data: Data, handler: inout H) throws -> Result {
    var offset = 0
    let encoding = try scan(
      read: { buffer, capacity in
        let n = min(capacity, data.count - offset)
        if n > 0 {
          data.copyBytes(to: buffer, from: data.startIndex + offset..<data.startIndex + offset + n)
          offset += n
        }
        return n
      }, handler: &handler)
    return Result(encoding: encoding, bytesRead: offset)
  }

  /// Scans what `read` gives; returns the encoding the declaration names.
  private func scan<H: XMLEventHandler>(
    chunk chunkSize: Int = XMLScanner.chunkSize, read: (UnsafeMutablePointer<UInt8>, Int) -> Int,
    handler: inout H
  ) throws -> String? {
    var declaredEncoding: String?
    var buffer = [UInt8](repeating: 0, count: chunkSize * 2)
    var filled = 0
    var start = 0  // first unconsumed byte
    var line = 1
    var sawRoot = false
    var atEnd = false
    var first = true

    // Line and column: lines are counted by scanning for newlines (memchr)
    // over consumed bytes; the column is the byte distance from the last
    // newline, kept as an offset into the buffer.
    var lineStart = 0  // buffer offset just after the last newline (may be negative after a shift)
    // Open qualified names, concatenated in the first `tagLength` bytes; the
    // array only grows, so opening and closing elements copy no more than
    // the name.
    var tagStack: [UInt8] = []
    var tagLength = 0
    // How many elements are open; entry d of `tagEnds` is where the d-th
    // open name ends in tagStack (entry 0 is 0), entry d of `tagLocals` the
    // offset of its local part (after the prefix). They only grow, so
    // closing an element never shrinks them.
    var depth = 0
    var tagEnds = [Int](repeating: 0, count: 64)
    var tagLocals = [Int](repeating: 0, count: 64)
    // The current tag's attributes, in storage kept for the whole scan (no
    // array to make unique or retain at every tag).
    var attributeCapacity = 8
    var attributeStorage = UnsafeMutablePointer<XMLAttribute>.allocate(capacity: attributeCapacity)
    defer { attributeStorage.deallocate() }
    var attributeCount = 0
    func addAttribute(_ attribute: XMLAttribute) {
      if attributeCount == attributeCapacity {
        let larger = UnsafeMutablePointer<XMLAttribute>.allocate(capacity: attributeCapacity * 2)
        larger.moveInitialize(from: attributeStorage, count: attributeCount)
        attributeStorage.deallocate()
        attributeStorage = larger
        attributeCapacity *= 2
      }
      (attributeStorage + attributeCount).initialize(to: attribute)
      attributeCount += 1
    }
    func push(_ qualified: UnsafeBufferPointer<UInt8>, local: Int) {
      let n = qualified.count
      if tagLength + n > tagStack.count {
        tagStack.append(contentsOf: repeatElement(0, count: max(tagLength + n - tagStack.count, 256)))
      }
      let at = tagLength
      tagStack.withUnsafeMutableBufferPointer { b in
        for j in 0..<n { b[at + j] = qualified[j] }
      }
      tagLength += n
      depth += 1
      if depth == tagEnds.count {
        tagEnds.append(contentsOf: repeatElement(0, count: depth))
        tagLocals.append(contentsOf: repeatElement(0, count: depth))
      }
      tagEnds[depth] = tagLength
      tagLocals[depth] = local
    }
    func advance(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) {
      guard to > from, let base = bytes.baseAddress else { return }
      if to - from < 64 {
        // Short runs (the indentation between tags): a loop beats a call.
        for k in from..<to where base[k] == 0x0A {
          line += 1
          lineStart = k + 1
        }
        return
      }
      var p = base + from
      let end = base + to
      while p < end, let hit = memchr(p, 0x0A, end - p) {
        let q = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
        line += 1
        lineStart = q - base + 1
        p = q + 1
      }
    }
    func columnAt(_ offset: Int) -> Int { offset - lineStart + 1 }

    while true {
      // Refill: move the unconsumed tail to the front and read more.
      if !atEnd {
        if start > 0 {
          buffer.withUnsafeMutableBufferPointer { b in
            if filled > start, let base = b.baseAddress {
              base.update(from: base + start, count: filled - start)
            }
          }
          filled -= start
          lineStart -= start
          start = 0
        }
        if buffer.count - filled < chunkSize {
          guard buffer.count < limits.maximumTokenBytes + chunkSize * 2 else {
            throw fail(
              line, columnAt(filled), "a token longer than \(limits.maximumTokenBytes >> 20) MB",
              expected: "tags and text runs under the limit")
          }
          buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count))
        }
        let n = buffer.withUnsafeMutableBufferPointer { b in
          b.baseAddress.map { read($0 + filled, b.count - filled) } ?? 0
        }
        if n < 0 { throw fail(line, columnAt(filled), "read error", expected: "a readable file") }
        if n == 0 { atEnd = true }
        filled += n
        if first {
          first = false
          if filled >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { start = 3 }
          if filled >= 2
            && ((buffer[0] == 0xFE && buffer[1] == 0xFF) || (buffer[0] == 0xFF && buffer[1] == 0xFE))
          {
            throw fail(1, 1, "UTF-16 text", expected: "UTF-8 (re-save the file as UTF-8)")
          }
        }
      }
      // Consume as many complete tokens as the buffer holds.
      let needMore: Bool = try buffer.withUnsafeBufferPointer { all in
        let bytes = UnsafeBufferPointer(rebasing: all[0..<filled])
        // Nothing read yet (an empty buffer has no address): read on.
        guard let base = bytes.baseAddress else {
          start = filled
          return !atEnd
        }
        var i = start
        while i < filled {
          if bytes[i] != 0x3C {  // text up to the next '<'
            var j = filled
            if let hit = memchr(base + i, 0x3C, filled - i) {
              j = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
            }
            if j == filled && !atEnd { start = i; return true }
            if depth > 0 {
              try handler.text(UnsafeBufferPointer(rebasing: bytes[i..<j]))
            } else {
              // Outside the root only white space may stand.
              for k in i..<j
              where !(bytes[k] == 0x20 || bytes[k] == 0x0A || bytes[k] == 0x0D || bytes[k] == 0x09) {
                advance(bytes, from: i, to: k)
                throw fail(
                  line, columnAt(k),
                  sawRoot ? "text after the root element" : "not XML (text before any tag)",
                  expected: sawRoot ? "end of file" : "a document starting with <?xml or <gpx")
              }
            }
            advance(bytes, from: i, to: j)
            i = j
            continue
          }
          // A markup token: find its end.
          func find(_ pattern: [UInt8], from: Int) -> Int? {
            var k = from
            outer: while k + pattern.count <= filled {
              for (o, p) in pattern.enumerated() where bytes[k + o] != p {
                k += 1
                continue outer
              }
              return k
            }
            return nil
          }
          func startsWith(_ pattern: [UInt8]) -> Bool {
            i + pattern.count <= filled && pattern.indices.allSatisfy { bytes[i + $0] == pattern[$0] }
          }
          // Comments, CDATA, declarations and processing instructions all
          // start with "<!" or "<?"; a plain tag skips their checks.
          let second = i + 1 < filled ? bytes[i + 1] : 0
          if second == 0x21 || second == 0x3F {
            if startsWith(Self.commentOpen) {
              guard let e = find(Self.commentClose, from: i + 4) else {
                if !atEnd { start = i; return true }
                throw fail(line, columnAt(i), "comment not closed", expected: "-->")
              }
              advance(bytes, from: i, to: e + 3)
              i = e + 3
              continue
            }
            if startsWith(Self.cdataOpen) {
              guard let e = find(Self.cdataClose, from: i + 9) else {
                if !atEnd { start = i; return true }
                throw fail(line, columnAt(i), "CDATA section not closed", expected: "]]>")
              }
              if depth > 0 { try handler.text(UnsafeBufferPointer(rebasing: bytes[(i + 9)..<e])) }
              advance(bytes, from: i, to: e + 3)
              i = e + 3
              continue
            }
            if startsWith(Self.piOpen) || startsWith(Self.declarationOpen) {
              let close: [UInt8] = bytes[i + 1] == 0x3F ? Self.piClose : Self.tagClose
              guard let e = find(close, from: i + 2) else {
                if !atEnd { start = i; return true }
                throw fail(
                  line, columnAt(i), "declaration not closed",
                  expected: String(decoding: close, as: UTF8.self))
              }
              if bytes[i + 1] == 0x3F {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<e]), as: UTF8.self)
                if text.hasPrefix("<?xml"),
                  let range = text.range(of: "encoding\\s*=\\s*[\"']([^\"']+)", options: .regularExpression)
                {
                  declaredEncoding = String(
                    text[range].split(whereSeparator: { $0 == "\"" || $0 == "'" }).last ?? "")
                }
              }
              advance(bytes, from: i, to: e + close.count)
              i = e + close.count
              continue
            }
          }
          // Fast paths for the commonest tags, which need no search for the
          // tag's end: an end tag spelling the open element's name then '>',
          // and a start tag without attributes. A name holding a quote (the
          // general path lets one through) is left to the general path,
          // where the quote opens a value.
          if second == 0x2F, depth > 0 {
            let lastEnd = tagEnds[depth]
            let openStart = tagEnds[depth - 1]
            let n = lastEnd - openStart
            let close = i + 2 + n
            if close < filled && bytes[close] == 0x3E
              && tagStack.withUnsafeBufferPointer({ open in
                for j in 0..<n {
                  let b = bytes[i + 2 + j]
                  if open[openStart + j] != b || b == 0x22 || b == 0x27 { return false }
                }
                return true
              })
            {
              let local = UnsafeBufferPointer(rebasing: bytes[(i + 2 + tagLocals[depth])..<close])
              tagLength = openStart
              depth -= 1
              try handler.endElement(local, line: line, column: columnAt(i))
              i = close + 1
              continue
            }
          } else if second != 0x2F {
            var p = i + 1
            var localStart = p
            while p < filled {
              let b = bytes[p]
              if b > 0x3E { p += 1; continue }
              if b == 0x3A {
                p += 1
                localStart = p
                continue
              }
              if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x2F || b == 0x3E || b == 0x3C
                || b == 0x22 || b == 0x27
              {
                break
              }
              p += 1
            }
            if p > i + 1 && p < filled && bytes[p] == 0x3E && (!sawRoot || depth > 0)
              && depth < limits.maximumDepth
            {
              sawRoot = true
              let column = columnAt(i)
              try handler.startElement(
                UnsafeBufferPointer(rebasing: bytes[localStart..<p]),
                attributes: UnsafeBufferPointer(start: attributeStorage, count: 0), line: line, column: column
              )
              push(UnsafeBufferPointer(rebasing: bytes[(i + 1)..<p]), local: localStart - i - 1)
              i = p + 1
              continue
            }
          }
          // Start or end tag, general case. One pass over the tag: its '>'
          // outside quotes, and the line breaks inside it (counted here, not
          // searched for again).
          var k = i + 1
          var quote: UInt8 = 0
          var breaks = 0
          var lastBreak = 0
          let raw = UnsafeRawPointer(base)
          while k < filled {
            // Eight ordinary bytes at a time: none of '\n', '>', '"', '\'',
            // '<' (the has-zero-byte test on each pattern).
            while k + 8 <= filled {
              let w = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
              if Self.hasAny(w) { break }
              k += 8
            }
            guard k < filled else { break }
            let b = bytes[k]
            if b == 0x0A {
              breaks += 1
              lastBreak = k
            } else if quote != 0 {
              if b == quote { quote = 0 }
            } else if b == 0x3E {
              break
            } else if b == 0x22 || b == 0x27 {
              quote = b
            } else if b == 0x3C {
              throw fail(line, columnAt(i), "'<' inside a tag", expected: "'>' closing the tag")
            }
            k += 1
          }
          if k >= filled {
            if !atEnd { start = i; return true }
            throw fail(line, columnAt(i), "file ends inside a tag", expected: "'>'")
          }
          let tagLine = line
          let tagColumn = columnAt(i)
          let isEnd = bytes[i + 1] == 0x2F
          let selfClosing = bytes[k - 1] == 0x2F && !isEnd
          var p = i + (isEnd ? 2 : 1)
          let nameStart = p
          var localStart = p
          while p < k {
            let b = bytes[p]
            if b > 0x3E {
              p += 1
              continue
            }
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x2F || b == 0x3E { break }
            p += 1
            if b == 0x3A { localStart = p }
          }
          guard p > nameStart else {
            throw fail(tagLine, tagColumn, "tag without a name", expected: "<name ...>")
          }
          let qualified = UnsafeBufferPointer(rebasing: bytes[nameStart..<p])
          let local = UnsafeBufferPointer(rebasing: bytes[localStart..<p])
          if isEnd {
            guard depth > 0 else {
              throw fail(
                tagLine, tagColumn,
                "closing tag </\(String(decoding: qualified, as: UTF8.self))> without an open element",
                expected: "a matching start tag")
            }
            let lastEnd = tagEnds[depth]
            let openStart = tagEnds[depth - 1]
            let matches =
              lastEnd - openStart == qualified.count
              && tagStack.withUnsafeBufferPointer { open in
                // Names are short: a loop, not a library call.
                for j in 0..<qualified.count where open[openStart + j] != qualified[j] { return false }
                return true
              }
            guard matches else {
              let open = Array(tagStack[openStart..<lastEnd])
              throw fail(
                tagLine, tagColumn,
                "closing tag </\(String(decoding: qualified, as: UTF8.self))> does not match <\(String(decoding: open, as: UTF8.self))>",
                expected: "</\(String(decoding: open, as: UTF8.self))>")
            }
            tagLength = openStart
            depth -= 1
            try handler.endElement(local, line: tagLine, column: tagColumn)
          } else {
            if sawRoot && depth == 0 {
              throw fail(tagLine, tagColumn, "a second root element", expected: "one root element")
            }
            sawRoot = true
            // Attributes: name = "value" or 'value', any spacing.
            attributeCount = 0
            let end = selfClosing ? k - 1 : k
            while true {
              while p < end && (bytes[p] == 0x20 || bytes[p] == 0x0A || bytes[p] == 0x0D || bytes[p] == 0x09)
              { p += 1 }
              if p >= end { break }
              let an = p
              while p < end && bytes[p] != 0x3D
                && !(bytes[p] == 0x20 || bytes[p] == 0x0A || bytes[p] == 0x0D || bytes[p] == 0x09)
              { p += 1 }
              let attributeName = UnsafeBufferPointer(rebasing: bytes[an..<p])
              while p < end && (bytes[p] == 0x20 || bytes[p] == 0x0A || bytes[p] == 0x0D || bytes[p] == 0x09)
              { p += 1 }
              guard p < end, bytes[p] == 0x3D else {
                throw fail(
                  tagLine, tagColumn,
                  "attribute \(String(decoding: attributeName, as: UTF8.self)) without a value",
                  expected: "name=\"value\"")
              }
              p += 1
              while p < end && (bytes[p] == 0x20 || bytes[p] == 0x0A || bytes[p] == 0x0D || bytes[p] == 0x09)
              { p += 1 }
              guard p < end, bytes[p] == 0x22 || bytes[p] == 0x27 else {
                throw fail(
                  tagLine, tagColumn,
                  "unquoted value of attribute \(String(decoding: attributeName, as: UTF8.self))",
                  expected: "a quoted value")
              }
              let q = bytes[p]
              p += 1
              let vs = p
              while p < end && bytes[p] != q { p += 1 }
              guard p < end else {
                throw fail(tagLine, tagColumn, "attribute value not closed", expected: "a closing quote")
              }
              addAttribute((attributeName, UnsafeBufferPointer(rebasing: bytes[vs..<p])))
              p += 1
            }
            try handler.startElement(
              local, attributes: UnsafeBufferPointer(start: attributeStorage, count: attributeCount),
              line: tagLine,
              column: tagColumn)
            if selfClosing {
              try handler.endElement(local, line: tagLine, column: tagColumn)
            } else {
              guard depth < limits.maximumDepth else {
                throw fail(
                  tagLine, tagColumn, "elements nested deeper than \(limits.maximumDepth)",
                  expected: "a shallower document")
              }
              push(qualified, local: localStart - nameStart)
            }
          }
          if breaks > 0 {
            line += breaks
            lineStart = lastBreak + 1
          }
          i = k + 1
        }
        start = filled
        return !atEnd
      }
      if !needMore && atEnd { break }
      if atEnd && start >= filled { break }
    }
    if !sawRoot { throw fail(1, 1, "no element in the file", expected: "an XML document") }
    if depth > 0 {
      let lastEnd = tagEnds[depth]
      let openStart = tagEnds[depth - 1]
      let name = String(decoding: tagStack[openStart..<lastEnd], as: UTF8.self)
      throw fail(line, columnAt(filled), "file ends inside <\(name)>", expected: "</\(name)>")
    }
    return declaredEncoding
  }

  /// Decodes the five predefined entities and numeric references.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.contains(0x26) else { return String(decoding: bytes, as: UTF8.self) }
    var text = String(decoding: bytes, as: UTF8.self)
    for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'")] {
      text = text.replacingOccurrences(of: entity, with: value)
    }
    while let range = text.range(of: "&#[0-9]+;|&#x[0-9a-fA-F]+;", options: .regularExpression) {
      let body = text[range].dropFirst(2).dropLast()
      let code = body.first == "x" ? UInt32(body.dropFirst(), radix: 16) : UInt32(body)
      text.replaceSubrange(range, with: code.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "")
    }
    return text.replacingOccurrences(of: "&amp;", with: "&")
  }
}

/// The text of the element being read, gathered across runs (comments or
/// CDATA may split it). A plain growable byte buffer: appending the few
/// bytes of a value is a copy, with no copy-on-write check.
final class TextBuffer {
  private var storage: UnsafeMutablePointer<UInt8>
  private var capacity = 64
  private(set) var count = 0

  init() { storage = .allocate(capacity: capacity) }
  deinit { storage.deallocate() }

  @inline(__always) func removeAll() { count = 0 }

  @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    if count + bytes.count > capacity {
      var grown = capacity * 2
      while grown < count + bytes.count { grown *= 2 }
      let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
      larger.update(from: storage, count: count)
      storage.deallocate()
      storage = larger
      capacity = grown
    }
    let target = storage + count
    if bytes.count <= 32 {
      // A value's few bytes: a loop, not a library call.
      for k in 0..<bytes.count { target[k] = base[k] }
    } else {
      target.update(from: base, count: bytes.count)
    }
    count += bytes.count
  }

  @inline(__always) func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows
    -> R
  {
    try body(UnsafeBufferPointer(start: storage, count: count))
  }

  /// The first `n` bytes as text, for messages.
  func prefixText(_ n: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: storage, count: min(n, count)), as: UTF8.self)
  }
}

extension UnsafeBufferPointer where Element == UInt8 {
  /// Whether the bytes spell `name` (ASCII).
  @inline(__always) func equals(_ name: StaticString) -> Bool {
    guard count == name.utf8CodeUnitCount else { return false }
    let p = name.utf8Start
    for i in 0..<count where self[i] != p[i] { return false }
    return true
  }
}
