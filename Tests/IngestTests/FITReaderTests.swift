import EnergyLabCore
import Foundation
import Ingest
import TestSupport
import Testing

/// Real FIT files (python-fitparse test files, MIT; see Fixtures/fit/README.md).
/// `ENERGYLAB_FIT_FIXTURES` names another folder holding FIT files and their
/// `expectations.json`, to run `agreesWithFitdecode` on a whole dataset.
let fitFixtures =
  ProcessInfo.processInfo.environment["ENERGYLAB_FIT_FIXTURES"] ?? packageRoot
  + "/Tests/IngestTests/Fixtures/fit"

/// What fitdecode, an independent reader, finds in a fixture
/// (scripts/fixtures/fit-expectations.py; Fixtures/fit/expectations.json).
struct FITExpectation: Decodable {
  struct Session: Decodable {
    var sport: String?
    var subSport: String?
    var startTime: Double?
    var endTime: Double?
    var totalElapsedTimeS: Double?
    var totalTimerTimeS: Double?
    var totalDistanceM: Double?
    var totalWorkJ: Double?
    var totalCaloriesKcal: Double?
    var avgPowerW: Double?
    var avgHeartRateBpm: Double?
  }
  struct Profile: Decodable {
    var gender: String?
    var ageYears: Double?
    var heightM: Double?
    var weightKg: Double?
    var restingHeartRateBpm: Double?
  }
  struct Device: Decodable, Equatable {
    var manufacturer: String
    var product: Int?
  }
  struct SportRun: Decodable {
    var sport: String?
    var count: Int
    init(from decoder: Decoder) throws {
      var c = try decoder.unkeyedContainer()
      sport = try c.decodeIfPresent(String.self)
      count = try c.decode(Int.self)
    }
  }

  var files: Int
  var records: Int
  var recordsWithPosition: Int
  var recordsTimeOnly: Int
  var recordsWithTime: Int
  var segments: Int
  var recordSports: [SportRun]
  var firstTimestamp: Double?
  var lastTimestamp: Double?
  var firstPosition: [Double]?
  var lastPosition: [Double]?
  var firstAltitudeM: Double?
  var firstSpeedMps: Double?
  var heartRateSum: Int
  var powerSum: Int
  var compressedTimestampMessages: Int
  var developerFields: Int
  var laps: Int
  var sessions: [Session]
  var userProfile: Profile?
  var devices: [Device]
  var error: String?

  static let all: [String: FITExpectation] = {
    let data = try! Data(contentsOf: URL(fileURLWithPath: fitFixtures + "/expectations.json"))
    var readable: [String: FITExpectation] = [:]
    let raw = try! JSONSerialization.jsonObject(with: data) as! [String: [String: Any]]
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    for (name, entry) in raw where entry["unreadable"] == nil {
      let one = try! JSONSerialization.data(withJSONObject: entry)
      readable[name] = try! decoder.decode(FITExpectation.self, from: one)
    }
    return readable
  }()
}

/// A file read whole in file order: every fix handed over, and the header.
struct StreamedFIT {
  var fixes: [TrackPoint] = []
  var header: TrackHeader

  init(_ name: String, reader: FITReader = FITReader()) throws {
    var fixes: [TrackPoint] = []
    header = try reader.stream(path: fitFixtures + "/" + name) { fixes.append($0) }
    self.fixes = fixes
  }

  var fit: FITSummary { header.fit! }
}

@Suite("FIT reader")
struct FITReaderTests {
  // MARK: CRC

  @Test func crcMatchesTheCRC16ARCCheckValue() {
    // CRC-16/ARC check value of "123456789" (Greg Cook's catalogue of
    // parametrised CRC algorithms): 0xBB3D.
    #expect(FITCRC.of(Array("123456789".utf8)) == 0xBB3D)
    #expect(FITCRC.of([UInt8]()) == 0)
  }

  @Test func crcOfABlockFollowedByItsCRCIsZero() {
    let block: [UInt8] = [0x0E, 0x10, 0x2C, 0x08, 0x10, 0x00, 0x00, 0x00, 0x2E, 0x46, 0x49, 0x54]
    let crc = FITCRC.of(block)
    #expect(FITCRC.of(block + [UInt8(crc & 0xFF), UInt8(crc >> 8)]) == 0)
  }

  // MARK: Agreement with fitdecode

  static let readable = FITExpectation.all.keys.sorted()

  @Test(arguments: readable)
  func agreesWithFitdecode(_ name: String) throws {
    let expected = try #require(FITExpectation.all[name])
    let file = try StreamedFIT(name, reader: FITReader(ignoreCRC: expected.error == "FitCRCError"))
    let fit = file.fit
    #expect(fit.files.count == expected.files, "chained files")
    #expect(fit.recordCount == expected.records, "records")
    let track = file.fixes.filter { $0.kind == .track }
    let timeOnly = file.fixes.filter { $0.kind == .timeOnly }
    #expect(track.count == expected.recordsWithPosition, "records with a position")
    #expect(timeOnly.count == expected.recordsTimeOnly, "records with a time only")
    #expect(file.header.structure.trackPoints == expected.recordsWithPosition)
    #expect(file.header.structure.timeOnlyPoints == expected.recordsTimeOnly)
    let times = file.fixes.compactMap(\.timeSecondsSince1970)
    #expect(times.count == expected.recordsWithTime)
    #expect(times.first == expected.firstTimestamp, "first time")
    #expect(times.last == expected.lastTimestamp, "last time")
    if let first = expected.firstPosition, let last = expected.lastPosition {
      expectClose(track.first?.latitudeDegrees, first[0], tolerance: 1e-7, "first latitude")
      expectClose(track.first?.longitudeDegrees, first[1], tolerance: 1e-7, "first longitude")
      expectClose(track.last?.latitudeDegrees, last[0], tolerance: 1e-7, "last latitude")
      expectClose(track.last?.longitudeDegrees, last[1], tolerance: 1e-7, "last longitude")
    } else {
      #expect(track.isEmpty)
    }
    if let altitude = expected.firstAltitudeM {
      expectClose(
        file.fixes.lazy.compactMap(\.elevationMeters).first, altitude, tolerance: 1e-9, "first altitude")
    }
    if let speed = expected.firstSpeedMps {
      expectClose(
        file.fixes.lazy.compactMap(\.reportedSpeedMetersPerSecond).first, speed, tolerance: 1e-9,
        "first speed")
    }
    #expect(Int(file.fixes.compactMap(\.heartRateBeatsPerMinute).reduce(0, +)) == expected.heartRateSum)
    #expect(Int(file.fixes.compactMap(\.powerWatts).reduce(0, +)) == expected.powerSum)
    #expect(fit.compressedTimestampCount == expected.compressedTimestampMessages, "compressed timestamps")
    #expect(fit.developerFieldCount == expected.developerFields, "developer fields")
    #expect(fit.lapCount == expected.laps, "laps")
    #expect(file.header.structure.segments == expected.segments, "segments")
    #expect(
      fit.devices.filter { $0.manufacturer != nil }.map {
        FITExpectation.Device(manufacturer: $0.manufacturer!, product: $0.product)
      } == expected.devices)

    try #require(fit.sessions.count == expected.sessions.count, "sessions")
    for (session, want) in zip(fit.sessions, expected.sessions) {
      #expect(session.sport == want.sport)
      #expect(session.subSport == want.subSport)
      #expect(session.startSecondsSince1970 == want.startTime)
      #expect(session.endSecondsSince1970 == want.endTime)
      #expect(session.totalElapsedSeconds == want.totalElapsedTimeS)
      #expect(session.totalTimerSeconds == want.totalTimerTimeS)
      #expect(session.totalDistanceMeters == want.totalDistanceM)
      #expect(session.totalWorkJoules == want.totalWorkJ)
      #expect(session.totalEnergyKilocalories == want.totalCaloriesKcal)
      #expect(session.averagePowerWatts == want.avgPowerW)
      #expect(session.averageHeartRateBeatsPerMinute == want.avgHeartRateBpm)
    }
    let distances = expected.sessions.compactMap(\.totalDistanceM)
    if !distances.isEmpty {
      expectClose(
        file.header.deviceDistanceMeters, distances.reduce(0, +), tolerance: 1e-6, "device distance")
    }

    // Read whole, each fix carries the sport of the session whose span
    // holds its time (fixes outside every span, which the expectations
    // leave without, take the nearest session's).
    let whole = try FITReader(ignoreCRC: expected.error == "FitCRCError").read(path: fitFixtures + "/" + name)
    let inOrder = (whole.points + whole.timeOnlyPoints).sorted { $0.sourceLine < $1.sourceLine }
    let sports = expected.recordSports.flatMap { Array(repeating: $0.sport, count: $0.count) }
    try #require(inOrder.count == sports.count)
    let mismatched = zip(inOrder, sports).filter { p, sport in
      sport != nil && whole.declaredSportBySegment[p.segment] != sport
    }
    #expect(mismatched.isEmpty, "\(mismatched.count) fixes with another sport")

    if let want = expected.userProfile {
      let profile = try #require(fit.userProfile)
      #expect(profile.sex?.rawValue == want.gender)
      #expect(profile.ageYears == want.ageYears)
      #expect(profile.heightMeters == want.heightM)
      #expect(profile.bodyMassKilograms == want.weightKg)
      #expect(profile.restingHeartRateBeatsPerMinute == want.restingHeartRateBpm)
    } else {
      #expect(fit.userProfile == nil)
    }
  }

  // MARK: What the files say of themselves

  @Test func cyclingWithPowerIntegratesToTheSessionWork() throws {
    // Edge 810 with Vector pedals: work = sum of power * dt between
    // consecutive fixes of one segment (pauses excluded), against the
    // session's total_work measured by the device.
    let file = try StreamedFIT("Edge810-Vector-2013-08-16-15-35-10.fit")
    var joules = 0.0
    for (a, b) in zip(file.fixes, file.fixes.dropFirst()) where a.segment == b.segment {
      guard let t0 = a.timeSecondsSince1970, let t1 = b.timeSecondsSince1970, let power = b.powerWatts else {
        continue
      }
      joules += power * (t1 - t0)
    }
    let session = try #require(file.fit.sessions.first)
    #expect(session.sport == "cycling")
    let work = try #require(session.totalWorkJoules)
    #expect(work == 1_296_229)
    #expect(abs(joules - work) / work < 0.01, "integrated \(joules) J against \(work) J")
    #expect(file.header.format == "fit")
    #expect(file.header.declaredSportBySegment == [0: "cycling"])
  }

  @Test func runReadsTheUserProfileAndDevice() throws {
    let file = try StreamedFIT("garmin-fenix-5-run.fit")
    let profile = try #require(file.fit.userProfile)
    // The dataset's README: male, 68 kg, 1.75 m.
    #expect(profile.sex == .male)
    #expect(profile.bodyMassKilograms == 68)
    #expect(profile.heightMeters == 1.75)
    #expect(profile.subject(id: "fenix").bodyMassKilograms == 68)
    #expect(file.fit.creator?.manufacturer == "garmin")
    #expect(file.header.declaredSportBySegment == [0: "running"])
  }

  @Test func sessionsWrittenAfterTheirRecordsSplitTheLegs() {
    // Two sessions written at the end: fixes 1-3 in the first's span,
    // 4-5 in the second's, all handed over as one segment.
    var summary = FITSummary()
    for (sport, start, end) in [("running", 100.0, 130.0), ("cycling", 131.0, 200.0)] {
      var s = FITSession()
      s.sport = sport
      s.startSecondsSince1970 = start
      s.endSecondsSince1970 = end
      summary.sessions.append(s)
    }
    let points = (1...5).map { k in
      TrackPoint(
        latitudeDegrees: 0, longitudeDegrees: Double(k) * 1e-4,
        timeSecondsSince1970: 100 + Double(k - 1) * 15,
        sourceLine: k)
    }
    let split = summary.splittingSegmentsBySession(Track(source: "legs.fit", points: points))
    #expect(split.points.map(\.segment) == [0, 0, 0, 1, 1])
    #expect(split.declaredSportBySegment == [0: "running", 1: "cycling"])
    #expect(split.structure.segments == 2)
  }

  @Test func multisportSessionsDeclareTheirOwnSports() throws {
    // Four chained files: swim, transition, bike, transition, run.
    let file = try StreamedFIT("sample_mulitple_header.fit")
    #expect(file.fit.files.count == 4)
    #expect(
      file.header.sports == ["swimming/open_water", "transition", "cycling", "transition", "running"])
    #expect(Set(file.header.declaredSportBySegment.values) == Set(file.header.sports))
    #expect(file.header.diagnostics.contains { $0.code == "fit-chained-files" })
  }

  @Test func timerRestartsStartNewSegments() throws {
    // 2015-10-13-08-43-15.fit: an Edge ride with five timer restarts.
    let file = try StreamedFIT("2015-10-13-08-43-15.fit")
    #expect(file.fit.timerPauses == 5)
    #expect(Set(file.fixes.map(\.segment)) == Set(0...5))
    #expect(file.header.diagnostics.contains { $0.code == "fit-timer-pauses" })
  }

  @Test func compressedTimestampsRollOverAgainstTheLastFullOne() throws {
    // Every record of this file has a compressed timestamp header. The
    // first (offset 8, at the time of the timer start event, 17217864)
    // carries no value; python-fitparse's records CSV lists the next ones
    // at device times 17217869 and 17217874 with speeds 3.54 and 3.55 m/s
    // (from compressed_speed_distance).
    let file = try StreamedFIT("compressed-speed-distance.fit")
    let times = file.fixes.compactMap(\.timeSecondsSince1970)
    let expected: [Double] = [17_217_864, 17_217_869, 17_217_874].map { FITTime.unix($0) }
    #expect(Array(times.prefix(3)) == expected)
    #expect(file.fixes[1].reportedSpeedMetersPerSecond == 3.54)
    #expect(file.fixes[2].reportedSpeedMetersPerSecond == 3.55)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(file.header.diagnostics.contains { $0.code == "fit-device-time" })
    #expect(file.header.diagnostics.contains { $0.code == "trackpoint-without-position" })
  }

  @Test func developerFieldsAreSkippedAndCounted() throws {
    let file = try StreamedFIT("DeveloperData.fit")
    #expect(file.fit.developerFieldCount == 3)
    #expect(file.fit.recordCount == 3)
    #expect(file.header.diagnostics.contains { $0.code == "fit-developer-fields" })
  }

  // MARK: Damaged files

  @Test func badFileCRCNamesItsOffset() throws {
    let path = fitFixtures + "/activity-filecrc.fit"
    let e = try #require(inputError { try FITReader().read(path: path) })
    // 771 bytes: the CRC is the last two, at byte 769.
    #expect(e.location.byteOffset == 769)
    #expect(e.kind == .malformed)
    #expect(e.description.hasPrefix(path + " at byte 769: file CRC"))
    let track = try FITReader(ignoreCRC: true).read(path: path)
    #expect(track.points.count == 14)
    #expect(track.diagnostics.contains { $0.code == "fit-crc-mismatch" })
  }

  @Test func badCRCInTheSecondOfTwoChainedFiles() throws {
    let path = fitFixtures + "/activity-activity-filecrc.fit"
    #expect(throws: InputError.self) { try FITReader().read(path: path) }
    let track = try FITReader(ignoreCRC: true).read(path: path)
    #expect(track.points.count == 28)
    #expect(Set(track.points.map(\.segment)) == [0, 1])
  }

  @Test func badHeaderCRCIsAnErrorNamingByte12() throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fitFixtures + "/DeveloperData.fit")))
    #expect(bytes[0] == 14)
    bytes[12] ^= 0xFF
    let e = try #require(inputError { try FITReader().read(data: Data(bytes), source: "damaged.fit") })
    #expect(e.location.byteOffset == 12)
    #expect(e.description.contains("header CRC"))
    let track = try FITReader(ignoreCRC: true).read(data: Data(bytes), source: "damaged.fit")
    #expect(track.diagnostics.contains { $0.code == "fit-crc-mismatch" })
  }

  @Test func fileEndingEarlyIsAnError() throws {
    // activity-unexpected-eof.fit is 768 bytes; its header declares 757
    // bytes of data after 12 of header, then a CRC. activity-settings-
    // nodata.fit: a second header at byte 771 declares 68 bytes of data
    // (0x44), of which 1 is there.
    for (name, end) in [("activity-unexpected-eof.fit", 768), ("activity-settings-nodata.fit", 786)] {
      let e = try #require(inputError { try FITReader().read(path: fitFixtures + "/" + name) })
      #expect(e.kind == .malformed)
      #expect(e.description.contains("ends inside"))
      #expect(e.location.byteOffset == end)
      #expect(e.remedy == Remedy(.readTruncated))
    }
  }

  @Test func fileEndingEarlyIsReadUpToItsEndOnRequest() throws {
    // activity-unexpected-eof.fit: header 12 bytes, data 757 declared, CRC
    // 2: the whole file would end at byte 771; it ends at 768, at a message
    // boundary. fitdecode reads 14 records before its end-of-file error.
    let eof = fitFixtures + "/activity-unexpected-eof.fit"
    let header = try FITReader(readTruncated: true).stream(path: eof) { _ in }
    let t = try #require(header.fit?.truncation)
    #expect(t.endOffset == 768 && t.declaredEndOffset == 771 && t.missingBytes == 3)
    #expect(t.lastWholeEndOffset == 751)
    #expect(header.fit?.recordCount == 14)
    let note = try #require(header.diagnostics.first { $0.code == "fit-truncated" })
    #expect(note.severity == .warning)
    #expect(note.message.contains("ends at byte 768"))
    #expect(note.message.contains("3 bytes (0.4 %) before the end its header declares"))
    #expect(note.message.contains("14 records read"))
    // activity-settings-nodata.fit: a second, 12-byte header at byte 771
    // declares 68 bytes of data, of which 3 are there: 783 + 68 + 2 = 853.
    let nodata = try FITReader(readTruncated: true).read(path: fitFixtures + "/activity-settings-nodata.fit")
    #expect(nodata.points.count == 14)
    let note2 = try #require(nodata.diagnostics.first { $0.code == "fit-truncated" })
    #expect(note2.message.contains("ends at byte 786"))
    #expect(note2.message.contains("67 bytes (95.7 %)"))
    #expect(note2.message.contains("which ends at byte 783 (the 3 bytes after it are left out)"))
  }

  /// A recording that stopped inside a message, with a header counting the
  /// bytes written (python-fitparse's nick.fit: its last record runs 11
  /// bytes past the declared data, and the file ends 2 bytes after that).
  @Test func messageRunningPastTheDeclaredDataIntoTheEndOfTheFile() throws {
    var file = FITFileBuilder()
    file.definition(
      local: 0, global: 20, bigEndian: false, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
    for k in 0..<3 {
      file.data(local: 0, bigEndian: false, [.u32(1_000_000_000 + UInt32(k)), .s32(0), .s32(0)])
    }
    var bytes = [UInt8](file.bytes())
    // 14 header bytes, a 15-byte definition, three 13-byte records (the
    // last at bytes 55-67), CRC. Cut 5 bytes before the data's end (byte
    // 63) and declare the data to end 2 bytes before the cut (byte 61).
    #expect(bytes.count == 14 + 15 + 39 + 2)
    bytes = Array(bytes.prefix(14 + 15 + 39 - 5))
    let dataSize = UInt32(bytes.count - 2 - 14)
    for k in 0..<4 { bytes[4 + k] = UInt8(dataSize >> (8 * k) & 0xFF) }
    bytes[12] = 0
    bytes[13] = 0  // header CRC not computed
    let e = try #require(inputError { try FITReader().read(data: Data(bytes), source: "cut.fit") })
    #expect(e.location.byteOffset == 55)
    #expect(e.description.contains("runs 7 bytes past the end of the data (byte 61)"))
    #expect(e.description.contains("the file ends inside it, at byte 63"))
    #expect(e.remedy == Remedy(.readTruncated))
    let header = try FITReader(readTruncated: true).stream(data: Data(bytes), source: "cut.fit") { _ in }
    #expect(header.fit?.recordCount == 2)
    let t = try #require(header.fit?.truncation)
    #expect(t.endOffset == 63 && t.lastWholeEndOffset == 55 && t.overrunEndOffset == 68)
    #expect(t.missingBytes == 7)
    let note = try #require(header.diagnostics.first { $0.code == "fit-truncated" })
    #expect(note.message.contains("runs 7 bytes past the end of the data its header declares (byte 61)"))
  }

  /// A file cut anywhere after its header reads as the fixes of the whole
  /// file up to the last message that is whole, never an error.
  @Test func fileCutAnywhereReadsAPrefixOfItsFixes() throws {
    let whole = try Data(contentsOf: URL(fileURLWithPath: fitFixtures + "/garmin-fenix-5-run.fit"))
    var all: [TrackPoint] = []
    try FITReader().stream(data: whole, source: "whole.fit") { all.append($0) }
    var previous = 0
    for end in stride(from: 14, to: whole.count - 1, by: 7) {
      var fixes: [TrackPoint] = []
      let header = try FITReader(readTruncated: true, chunkSizeBytes: 64).stream(
        data: whole.prefix(end), source: "cut.fit"
      ) { fixes.append($0) }
      #expect(fixes.map(\.sourceLine) == all.prefix(fixes.count).map(\.sourceLine))
      #expect(fixes.map(\.timeSecondsSince1970) == all.prefix(fixes.count).map(\.timeSecondsSince1970))
      #expect(fixes.count >= previous)
      previous = fixes.count
      let t = try #require(header.fit?.truncation)
      #expect(t.endOffset == end && t.missingBytes == whole.count - end)
      #expect(t.lastWholeEndOffset <= end)
    }
    #expect(previous == all.count)
    // Without a whole file header there is nothing to read.
    let short = inputError {
      try FITReader(readTruncated: true).read(data: whole.prefix(13), source: "cut.fit")
    }
    #expect(short?.location.byteOffset == 13)
  }

  @Test func corruptHeaderOfAChainedFileIsAnError() throws {
    // The second file's header starts at byte 771; its bytes 8-11 read ".GIT".
    let e = try #require(
      inputError { try FITReader().read(path: fitFixtures + "/activity-settings-corruptheader.fit") })
    #expect(e.location.byteOffset == 779)
    #expect(e.description.contains("\".GIT\""))
    #expect(e.description.hasSuffix("expected \".FIT\""))
  }

  @Test func dataBeforeItsDefinitionIsAnError() throws {
    let e = try #require(
      inputError { try FITReader().read(path: fitFixtures + "/strava-android-app-201.10-b1218918.fit") })
    #expect(e.description.contains("before any definition"))
  }

  @Test func emptyAndShortInputs() throws {
    #expect(inputError { try FITReader().read(data: Data(), source: "empty.fit") }?.kind == .empty)
    let short = inputError { try FITReader().read(data: Data([14, 0x10]), source: "short.fit") }
    #expect(short?.location.byteOffset == 2)
  }

  /// Time fields declared with a signed or floating-point base type (a
  /// damaged file, found by fuzzing): a value no uint32 holds is no time,
  /// never a crash.
  @Test func timesOfTheWrongBaseTypeAreUnknown() throws {
    var file = FITFileBuilder()
    // session: timestamp as float32 (0x88), start_time as sint32 (0x85).
    file.definition(local: 0, global: 18, bigEndian: false, fields: [(253, 4, 0x88), (2, 4, 0x85)])
    file.data(local: 0, bigEndian: false, [.u32(Float(-1.5).bitPattern), .s32(-7)])
    // file_id: time_created as float32, product as float64 (0x89), 1e300.
    file.definition(local: 1, global: 0, bigEndian: false, fields: [(4, 4, 0x88), (2, 8, 0x89)])
    file.data(
      local: 1, bigEndian: false,
      [
        .u32(Float(5e9).bitPattern),
        .raw((0..<8).map { UInt8(truncatingIfNeeded: (1e300).bitPattern >> (8 * $0)) }),
      ])
    let header = try FITReader().stream(data: file.bytes(), source: "types.fit") { _ in }
    let session = try #require(header.fit?.sessions.first)
    #expect(session.startSecondsSince1970 == nil && session.endSecondsSince1970 == nil)
    #expect(header.fit?.timeCreatedSecondsSince1970 == nil)
    #expect(header.fit?.creator?.product == nil)
  }

  // MARK: Synthetic files with answers known by construction

  @Test func bigEndianCompressedTimestampsInvalidValuesAndDeveloperFields() throws {
    var file = FITFileBuilder()
    // Local 0: record, big endian: timestamp uint32, lat/lon sint32,
    // heart_rate uint8, power uint16, enhanced_altitude uint32; one
    // developer field of 3 bytes.
    file.definition(
      local: 0, global: 20, bigEndian: true,
      fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02), (7, 2, 0x84), (78, 4, 0x86)],
      developer: [(0, 3, 0)])
    let t0: UInt32 = 1_000_000_000 - 3  // low five bits: 0b11101 = 29
    let lat = Int32(1 << 29)  // 45 degrees
    let lon = Int32(-(1 << 30))  // -90 degrees
    file.data(
      local: 0, bigEndian: true,
      [.u32(t0), .s32(lat), .s32(lon), .u8(150), .u16(200), .u32(3000), .raw([1, 2, 3])])
    // Local 1: record without timestamp, little endian, for compressed headers.
    file.definition(
      local: 1, global: 20, bigEndian: false,
      fields: [(0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02), (7, 2, 0x84)])
    // Offset 31 (> 29): same 32-s window, t0 + 2. Offset 3 (< 31): rolls
    // over to the next window, t0 + 2 + (32 - 31) + 3 = t0 + 6.
    file.compressed(local: 1, timeOffset: 31, [.s32(lat), .s32(lon), .u8(0xFF), .u16(0xFFFF)])
    file.compressed(local: 1, timeOffset: 3, [.s32(Int32.max), .s32(lon), .u8(151), .u16(210)])
    let data = file.bytes()
    var fixes: [TrackPoint] = []
    let header = try FITReader().stream(data: data, source: "synthetic.fit") { fixes.append($0) }
    let start = FITTime.unix(t0)
    #expect(fixes.map(\.timeSecondsSince1970) == [start, start + 2, start + 6])
    #expect(fixes.map(\.kind) == [.track, .track, .timeOnly])
    #expect(fixes[0].latitudeDegrees == 45 && fixes[0].longitudeDegrees == -90)
    expectClose(fixes[0].elevationMeters, 3000.0 / 5 - 500, tolerance: 1e-12, "elevation")
    #expect(fixes.map(\.heartRateBeatsPerMinute) == [150, nil, 151])
    #expect(fixes.map(\.powerWatts) == [200, nil, 210])
    #expect(header.fit?.developerFieldCount == 1)
    #expect(header.fit?.compressedTimestampCount == 2)
  }
}

/// The `InputError` that `body` throws, or nil (recorded as an issue) when
/// it throws none or another error.
func inputError(_ body: () throws -> Any, sourceLocation: Testing.SourceLocation = #_sourceLocation)
  -> InputError?
{
  do {
    _ = try body()
    Issue.record("no error thrown", sourceLocation: sourceLocation)
  } catch let e as InputError {
    return e
  } catch {
    Issue.record("\(error) is not an InputError", sourceLocation: sourceLocation)
  }
  return nil
}

/// FIT protocol times for tests: seconds since 1989-12-31T00:00:00Z, which
/// is 631,065,600 s after 1970 (20 years with 5 leap days, less one day:
/// (20 * 365 + 5 - 1) * 86,400).
enum FITTime {
  static func unix(_ t: UInt32) -> Double { Double(t) + Double((20 * 365 + 5 - 1) * 86_400) }
}

/// Writes a FIT file byte by byte from the protocol's layout, for files
/// whose content is known by construction.
struct FITFileBuilder {
  enum Value {
    case u8(UInt8), u16(UInt16), u32(UInt32), s32(Int32), raw([UInt8])
  }
  private var data: [UInt8] = []

  mutating func definition(
    local: UInt8, global: UInt16, bigEndian: Bool, fields: [(UInt8, UInt8, UInt8)],
    developer: [(UInt8, UInt8, UInt8)] = []
  ) {
    data.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
    data += [0, bigEndian ? 1 : 0]
    data +=
      bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
    data.append(UInt8(fields.count))
    for f in fields { data += [f.0, f.1, f.2] }
    if !developer.isEmpty {
      data.append(UInt8(developer.count))
      for f in developer { data += [f.0, f.1, f.2] }
    }
  }

  mutating func data(local: UInt8, bigEndian: Bool, _ values: [Value]) {
    data.append(local)
    append(values, bigEndian: bigEndian)
  }

  mutating func compressed(local: UInt8, timeOffset: UInt8, _ values: [Value]) {
    data.append(0x80 | local << 5 | timeOffset)
    append(values, bigEndian: false)
  }

  private mutating func append(_ values: [Value], bigEndian: Bool) {
    for v in values {
      var bytes: [UInt8]
      switch v {
      case .u8(let x): bytes = [x]
      case .u16(let x): bytes = [UInt8(x & 0xFF), UInt8(x >> 8)]
      case .u32(let x): bytes = (0..<4).map { UInt8(x >> (8 * $0) & 0xFF) }
      case .s32(let x): bytes = (0..<4).map { UInt8(UInt32(bitPattern: x) >> (8 * $0) & 0xFF) }
      case .raw(let x):
        data += x
        continue
      }
      data += bigEndian ? bytes.reversed() : bytes
    }
  }

  /// A 14-byte header (protocol 2.0, profile 21.0), the messages and the CRC.
  func bytes() -> Data {
    let size = UInt32(data.count)
    var header: [UInt8] = [14, 0x20, 0x34, 0x08] + (0..<4).map { UInt8(size >> (8 * $0) & 0xFF) }
    header += Array(".FIT".utf8)
    let headerCRC = FITCRC.of(header)
    header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
    let all = header + data
    let crc = FITCRC.of(all)
    return Data(all + [UInt8(crc & 0xFF), UInt8(crc >> 8)])
  }
}
