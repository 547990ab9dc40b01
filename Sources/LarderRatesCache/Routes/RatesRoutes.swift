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
        router.add(.get, "/rates", .adaptive { request in
            serveWhenCached(request) { snapshot in latest(request, snapshot) }
        })
        router.add(.get, "/rates/:date", .adaptive { request in
            serveWhenCached(request) { snapshot in day(request, snapshot) }
        })
        router.add(.get, "/currencies", .adaptive { request in
            if let name = request.query.names.first {
                return .now(HTTPError.badRequest("/currencies takes no query parameters (got '\(name)')").response)
            }
            return serveWhenCached(request) { snapshot in
                snapshot.currencies.response(for: request, state: state(for: snapshot))
            }
        })
        router.add(.post, "/rates/refresh", .suspending { request in
            await refresh(request)
        })
    }

    /// Answers from the cached data at once; with nothing cached, waits for the fetch in flight (SPEC §4.5).
    private func serveWhenCached(
        _ request: Request, _ answer: @escaping @Sendable (RatesSnapshot) -> Response
    ) -> Handler.Answer {
        if let snapshot = cache.current {
            cache.refresher.refreshIfDue()
            cache.events.hit("rates", stale: cache.refresher.isExpired)
            return .now(answer(snapshot))
        }
        cache.events.miss("rates")
        return .later { _ in
            // The first fetch may have landed since the check above: then no second fetch.
            if let snapshot = cache.current {
                return answer(snapshot)
            }
            if let refusal = ColdCache.refusalWhileBackingOff(cache.refresher, what: "rates") {
                return refusal.response
            }
            // Start a fetch only if none landed meanwhile (checked atomically with joining one).
            let result = await cache.refresher.refresh(waitingAtMost: RatesCache.coldWait) { cache.current == nil }
            if let snapshot = cache.current {
                return answer(snapshot)
            }
            return ColdCache.unavailable(result, what: "rates").response
        }
    }

    func state(for snapshot: RatesSnapshot) -> CacheState {
        CacheState(cache.refresher, fetchedAt: cache.refresher.fetchedAt ?? snapshot.storedAt)
    }

    private func latest(_ request: Request, _ snapshot: RatesSnapshot) -> Response {
        let query: RatesQuery
        do {
            query = try RatesQuery.parse(Array(request.query))
        } catch {
            return error.httpError.response
        }
        if query.isDefault {
            return snapshot.latest.response(for: request, state: state(for: snapshot))
        }
        return converted(request, snapshot.set, query: query, storedAt: snapshot.storedAt, state: state(for: snapshot))
    }

    private func day(_ request: Request, _ snapshot: RatesSnapshot) -> Response {
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
                return snapshot.latest.response(for: request, state: state(for: snapshot))
            }
            return converted(request, snapshot.set, query: query, storedAt: snapshot.storedAt, state: state(for: snapshot))
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
        return converted(request, set, query: query, storedAt: storedAt, state: state(for: snapshot), immutable: true)
    }

    private func converted(
        _ request: Request, _ set: RateSet, query: RatesQuery, storedAt: Date, state: CacheState, immutable: Bool = false
    ) -> Response {
        let lines: [CrossRates.Line]
        do {
            lines = try CrossRates.lines(for: set, query: query)
        } catch {
            return error.httpError.response
        }
        let body = RatesJSON.rates(amount: query.amount, base: query.base ?? set.base, date: set.date, lines: lines)
        let representation = Representation(bytes: body, lastModified: storedAt)
        return CachedAnswer.response(for: request, representation, state, immutable: immutable)
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
