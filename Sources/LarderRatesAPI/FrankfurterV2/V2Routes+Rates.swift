import Foundation
import LarderFormats
import LarderFreshness
import LarderHTTP
import LarderRates
import LarderServing

extension V2Routes {
    /// Past this many days a range is streamed rather than prepared and kept (the ECB's whole history is over 20 MB).
    static let streamedRangeDays = 5 * 366

    /// `/v2/rates` (JSON, or NDJSON for `Accept: application/x-ndjson`), `/v2/rates.csv` and `/v2/rate/{base}/{quote}`.
    func registerRates(on router: inout Router) {
        let reads = PreparedAnswer.requestHeaders + ["Accept"]
        for (path, csv) in [("/v2/rates", false), ("/v2/rates.csv", true)] {
            router.add(.get, path, reads: reads, readsQuery: true, cors: cors, .adaptive { request in
                // No closure on the hot path: a cached answer allocates nothing here.
                if let (snapshot, state) = serving.cached() {
                    if let kept = kept(request, snapshot, state, csvPath: csv) { return .now(kept.response(for: request, state: state)) }
                    // A mirror's rows are read from the store: an answer not prepared yet is made off the server's threads.
                    if snapshot.mirror == nil { return .now(rates(request, snapshot, state, csvPath: csv)) }
                    return .later { request in await cache.offload { rates(request, snapshot, state, csvPath: csv) } }
                }
                return serving.whenFetched { snapshot, state in rates(request, snapshot, state, csvPath: csv) }
            })
        }
        router.add(.get, "/v2/rate/:base/:quote", cors: cors, .adaptive { request in
            if let (snapshot, state) = serving.cached(), snapshot.mirror != nil {
                return .later { request in await cache.offload { rate(request, snapshot, state) } }
            }
            return serving.answer { snapshot, state in rate(request, snapshot, state) }
        })
    }

    /// The answer made already (no rows to read): the serving day's default one, or one kept by its query.
    private func kept(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState, csvPath: Bool) -> PreparedAnswer? {
        let format = V2RatesFormat.of(request, csvPath: csvPath)
        let day = serving.day(state)
        if request.query.isEmpty, format == .json { return snapshot.v2.kept(today: day.today.dayNumber) }
        return snapshot.answers.answer(Self.key(request, format, day))
    }

    /// Where a query's prepared answer is kept in the snapshot's answers.
    private static func key(_ request: Request, _ format: V2RatesFormat, _ day: ServingDay) -> String {
        RatesSnapshot.queryKey(request.query, after: "v2\u{3}\(format.rawValue)\u{3}\(day.key)\u{3}")
    }

    private func rates(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState, csvPath: Bool) -> Response {
        let format = V2RatesFormat.of(request, csvPath: csvPath)
        let day = serving.day(state)
        let v2 = snapshot.v2
        if request.query.isEmpty, format == .json {
            return v2.latest(today: day.today.dayNumber) { prepare(V2RatesQuery(), snapshot, format, day: day, vary: "Accept") }
                .response(for: request, state: state)
        }
        let key = Self.key(request, format, day)
        if let prepared = snapshot.answers.answer(key) {
            return prepared.response(for: request, state: state)
        }
        do throws(V2Error) {
            let query = try V2RatesQuery(request.query, isKnown: V2SnapshotState.isKnown)
            let plan = try query.plan(provider: provider, on: day)
            if case .range(let start, let end) = plan.scope, plan.group == nil, end - start > Self.streamedRangeDays {
                return streamed(request, plan, format, snapshot, state, key: key)
            }
            return snapshot.answers.keep(key, prepare(query, snapshot, format, day: day, vary: csvPath ? nil : "Accept"))
                .response(for: request, state: state)
        } catch {
            return error.response
        }
    }

    /// The whole answer rendered once, with the validators and caching every answer of the snapshot has.
    /// `vary` is `Accept` on `/v2/rates`, whose form the request's `Accept` chooses.
    private func prepare(
        _ query: V2RatesQuery, _ snapshot: RatesSnapshot, _ format: V2RatesFormat, day: ServingDay, vary: String?
    ) -> PreparedAnswer {
        // A valid query always plans: only the range cost can refuse, and it is checked before.
        guard let plan = try? query.plan(provider: provider, on: day) else {
            return PreparedAnswer(Representation(bytes: [], lastModified: snapshot.storedAt))
        }
        var records: [UInt8] = []
        var count = 0
        plan.each(snapshot.v2.sources) { record in
            format.append(record, index: count, expanded: plan.expandProviders, into: &records)
            count += 1
        }
        let body = Array(format.head(range: plan.isRange, expanded: plan.expandProviders, empty: count == 0).utf8)
            + records + Array(format.tail.utf8)
        return PreparedAnswer(
            Representation(bytes: body, contentType: format.contentType, lastModified: snapshot.v2.lastModified),
            immutable: isClosed(query, plan, newest: snapshot.set.date.dayNumber), vary: vary)
    }

    /// A day before the newest stored day, or a range that ended before it, never changes again (a week
    /// or month bucket may hold days after its date, so those wait until a month has passed); a date
    /// answered as the serving day does, once the upstream is back.
    private func isClosed(_ query: V2RatesQuery, _ plan: V2RatesPlan, newest: Int) -> Bool {
        switch plan.scope {
        case .day(let day):
            return query.date?.dayNumber == day && day < newest
        case .range(_, let end):
            guard query.to?.dayNumber == end else { return false }
            return plan.group == nil ? end < newest : end + 40 < newest
        }
    }

    private func streamed(
        _ request: Request, _ plan: V2RatesPlan, _ format: V2RatesFormat, _ snapshot: RatesSnapshot, _ state: CacheState,
        key: String
    ) -> Response {
        let v2 = snapshot.v2
        let lastModified = WholeSeconds.since1970(v2.lastModified)
        // Strong: the same stored days and the same query give the same bytes. A mirror's rows are never
        // rewritten, so their count versions them, the same on every Larder of a tier; a feed's day can be
        // revised in place, so its history is versioned by when it last changed here.
        let version = snapshot.mirror != nil ? v2.version : "\(lastModified)"
        let etag = Representation.etag(for: Array("\(key)\u{3}\(snapshot.set.date)\u{3}\(version)\u{3}\(snapshot.history.count)".utf8))
        var headers = HTTPHeaders()
        headers.add("ETag", etag)
        headers.add("Last-Modified", HTTPDate.format(secondsSince1970: lastModified))
        for field in state.headers(immutable: false) { headers.add(field.name, field.value) }
        headers.add("Vary", "Accept")
        if ConditionalRequest.isNotModified(request.headers, etag: etag, lastModified: lastModified) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", format.contentType)
        return Response(status: .ok, headers: headers, body: .stream(V2RatesStream(plan: plan, format: format, v2: v2).body))
    }

    /// `/v2/rate/{base}/{quote}`: the first row of that query, or 404.
    private func rate(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState) -> Response {
        let base = (request.parameters["base"] ?? "").uppercased()
        // Frankfurter's type routing takes the extension off the path: `/v2/rate/EUR/USD.csv` is the JSON answer.
        var quote = (request.parameters["quote"] ?? "").uppercased()
        if quote.hasSuffix(".CSV") { quote.removeLast(4) }
        let day = serving.day(state)
        let key = RatesSnapshot.queryKey(request.query, after: "v2rate\u{3}\(base)\u{3}\(quote)\u{3}\(day.key)\u{3}")
        if let prepared = snapshot.answers.answer(key) {
            return prepared.response(for: request, state: state)
        }
        do throws(V2Error) {
            let query = try V2RatesQuery(
                request.query, overrides: [("base", base), ("quotes", quote)], isKnown: V2SnapshotState.isKnown)
            let plan = try query.plan(provider: provider, on: day)
            var first: V2Record?
            plan.each(snapshot.v2.sources) { record in
                if first == nil { first = record }
            }
            guard let first else { return V2Error.notFound.response }
            var body: [UInt8] = []
            first.json(into: &body)
            let prepared = PreparedAnswer(
                Representation(bytes: body, contentType: V2RatesFormat.json.contentType, lastModified: snapshot.v2.lastModified),
                immutable: isClosed(query, plan, newest: snapshot.set.date.dayNumber))
            return snapshot.answers.keep(key, prepared).response(for: request, state: state)
        } catch {
            return error.response
        }
    }
}
