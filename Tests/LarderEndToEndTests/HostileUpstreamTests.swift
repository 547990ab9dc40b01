import Foundation
import GRDB
import LarderTesting
import Testing

/// SPEC §4.11 against the real binary: no upstream payload and no stored row can stop Larder or
/// wedge it; a day after tomorrow is refused whole, and a store an earlier build poisoned starts.
@Suite("A hostile upstream cannot stop or wedge Larder", .serialized)
struct HostileUpstreamTests {
    /// The UTC day `offset` days from today, `YYYY-MM-DD`.
    static func day(_ offset: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date().addingTimeInterval(Double(offset) * 86_400))
    }

    /// An ECB daily document with `days` (newest first), each with the same three rates.
    static func feed(_ days: [String]) -> [UInt8] {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <Cube>

            """
        for day in days {
            xml += "<Cube time='\(day)'><Cube currency='USD' rate='1.0862'/><Cube currency='JPY' rate='162.41'/><Cube currency='GBP' rate='0.84370'/></Cube>\n"
        }
        return Array((xml + "</Cube>\n</gesmes:Envelope>\n").utf8)
    }

    static let fixtures = repositoryRoot.appending(path: "Tests/LarderEndToEndTests/Fixtures")

    /// A sample upstream serving `root/upstream`, and a Larder on `cache` whose rates come from its `/feed.xml`.
    static func withUpstreamAndLarder(
        root: String, cache: String, _ body: (_ upstream: Int, _ larder: ChildProcess, _ port: Int) throws -> Void
    ) throws {
        let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
        defer { upstream.signal(SIGKILL) }
        let upstreamPort = try upstream.waitForListening()
        let larder = try ChildProcess("larder", [
            "serve", "--port", "0", "--cache-dir", cache, "--rates-url", "http://127.0.0.1:\(upstreamPort)/feed.xml",
        ])
        defer { larder.signal(SIGKILL) }
        try body(upstreamPort, larder, try larder.waitForListening())
    }

    static func publish(_ days: [String], upstream: Int) throws {
        let put = try TestConnection.fetch(port: upstream, "PUT", "/_control/files/feed.xml", body: feed(days))
        #expect(put.status < 300)
    }

    @Test func aDayAfterTomorrowIsRefusedWholeAndTheCopyKept() async throws {
        try await withCrashScratch("larder-hostile", upstream: "upstream") { root, cache in
            // In place before Larder starts: a refresh asked for while the start-up sync of a missing
            // feed still runs would join that failing sync.
            try Data(Self.feed([Self.day(0), Self.day(-1)])).write(to: URL(filePath: root + "/upstream/feed.xml"))
            try await onThread {
                try Self.withUpstreamAndLarder(root: root, cache: cache) { upstream, larder, port in
                    let first = try TestConnection.fetch(port: port, "POST", "/rates/refresh")
                    #expect(first.status == 200, "\(first.text)")
                    let years = Self.day(3 * 365)
                    for poisoned in ["9999-12-31", years, Self.day(2)] {
                        try Self.publish([poisoned, Self.day(0), Self.day(-1)], upstream: upstream)
                        let refused = try TestConnection.fetch(port: port, "POST", "/rates/refresh")
                        #expect(refused.status == 502, "\(poisoned): \(refused.text)")
                        #expect(refused.text.contains(poisoned), "the error names the day: \(refused.text)")
                        #expect(try TestConnection.fetch(port: port, "/rates").json?["date"] as? String == Self.day(0))
                        let status = try TestConnection.fetch(port: port, "/status").json
                        let rates = (status?["resources"] as? [String: Any])?["rates"] as? [String: Any]
                        let error = rates?["last_error"] as? [String: Any]
                        #expect((error?["message"] as? String)?.contains(poisoned) == true, "\(String(describing: rates))")
                    }
                    // Tomorrow is allowed (a provider east of UTC), and the corrected feed lands.
                    try Self.publish([Self.day(1), Self.day(0), Self.day(-1)], upstream: upstream)
                    let taken = try TestConnection.fetch(port: port, "POST", "/rates/refresh")
                    #expect(taken.json?["date"] as? String == Self.day(1), "\(taken.text)")
                    #expect(larder.isRunning)
                    // Nothing refused was stored: a restart on the same upstream (another URL would be
                    // a new upstream, whose first copy replaces the old) serves the same day.
                    larder.signal(SIGKILL)
                    _ = larder.waitForExit(timeout: .seconds(5))
                    let again = try ChildProcess("larder", [
                        "serve", "--port", "0", "--cache-dir", cache, "--rates-url", "http://127.0.0.1:\(upstream)/feed.xml",
                    ])
                    defer { again.signal(SIGKILL) }
                    let served = try TestConnection.fetch(port: try again.waitForListening(), "/rates")
                    #expect(served.json?["date"] as? String == Self.day(1), "\(served.text)")
                }
            }
        }
    }

    @Test func aStorePoisonedBy1d26c55StartsServesWhatIsValidAndHealsOnTheFirstRefresh() async throws {
        try await withCrashScratch("larder-poisoned", upstream: "upstream") { root, cache in
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            let dump = try String(contentsOf: Self.fixtures.appending(path: "store-1d26c55-poisoned.sql"), encoding: .utf8)
            let queue = try DatabaseQueue(path: cache + "/larder.sqlite")
            try await queue.writeWithoutTransaction { db in try db.execute(sql: dump) }
            try queue.close()
            try await onThread {
                // No feed yet: the first sync fails, so what is served comes from the store alone.
                try Self.withUpstreamAndLarder(root: root, cache: cache) { upstream, larder, port in
                    #expect(try TestConnection.fetch(port: port, "/health").status == 200)
                    #expect(try TestConnection.fetch(port: port, "/ready").status == 200)
                    #expect(larder.standardError.contains("left out 2 stored day(s)"), "\(larder.standardError)")
                    #expect(larder.standardError.contains("'2031-11-26', '9999-12-31'"), "\(larder.standardError)")
                    let served = try TestConnection.fetch(port: port, "/rates")
                    #expect(served.json?["date"] as? String == "2026-11-26", "\(served.text)")
                    let asked = try TestConnection.fetch(port: port, "/rates/9999-12-31")
                    #expect(asked.json?["date"] as? String == "2026-11-26", "never served: \(asked.text)")
                    // No clock deletes stored data: the days outside the bounds are still on disk (until the
                    // new upstream's first copy replaces the old one whole, SPEC §4.9).
                    let kept = try DatabaseQueue(path: cache + "/larder.sqlite")
                    defer { try? kept.close() }
                    let days = try kept.read { db in
                        try String.fetchAll(db, sql: "SELECT date FROM rate_sets WHERE date IN ('2031-11-26', '9999-12-31')")
                    }
                    #expect(days.sorted() == ["2031-11-26", "9999-12-31"])
                    // Once the start-up sync has failed (no feed yet), /status shows its schedule.
                    var rates: [String: Any]?
                    #expect(try eventuallyBlocking {
                        let status = try TestConnection.fetch(port: port, "/status").json
                        rates = (status?["resources"] as? [String: Any])?["rates"] as? [String: Any]
                        return rates?["refreshing"] as? Bool == false && rates?["next_refresh"] is String
                    }, "\(String(describing: rates))")
                    let counts = rates?["counts"] as? [String: Any]
                    #expect(counts?["latest_date"] as? String == "2026-11-26")
                    #expect(counts?["days"] as? Int == 2)
                    // The schedule is rebuilt from what remains: the next refresh is due within days, not years.
                    let next = (rates?["next_refresh"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
                    #expect(next.map { $0 < Date().addingTimeInterval(3 * 86_400) } == true, "\(String(describing: rates))")

                    // The upstream's real data lands on the first refresh that reads it (a retry of the
                    // failed start-up sync may be running as the feed appears: that one saw no feed).
                    try Self.publish([Self.day(0), Self.day(-1)], upstream: upstream)
                    var last = ""
                    #expect(try eventuallyBlocking {
                        let refresh = try TestConnection.fetch(port: port, "POST", "/rates/refresh")
                        last = refresh.text
                        return refresh.status == 200
                    }, "\(last)")
                    #expect(try TestConnection.fetch(port: port, "/rates").json?["date"] as? String == Self.day(0))
                }
            }
        }
    }
}
