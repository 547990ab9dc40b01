import Foundation
import LarderApp
import LarderConfig
import LarderFormats
import LarderFreshness
import LarderHTTP
import LarderMetrics
import LarderRates
import LarderRatesCache
import LarderServing
import LarderStore

extension FuzzTarget {
    /// The rates from upstream bytes to every answer, through the real modules: a first payload
    /// stored, a second one merged over it a while later (each parsed, bounded and merged by a real
    /// refresh into a real store), the schedule (ECB calendar or TTL) on the input's clock, then the
    /// input's requests answered by Larder's router — both rates dialects, days, ranges,
    /// conversions, `/currencies` and the status page.
    ///
    /// The input, one item a line: the instant (RFC 3339, or seconds since 1970); the settings
    /// (`format schedule ttl-seconds poll-seconds gap-seconds`, each optional); the request targets,
    /// space-separated (`path?query`, `#gzip`, `#ims=…`); then the first payload, and after a line of
    /// `===` the second.
    ///
    /// Every answer: a status other than a 5xx but 502/503/504; JSON that reads, of the documented
    /// shape; every day it names within SPEC §4.11's bounds; `Last-Modified` not after the clock's
    /// now (the `Date` a server would send), `Expires` not before it while `max-age` is positive; the
    /// page's HTML balanced, of the page's own elements only. The calendar's next publication comes
    /// after the newest stored day, and every instant the schedule gives is finite.
    static let ratesPipeline = FuzzTarget("rates-pipeline") { input throws(PropertyViolation) in
        let scene = Pipeline.Scene(input, lines: 4, requests: ["/rates", "/latest?base=USD", "/rates/2000-01-01..", "/#html"])
        let format = scene.words.first.flatMap(RatesFormat.init(rawValue:)) ?? .auto
        let schedule = scene.words.count > 1 ? RatesSchedule(rawValue: scene.words[1]) ?? .auto : .auto
        let payloads = Pipeline.bodies(scene.rest[0], 2)
        try Pipeline.withScratch { directory throws(PropertyViolation) in
            let rates = RatesScene(
                directory: directory, now: scene.now, format: format, schedule: schedule,
                ttl: scene.seconds(2, in: 1...31_536_000, fallback: 3600), poll: scene.seconds(3, in: 1...86_400, fallback: 600),
                gap: scene.seconds(4, in: 0...31_536_000, fallback: 86_400), payloads: payloads)
            try rates.run(scene.requests)
        }
    }
}

/// One input's rates Larder.
struct RatesScene {
    static let feedURL = "http://upstream.test/rates"
    /// Made once: registering the same metrics again is refused by the registry.
    static let metrics = LarderMetrics(resources: [.rates, .documents, .document], version: "fuzz", libmicrohttpd: "fuzz")

    let directory: String
    let now: Date
    let format: RatesFormat
    let schedule: RatesSchedule
    let ttl: Int
    let poll: Int
    let gap: Int
    let payloads: [[UInt8]]

    func run(_ requests: [Request]) throws(PropertyViolation) {
        var configuration = Configuration()
        configuration.cacheDirectory = directory
        configuration.rates = UpstreamResource(url: Self.feedURL, format: format)
        configuration.ratesTTL = .seconds(ttl)
        configuration.ratesSchedule = schedule
        configuration.ratesPollInterval = .seconds(poll)
        let first = now.addingTimeInterval(-Double(payloads.count > 1 ? gap : 0))
        let clock = PipelineClock(first)
        let upstream = InMemoryUpstream(feedURL: Self.feedURL, feed: payloads)
        let cache: RatesCache
        let store: Store
        do {
            store = try Store(directory: directory, logger: Pipeline.logger)
            cache = try RatesCache(
                RatesCache.Settings(
                    upstream: UpstreamResource(url: Self.feedURL, format: format), ttl: .seconds(ttl), schedule: schedule,
                    pollInterval: .seconds(poll)),
                store: store, client: upstream, clock: clock, events: Self.metrics, logger: Pipeline.logger)
        } catch {
            throw PropertyViolation(message: "the cache does not open on an empty store: \(error)")
        }
        // Each payload through a real refresh: parse, bounds, merge into the store, publish, schedule.
        for position in payloads.indices {
            clock.set(position == payloads.count - 1 ? now : first)
            _ = Pipeline.wait { await cache.refresher.refresh() }
            try checkSchedule(cache)
        }
        let router = LarderApplication.router(
            configuration: configuration, rates: cache, documents: nil, metrics: Self.metrics, startedAt: first,
            blocking: store.blocking)
        let bounds = RateBounds(format: format, now: now)
        try Pipeline.serve(requests, router, now: now) { request, response, body, what throws(PropertyViolation) in
            guard let json = try Pipeline.readJSON(response, body, what), Self.isRatesRoute(request.segments) else { return }
            try checkAnswer(json, request, bounds: bounds, what)
        }
    }

    /// A path the rates routes answer (not `/status`, `/health` and the like).
    static func isRatesRoute(_ segments: [String]) -> Bool {
        guard let first = segments.first else { return false }
        // `/v1` itself and `/v1/openapi.json` are indexes, not rates.
        if first == "v1", segments.count < 2 || segments[1] == "openapi.json" { return false }
        return ["rates", "latest", "current", "v1", "currencies"].contains(first)
            || (segments.count == 1 && DateSelection.looksLikeSelection(first))
    }

    /// The calendar's next publication after the newest stored day; every instant finite.
    private func checkSchedule(_ cache: RatesCache) throws(PropertyViolation) {
        let freshness = cache.refresher.freshness()
        for instant in [freshness.fetchedAt, freshness.expiresAt].compactMap({ $0 }) {
            try expect(instant.timeIntervalSince1970.isFinite, "an instant of the schedule is not finite")
        }
        if let fetchedAt = freshness.fetchedAt {
            let next = cache.refresher.schedule.nextContact(fetchedAt: fetchedAt)
            try expect(next.timeIntervalSince1970.isFinite && next > fetchedAt,
                       "the next contact \(next) is not after the contact at \(fetchedAt)")
        }
        let publication = cache.publicationSchedule
        guard publication.schedule == "ecb", let next = publication.nextPublication,
              let newest = cache.summary.latestDate.flatMap(RateDate.init) else { return }
        try expect(next.timeIntervalSince1970.isFinite && next > newest.startInstant.addingTimeInterval(86_400),
                   "the next publication \(next) is not after the newest stored day \(newest)")
    }

    /// A 200 of the rates routes: Frankfurter's shapes, every day within bounds.
    private func checkAnswer(_ json: JSONValue, _ request: Request, bounds: RateBounds, _ what: String) throws(PropertyViolation) {
        guard case .object(let members) = json else { throw PropertyViolation(message: "\(what): \(json.kind)") }
        if request.segments.last == "currencies" {
            for (code, name) in members {
                try expect(CurrencyRate.isValidCode(code), "\(what): currency \(code.debugDescription)")
                // Always a name, as Frankfurter's schema asks: the table's, the feed's, or the code.
                guard case .string(let text) = name, !text.isEmpty else {
                    throw PropertyViolation(message: "\(what): \(code) is named by \(name.kind)")
                }
            }
            return
        }
        let earliest = format == .auto ? RateBounds.earliest(for: .json) : bounds.earliest
        func day(_ value: JSONValue?, _ name: String) throws(PropertyViolation) {
            guard case .string(let text) = value, let date = RateDate(text) else {
                throw PropertyViolation(message: "\(what): \(name) is not a day")
            }
            try expect(earliest <= date && date <= bounds.latest, "\(what): \(name) \(date) outside \(earliest)...\(bounds.latest)")
        }
        guard case .number = members["amount"], case .string(let base) = members["base"], CurrencyRate.isValidCode(base),
              case .object(let rates) = members["rates"] else {
            throw PropertyViolation(message: "\(what): not a rates answer: \(members.keys.sorted())")
        }
        if members["date"] != nil {
            try day(members["date"], "date")
            for (code, value) in rates {
                guard CurrencyRate.isValidCode(code), case .number = value else {
                    throw PropertyViolation(message: "\(what): rate \(code.debugDescription)")
                }
            }
        } else {
            try day(members["start_date"], "start_date")
            try day(members["end_date"], "end_date")
            for (key, value) in rates {
                try day(.string(key), "day \(key)")
                guard case .object = value else { throw PropertyViolation(message: "\(what): \(key) holds \(value.kind)") }
            }
        }
    }
}
