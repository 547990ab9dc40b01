import Foundation
import LarderHTTP
import LarderRates
import LarderServing

/// `GET /rates`, `GET /rates/{date}`, `GET /currencies` and `POST /rates/refresh` (SPEC §3).
public struct RatesRoutes: Sendable {
    let cache: RatesCache
    let adminToken: BearerToken?

    public init(cache: RatesCache, adminToken: String?) {
        self.cache = cache
        self.adminToken = adminToken.map(BearerToken.init)
    }

    public func register(on router: inout Router) {
        router.add(.get, "/rates", reads: ConditionalRequest.headers, .adaptive { request in
            if let (snapshot, state) = cached() { return .now(latest(request, snapshot, state)) }
            return whenFetched { snapshot, state in latest(request, snapshot, state) }
        })
        router.add(.get, "/rates/:date", .adaptive { request in
            if let (snapshot, state) = cached() { return .now(day(request, snapshot, state)) }
            return whenFetched { snapshot, state in day(request, snapshot, state) }
        })
        router.add(.get, "/currencies", reads: ConditionalRequest.headers, .adaptive { request in
            if let name = request.query.names.first {
                return .now(HTTPError.badRequest("/currencies takes no query parameters (got '\(name)')").response)
            }
            if let (snapshot, state) = cached() { return .now(snapshot.currencies.response(for: request, state: state)) }
            return whenFetched { snapshot, state in snapshot.currencies.response(for: request, state: state) }
        })
        router.add(.post, "/rates/refresh", .suspending { request in
            await refresh(request)
        })
    }

    /// The cached data and its state, with the hit counted and a due background refresh started;
    /// nil when nothing is cached. (Not a closure taking the answer: the hot path allocates nothing here.)
    private func cached() -> (RatesSnapshot, CacheState)? {
        guard let snapshot = cache.current else { return nil }
        let freshness = cache.refresher.freshness()
        cache.refresher.refreshIfDue(freshness)
        cache.events.hit("rates", stale: freshness.isExpired)
        return (snapshot, CacheState(freshness, fallback: snapshot.storedAt))
    }

    /// With nothing cached: waits for the fetch in flight, then answers (SPEC §4.5).
    private func whenFetched(_ answer: @escaping @Sendable (RatesSnapshot, CacheState) -> Response) -> Handler.Answer {
        cache.events.miss("rates")
        return .later { _ in
            // The first fetch may have landed since the check above: then no second fetch.
            if let snapshot = cache.current {
                return answer(snapshot, state(for: snapshot))
            }
            if let refusal = ColdCache.refusalWhileBackingOff(cache.refresher, what: "rates") {
                return refusal.response
            }
            // Start a fetch only if none landed meanwhile (checked atomically with joining one).
            let result = await cache.refresher.refresh(waitingAtMost: RatesCache.coldWait) { cache.current == nil }
            if let snapshot = cache.current {
                return answer(snapshot, state(for: snapshot))
            }
            return ColdCache.unavailable(result, what: "rates").response
        }
    }

    func state(for snapshot: RatesSnapshot) -> CacheState {
        CacheState(cache.refresher.freshness(), fallback: snapshot.storedAt)
    }

    private func latest(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState) -> Response {
        if request.query.isEmpty {
            return snapshot.latest.response(for: request, state: state)
        }
        // A query answered before needs no parsing again: only a valid one was kept.
        if let prepared = snapshot.conversion(RatesSnapshot.conversionKey(request.query)) {
            return prepared.response(for: request, state: state)
        }
        let query: RatesQuery
        do {
            query = try RatesQuery.parse(Array(request.query))
        } catch {
            return error.httpError.response
        }
        if query.isDefault {
            return snapshot.latest.response(for: request, state: state)
        }
        return converted(request, snapshot, query: query, state: state)
    }

    /// A conversion of the newest day: rendered once per distinct query, then served like `/rates`.
    private func converted(_ request: Request, _ snapshot: RatesSnapshot, query: RatesQuery, state: CacheState) -> Response {
        let key = RatesSnapshot.conversionKey(request.query)
        if let prepared = snapshot.conversion(key) {
            return prepared.response(for: request, state: state)
        }
        let body: [UInt8]
        do {
            body = try render(snapshot.set, query: query)
        } catch {
            return error.httpError.response
        }
        let prepared = snapshot.keep(key, PreparedAnswer(Representation(bytes: body, lastModified: snapshot.storedAt)))
        return prepared.response(for: request, state: state)
    }

    private func day(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState) -> Response {
        let text = request.parameters["date"] ?? ""
        guard let date = RateDate(text) else {
            return HTTPError.badRequest("'\(text.prefix(40))' is not a date: use YYYY-MM-DD").response
        }
        let query: RatesQuery
        do {
            query = try RatesQuery.parse(Array(request.query))
        } catch {
            return error.httpError.response
        }
        if snapshot.set.date <= date {
            if query.isDefault {
                return snapshot.latest.response(for: request, state: state)
            }
            return converted(request, snapshot, query: query, state: state)
        }
        let found: (RateSet, storedAt: Date)?
        do {
            found = try cache.set(onOrBefore: date)
        } catch {
            cache.logger.error("rates: cannot read \(date) from the store: \(error)")
            return HTTPError(.internalServerError, code: "store_error", message: "the rates store cannot be read").response
        }
        guard let (set, storedAt) = found else {
            return HTTPError.notFound("no rates are stored for \(date) or any earlier day").response
        }
        // A day older than the newest never changes again (SPEC §3).
        return converted(request, set, query: query, storedAt: storedAt, state: state, immutable: true)
    }

    private func converted(
        _ request: Request, _ set: RateSet, query: RatesQuery, storedAt: Date, state: CacheState, immutable: Bool = false
    ) -> Response {
        let body: [UInt8]
        do {
            body = try render(set, query: query)
        } catch {
            return error.httpError.response
        }
        let representation = Representation(bytes: body, lastModified: storedAt)
        return CachedAnswer.response(for: request, representation, state, immutable: immutable)
    }

    /// The JSON of `set` converted as `query` asks.
    private func render(_ set: RateSet, query: RatesQuery) throws(RatesQueryError) -> [UInt8] {
        let lines = try CrossRates.lines(for: set, query: query)
        return RatesJSON.rates(amount: query.amount, base: query.base ?? set.base, date: set.date, lines: lines)
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

extension RatesQueryError {
    var httpError: HTTPError {
        switch self {
        case .badRequest(let message): return HTTPError.badRequest(message)
        case .unprocessable(let message):
            return HTTPError(.unprocessableContent, code: "unprocessable", message: message)
        }
    }
}
