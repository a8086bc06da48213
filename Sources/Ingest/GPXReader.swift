import EnergyLabCore
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads GPX 1.0 and 1.1 files (track points, route points and waypoints)
/// into a `Track`, with the SAX parser of Foundation (libxml2 underneath):
/// the document is streamed, never held as a tree.
///
/// Read: `lat`/`lon` attributes, `<ele>`, `<time>` and heart rate from
/// Garmin's TrackPointExtension (`gpxtpx:hr`) or any extension element named
/// `hr` or `heartrate`. Track segments are joined in file order.
public struct GPXReader: Sendable {
  /// Offset applied to times written without one, in seconds east of UTC.
  public var defaultOffsetSeconds: Int

  public init(defaultOffsetSeconds: Int = 0) {
    self.defaultOffsetSeconds = defaultOffsetSeconds
  }

  public func read(path: String) throws -> Track {
    let data = try FileInput.read(path, expected: "a readable GPX file")
    return try read(data: data, source: path)
  }

  public func read(data: Data, source: String) throws -> Track {
    guard !data.isEmpty else {
      throw InputError(
        SourceLocation(file: source, line: 1, column: 1), "empty file", expected: "a GPX document")
    }
    let handler = GPXHandler(source: source, defaultOffsetSeconds: defaultOffsetSeconds)
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = true
    parser.delegate = handler
    let succeeded = parser.parse()
    if let failure = handler.failure { throw failure }
    guard succeeded else {
      throw Self.describe(parser: parser, handler: handler, source: source)
    }
    if let open = handler.openElements.last {
      // libxml2 through XMLParser can accept a document cut short; the
      // element stack says it was.
      throw InputError(
        SourceLocation(file: source, line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)),
        "file ends inside <\(open)>", expected: "</\(open)>")
    }
    guard handler.sawRoot else {
      throw InputError(
        SourceLocation(file: source, line: 1, column: 1), "no root element", expected: "a <gpx> document")
    }
    var diagnostics = handler.diagnostics
    if handler.pointsWithoutOffset > 0 {
      diagnostics.append(
        Diagnostic(
          code: "time-without-offset", severity: .note,
          message:
            "\(handler.pointsWithoutOffset) times carry no UTC offset; read with offset \(defaultOffsetSeconds) s",
          location: source))
    }
    return Track(name: handler.trackName, source: source, points: handler.points, diagnostics: diagnostics)
  }

  /// Turns libxml2's error code into words: XMLParser's own description on
  /// Linux is an unhelpful `(null)`.
  private static func describe(parser: XMLParser, handler: GPXHandler, source: String) -> InputError {
    let location = SourceLocation(
      file: source, line: max(1, parser.lineNumber), column: max(1, parser.columnNumber))
    let code = (parser.parserError as NSError?)?.code ?? -1
    if !handler.sawRoot {
      return InputError(
        location, "not XML (parser error \(code))", expected: "a GPX document starting with <?xml or <gpx")
    }
    if let open = handler.openElements.last {
      if code == XMLParser.ErrorCode.prematureDocumentEndError.rawValue || parser.lineNumber <= 0 || code == 5
      {
        return InputError(location, "file ends inside <\(open)>", expected: "</\(open)>")
      }
      if code == XMLParser.ErrorCode.tagNameMismatchError.rawValue || code == 76 {
        return InputError(location, "closing tag does not match <\(open)>", expected: "</\(open)>")
      }
      return InputError(
        location, "malformed XML inside <\(open)> (parser error \(code))", expected: "well-formed XML")
    }
    return InputError(location, "malformed XML (parser error \(code))", expected: "well-formed XML")
  }
}

private final class GPXHandler: NSObject, XMLParserDelegate {
  let source: String
  let defaultOffsetSeconds: Int
  var points: [TrackPoint] = []
  var diagnostics: [Diagnostic] = []
  var failure: InputError?
  var sawRoot = false
  var trackName: String?
  var pointsWithoutOffset = 0
  var openElements: [String] = []

  private var current: TrackPoint?
  private var text = ""
  private var collectingText = false

  init(source: String, defaultOffsetSeconds: Int) {
    self.source = source
    self.defaultOffsetSeconds = defaultOffsetSeconds
  }

  private func fail(_ parser: XMLParser, _ problem: String, expected: String) {
    guard failure == nil else { return }
    failure = InputError(
      SourceLocation(file: source, line: parser.lineNumber, column: parser.columnNumber), problem,
      expected: expected)
    parser.abortParsing()
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    let name = localName(elementName)
    if !sawRoot {
      sawRoot = true
      guard name == "gpx" else {
        fail(parser, "root element is <\(name)>", expected: "<gpx> (GPX 1.0 or 1.1)")
        return
      }
    }
    openElements.append(name)
    switch name {
    case "trkpt", "rtept", "wpt":
      guard let latText = attributeDict["lat"], let lonText = attributeDict["lon"] else {
        fail(parser, "<\(name)> without lat and lon attributes", expected: "lat=\"..\" lon=\"..\"")
        return
      }
      guard let lat = Double(latText.trimmingCharacters(in: .whitespaces)), (-90...90).contains(lat) else {
        fail(parser, "cannot read lat=\"\(latText)\"", expected: "a latitude in degrees from -90 to 90")
        return
      }
      guard let lon = Double(lonText.trimmingCharacters(in: .whitespaces)), (-180...180).contains(lon) else {
        fail(parser, "cannot read lon=\"\(lonText)\"", expected: "a longitude in degrees from -180 to 180")
        return
      }
      current = TrackPoint(latitudeDegrees: lat, longitudeDegrees: lon, sourceLine: parser.lineNumber)
    case "ele", "time", "hr", "heartrate", "name":
      collectingText = true
      text = ""
    default:
      break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if collectingText { text += string }
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    let name = localName(elementName)
    if !openElements.isEmpty { openElements.removeLast() }
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    switch name {
    case "trkpt", "rtept", "wpt":
      if let point = current { points.append(point) }
      current = nil
    case "ele" where current != nil:
      guard let ele = Double(value), ele.isFinite else {
        fail(parser, "cannot read <ele>\(value)</ele>", expected: "an elevation in metres")
        return
      }
      current?.elevationMeters = ele
    case "time" where current != nil:
      guard let parsed = ISO8601.parse(value, defaultOffsetSeconds: defaultOffsetSeconds) else {
        fail(
          parser, "cannot read <time>\(value)</time>",
          expected: "an ISO-8601 time such as 2012-05-01T10:00:00Z")
        return
      }
      if !parsed.hadOffset { pointsWithoutOffset += 1 }
      current?.timeSecondsSince1970 = parsed.secondsSince1970
    case "hr", "heartrate":
      if current != nil, let bpm = Double(value), bpm.isFinite { current?.heartRateBeatsPerMinute = bpm }
    case "name":
      if current == nil, trackName == nil, openElements.last == "trk" { trackName = value }
    default:
      break
    }
    if ["ele", "time", "hr", "heartrate", "name"].contains(name) { collectingText = false }
  }

  private func localName(_ name: String) -> String {
    if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
    return name
  }
}
