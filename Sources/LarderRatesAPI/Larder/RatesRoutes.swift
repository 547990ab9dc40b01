import Foundation
import LarderFreshness
public import LarderHTTP
import LarderRates
import LarderServing
import Logging

/// The rates routes (SPEC §3): Larder's own `/rates`, `/rates/{date}`, `/rates/{start}..{end}` and
/// `POST /rates/refresh`, with Larder's conversion and errors; and Frankfurter v1's `/latest`
/// (`/current`), `/{date}`, `/{start}..{end}`, `/{start}..` and `/currencies`, each also under `/v1`,
/// with Frankfurter's (`RatesRoutes+FrankfurterV1.swift`). Unconverted answers are the same bytes on both.
public struct RatesRoutes: Sendable {
    let cache: any RatesSource
    let adminToken: BearerToken?
    let cors: CORSPolicy

    public init(cache: any RatesSource, adminToken: String?, cors: CORSPolicy = .anyOrigin) {
        self.cache = cache
        self.adminToken = adminToken.map(BearerToken.init)
        self.cors = cors
        serving = SnapshotServing(cache: cache)
    }

    public func register(on router: inout Router) {
        router.add(.post, "/rates/refresh", .suspending { request in
            await refresh(request)
        })
        // Cross rates (`?base=…&symbols=…`) read the same headers: lean with their query too.
        router.add(.get, "/rates", reads: PreparedAnswer.requestHeaders, readsQuery: true, cors: cors, .adaptive { request in
            if let (snapshot, state) = cached() { return .now(latest(request, snapshot, state)) }
            return whenFetched { snapshot, state in latest(request, snapshot, state) }
        })
        // Dates and ranges take date-shaped segments only: the root and `/v1` leave `/nowhere` a 404,
        // and `/rates/{anything else}` falls to the route without a rule, Larder's 400, which no page needs
        // to read (so it has no preflight either).
        for (path, accepts, cors) in [("/rates/:date", Self.dateShaped, cors), ("/rates/:date", nil, CORSPolicy.none)] {
            router.add(.get, path, cors: cors, accepts: accepts, .adaptive { request in
                if let (snapshot, state) = cached() { return .now(selected(request, snapshot, state)) }
                return whenFetched { snapshot, state in selected(request, snapshot, state) }
            })
        }
        registerFrankfurterV1(on: &router)
    }

    /// Takes date-shaped segments only (`2026-11-20`, `2026-01-01..2026-11-20`, `2026-01-01..`).
    static let dateShaped: Router.ParameterRule = { _, value in DateSelection.looksLikeSelection(value) }

    /// The cached data and its state (`SnapshotServing.cached`).
    func cached() -> (RatesSnapshot, CacheState)? { serving.cached() }

    /// With nothing cached: the answer after the first fetch (`SnapshotServing.whenFetched`).
    func whenFetched(_ answer: @escaping @Sendable (RatesSnapshot, CacheState) -> Response) -> Handler.Answer {
        serving.whenFetched(answer)
    }

    let serving: SnapshotServing

    /// The newest day, as published or converted.
    private func latest(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState) -> Response {
        if request.query.isEmpty {
            return snapshot.latest.response(for: request, state: state)
        }
        // A query answered before needs no parsing again: only a valid one was kept.
        let key = RatesSnapshot.queryKey(request.query, after: "latest\u{3}")
        if let prepared = snapshot.answers.answer(key) {
            return prepared.response(for: request, state: state)
        }
        do throws(RatesQueryError) {
            let query = try RatesQuery.parse(Array(request.query))
            return try latest(request, snapshot, state, query: query, key: key)
        } catch {
            return error.httpError.response
        }
    }

    private func latest(
        _ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState, query: RatesQuery, key: String
    ) throws(RatesQueryError) -> Response {
        if query.isDefault {
            return snapshot.latest.response(for: request, state: state)
        }
        let body = RatesJSON.rates(
            amount: query.amount, base: query.base ?? snapshot.set.base, date: snapshot.set.date,
            lines: try CrossRates.lines(for: snapshot.set, query: query))
        let prepared = snapshot.answers.keep(
            key, PreparedAnswer(Representation(bytes: body, lastModified: snapshot.storedAt)))
        return prepared.response(for: request, state: state)
    }

    /// `/{date}`, `/{start}..{end}` and `/{start}..` under any prefix.
    private func selected(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState) -> Response {
        // Within one snapshot the path's date part and the query decide the answer: one asked
        // before needs no parsing again (only valid ones are kept).
        let queryKey = RatesSnapshot.queryKey(request.query)
        let key = "selected\u{3}" + (request.parameters["date"] ?? "") + "\u{3}" + queryKey
        if let prepared = snapshot.answers.answer(key) {
            return prepared.response(for: request, state: state)
        }
        do throws(RatesQueryError) {
            let selection = try DateSelection.parse(request.parameters["date"] ?? "")
            let query = try RatesQuery.parse(Array(request.query))
            switch selection {
            case .day(let date):
                return try day(date, request, snapshot, state, query: query, queryKey: queryKey, key: key)
            case .range(let start, let end):
                return try series(start, end, request, snapshot, state, query: query, key: key)
            }
        } catch {
            return error.httpError.response
        }
    }

    /// A day: the stored day or the latest before it; the newest day for any later date (SPEC §3).
    private func day(
        _ date: RateDate, _ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState, query: RatesQuery,
        queryKey: String, key: String
    ) throws(RatesQueryError) -> Response {
        let history = snapshot.history
        guard let index = history.index(onOrBefore: date) else {
            return HTTPError.notFound("no rates are stored for \(date) or any earlier day").response
        }
        if index == history.count - 1 {
            return try latest(request, snapshot, state, query: query, key: "latest\u{3}" + queryKey)
        }
        guard let set = history.set(at: index) else { return unreadable(history.days[index].date) }
        let body = RatesJSON.rates(
            amount: query.amount, base: query.base ?? set.base, date: set.date,
            lines: try CrossRates.lines(for: set, query: query))
        // A day older than the newest never changes again (SPEC §3).
        let prepared = snapshot.answers.keep(key, PreparedAnswer(
            Representation(bytes: body, lastModified: history.days[index].storedAt), immutable: true))
        return prepared.response(for: request, state: state)
    }

    /// A time series from the stored history: the start snaps back to the nearest earlier stored
    /// day, an open or future end is the newest day, and a range that ended before the newest day
    /// never changes again.
    private func series(
        _ start: RateDate, _ end: RateDate?, _ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState,
        query: RatesQuery, key: String
    ) throws(RatesQueryError) -> Response {
        let history = snapshot.history
        let newest = snapshot.set.date
        let last = min(end ?? newest, newest)
        guard let endIndex = history.index(onOrBefore: last) else {
            return HTTPError.notFound("no rates are stored for \(last) or any earlier day").response
        }
        let startIndex = history.index(onOrBefore: start) ?? 0
        let immutable = end.map { $0 < newest } ?? false
        let body = try RatesSeries.render(
            history, startIndex...endIndex, query: query, newestBase: snapshot.set.base)
        let prepared = snapshot.answers.keep(key, PreparedAnswer(
            Representation(bytes: body.bytes, lastModified: body.lastModified), immutable: immutable))
        return prepared.response(for: request, state: state)
    }

    func unreadable(_ date: RateDate) -> Response {
        cache.logger.error("rates: the stored day \(date) no longer reads as rates")
        return HTTPError(.internalServerError, code: "store_error", message: "the stored rates of \(date) cannot be read")
            .response
    }

    private func refresh(_ request: Request) async -> Response {
        if let refusal = adminToken?.refusal(for: request) {
            return refusal.response
        }
        if let name = request.query.names.first {
            return HTTPError.badRequest("POST /rates/refresh takes no query parameters (got '\(name)')").response
        }
        switch await cache.refresher.refresh() {
        case .success(let outcome):
            return RefreshAnswer.ok(outcome)
        case .failure(let error):
            return error.response(unchanged: "the cached rates are")
        case nil:
            return HTTPError.serviceUnavailable("the refresh was cancelled: larder is stopping", retryAfterSeconds: 5)
                .response
        }
    }
}
