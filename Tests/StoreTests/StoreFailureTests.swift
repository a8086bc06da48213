import EnergyLabCore
import Foundation
import GRDB
import Testing

@testable import Store

/// A write that fails part-way (here a store that may not grow, as on a
/// full disk: SQLite's `max_page_count` set to the pages it has) says the
/// store is full, leaves the runs stored before it as they were, and
/// leaves no `-wal` or `-shm` file behind that would block the next writer.
struct StoreFailureTests {
  @Test func aFullStoreSaysSoAndBlocksNoOne() throws {
    let path = ResultsStoreTests().temporaryPath()
    defer {
      try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
    try ResultsStore(path: path).record(ResultsStoreTests().run(1))
    let pages =
      try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") } ?? 0
    #expect(pages > 0)
    var big = ResultsStoreTests().run(2, parameter: "70")
    big.results = (0..<20_000).map {
      ResultRow(subject: "walk.gpx", metric: "m\($0)", value: Double($0), unit: "kcal")
    }
    do {
      let full = try ResultsStore(path: path, maximumPages: pages)
      let error = #expect(throws: StoreError.self) { try full.record(big) }
      #expect(error?.kind == .cannotWrite)
      #expect(
        error?.description.contains(": cannot store run: the database is full") == true,
        "\(String(describing: error))")
      #expect(error?.resultCode.map { $0 & 0xFF } == 13)
    }
    // The store is closed: SQLite removes its -wal and -shm files.
    for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
    #expect(try ResultsStore.reading(path).allRuns().count == 1)
    try ResultsStore(path: path).record(big)
    #expect(try ResultsStore.reading(path).allRuns().count == 2)
  }
}
