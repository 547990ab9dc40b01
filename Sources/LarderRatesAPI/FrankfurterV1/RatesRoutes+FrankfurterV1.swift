import Foundation
import LarderFreshness
import LarderHTTP
import LarderRates
import LarderServing

/// Frankfurter v1's answers (`lib/versions/v1.rb`): its query rules, its conversion and rounding
/// (`FrankfurterV1Rates`), its 14-day lookback for a day, and its `{"message":"…"}` errors. The
/// unconverted answers are the same bytes as Larder's own routes. Dates after the serving day are
/// answered as that day while the copy is stale (`ServingDay`).
extension RatesRoutes {
    /// Frankfurter v1's routes: `/latest` (`/current`), `/currencies`, `/{date}` and its ranges, each
    /// also under `/v1`; their unconverted answers are the same bytes as Larder's own routes.
    func registerFrankfurterV1(on router: inout Router) {
        for path in ["/latest", "/current", "/v1/latest", "/v1/current"] {
            router.add(.get, path, reads: PreparedAnswer.requestHeaders, readsQuery: true, cors: cors, .adaptive { request in
                if let (snapshot, state) = cached() { return .now(v1Latest(request, snapshot, state)) }
                return whenFetched { snapshot, state in v1Latest(request, snapshot, state) }
            })
        }
        for path in ["/currencies", "/v1/currencies"] {
            // Frankfurter ignores any query here, and so does Larder: the names of the newest day.
            router.add(.get, path, reads: PreparedAnswer.requestHeaders, readsQuery: true, cors: cors, .adaptive { request in
                if let (snapshot, state) = cached() { return .now(snapshot.currencies.response(for: request, state: state)) }
                return whenFetched { snapshot, state in snapshot.currencies.response(for: request, state: state) }
            })
        }
        for path in ["/:date", "/v1/:date"] {
            router.add(.get, path, cors: cors, accepts: Self.dateShaped, .adaptive { request in
                if let (snapshot, state) = cached() { return .now(v1Selected(request, snapshot, state)) }
                return whenFetched { snapshot, state in v1Selected(request, snapshot, state) }
            })
        }
    }

    /// Frankfurter carries each currency forward this many days: a day with no stored day this close
    /// before it is "not found" (`lib/carry_forward.rb`).
    static let v1Lookback = 14

    /// `/latest` and `/current`, at the root and under `/v1`.
    func v1Latest(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState) -> Response {
        if request.query.isEmpty {
            return snapshot.latest.response(for: request, state: state)
        }
        let key = RatesSnapshot.queryKey(request.query, after: "v1latest\u{3}")
        if let prepared = snapshot.answers.answer(key) {
            return prepared.response(for: request, state: state)
        }
        do throws(FrankfurterV1Error) {
            let query = try FrankfurterV1Query.parse(request.query)
            try query.checkPair()
            return try v1Day(snapshot.history.count - 1, request, snapshot, state, query: query, key: key)
        } catch {
            return error.response
        }
    }

    /// `/{date}`, `/{start}..{end}` and `/{start}..`, at the root and under `/v1`.
    func v1Selected(_ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState) -> Response {
        let path = request.parameters["date"] ?? ""
        let day = serving.day(state)
        let key = "v1selected\u{3}" + (day.isOffline ? day.key : "") + "\u{3}" + path + "\u{3}"
            + RatesSnapshot.queryKey(request.query)
        if let prepared = snapshot.answers.answer(key) {
            return prepared.response(for: request, state: state)
        }
        do throws(FrankfurterV1Error) {
            // Frankfurter's order: the amount, then the dates, then the pair.
            let query = try FrankfurterV1Query.parse(request.query)
            let (start, end, isRange) = try Self.v1Dates(path)
            try query.checkPair()
            if !isRange {
                let answered = day.answering(start)
                return try v1Day(
                    v1DayIndex(answered, snapshot.history), request, snapshot, state, query: query, key: key,
                    final: answered == start)
            }
            return try v1Series(start, end, day, request, snapshot, state, query: query, key: key)
        } catch {
            return error.response
        }
    }

    /// The start and end of a path (equal for a day; end nil for an open range), or `invalid date`.
    private static func v1Dates(_ path: String) throws(FrankfurterV1Error) -> (RateDate, RateDate?, Bool) {
        let parts = path.components(separatedBy: "..")
        guard let start = RateDate(parts[0]) else { throw .invalidDate }
        guard parts.count == 2 else { return (start, start, false) }
        if parts[1].isEmpty { return (start, nil, true) }
        guard let end = RateDate(parts[1]) else { throw .invalidDate }
        return (start, end, true)
    }

    /// The stored day a date answers: the latest on or before it, if within the lookback.
    private func v1DayIndex(_ date: RateDate, _ history: RatesHistory) throws(FrankfurterV1Error) -> Int {
        let earliest = RateDate(containing: date.startInstant.addingTimeInterval(-Double(Self.v1Lookback) * 86_400))
        guard let index = history.index(onOrBefore: date), history.days[index].date >= earliest else {
            throw .notFound
        }
        return index
    }

    /// `final`: false for a date answered as an earlier one, whose answer changes once the upstream is back.
    private func v1Day(
        _ index: Int, _ request: Request, _ snapshot: RatesSnapshot, _ state: CacheState, query: FrankfurterV1Query,
        key: String, final: Bool = true
    ) throws(FrankfurterV1Error) -> Response {
        let history = snapshot.history
        let newest = index == history.count - 1
        if newest, query.isPublished(base: snapshot.set.base) {
            return snapshot.latest.response(for: request, state: state)
        }
        guard let set = newest ? snapshot.set : history.set(at: index) else {
            return unreadable(history.days[index].date)
        }
        let body: [UInt8]
        if query.isPublished(base: set.base) {
            body = RatesJSON.rates(for: set)
        } else {
            guard let lines = try FrankfurterV1Rates.lines(for: set, query: query) else { throw .notFound }
            body = RatesJSON.rates(
                amountText: FrankfurterV1Rates.amountText(query), base: query.base ?? set.base, date: set.date, lines: lines)
        }
        let storedAt = newest ? snapshot.storedAt : history.days[index].storedAt
        // A day older than the newest never changes again (SPEC §3).
        let prepared = snapshot.answers.keep(
            key, PreparedAnswer(Representation(bytes: body, lastModified: storedAt), immutable: !newest && final))
        return prepared.response(for: request, state: state)
    }

    /// A range: from the latest stored day on or before the start (or the first) to the end (or the
    /// serving day), each day converted on its own and left out when nothing of it is left; "not found"
    /// when no day is.
    private func v1Series(
        _ asked: RateDate, _ end: RateDate?, _ day: ServingDay, _ request: Request, _ snapshot: RatesSnapshot,
        _ state: CacheState, query: FrankfurterV1Query, key: String
    ) throws(FrankfurterV1Error) -> Response {
        let history = snapshot.history
        let today = day.today
        let start = day.answering(asked)
        guard start <= today else { throw .notFound }
        let startIndex = history.index(onOrBefore: start) ?? 0
        guard let endIndex = history.index(onOrBefore: end.map(day.answering) ?? today), endIndex >= startIndex else {
            throw .notFound
        }
        var converted = query
        converted.base = query.base ?? snapshot.set.base
        var days: [(RateDate, ArraySlice<UInt8>)] = []
        var lastModified = Date.distantPast
        let published = history.hasOneBase && converted.isPublished(base: history.days[startIndex].base)
        for index in startIndex...endIndex {
            if published {
                days.append((history.days[index].date, history.object(at: index)))
            } else {
                guard let set = history.set(at: index), let lines = try FrankfurterV1Rates.lines(for: set, query: converted)
                else { continue }
                days.append((set.date, RatesJSON.object(lines: lines)[...]))
            }
            lastModified = max(lastModified, history.days[index].storedAt)
        }
        guard let first = days.first, let last = days.last else { throw .notFound }
        let body = RatesJSON.series(
            amountText: FrankfurterV1Rates.amountText(query), base: converted.base!, start: first.0, end: last.0,
            days: days)
        let immutable = end.map { $0 < snapshot.set.date && day.answering($0) == $0 } ?? false
        let prepared = snapshot.answers.keep(
            key, PreparedAnswer(Representation(bytes: body, lastModified: lastModified), immutable: immutable))
        return prepared.response(for: request, state: state)
    }
}
