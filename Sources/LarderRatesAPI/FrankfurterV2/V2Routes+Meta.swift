import Foundation
import LarderHTTP
import LarderRates
import LarderServing

extension V2Routes {
    /// Frankfurter's `/v2` answer, whatever the query.
    static let index = Array(
        #"{"version":"v2","status":"current","openapi":"/v2/openapi.json","docs":"https://frankfurter.dev"}"#.utf8)

    /// The metadata routes over the stored history (`V2Catalog`): `/v2` (and `/v2/`),
    /// `/v2/currencies`, `/v2/currency/{code}`, `/v2/providers`, with the longer paths Frankfurter's
    /// router answers the same (`/v2/currencies/…` lists, `/v2/currency/USD/…` is USD).
    func registerMeta(on router: inout Router) {
        router.add(.get, "/v2", cors: cors, .immediate { _ in Self.indexResponse })
        // `/v2/` has one empty segment after `v2`.
        router.add(.get, "/v2/*rest", cors: cors, accepts: { _, rest in rest.isEmpty }, .immediate { _ in Self.indexResponse })
        for path in ["/v2/currencies", "/v2/currencies/*rest"] {
            router.add(.get, path, cors: cors, .adaptive { request in
                catalogAnswer(request, "currencies") { catalog, today in
                    catalog.currencies(
                        scope: request.query.last("scope"), providers: request.query.last("providers"), today: today)
                }
            })
        }
        for path in ["/v2/currency/:code", "/v2/currency/:code/*rest"] {
            router.add(.get, path, cors: cors, .adaptive { request in
                let code = (request.parameters["code"] ?? "").uppercased()
                return catalogAnswer(request, "currency\u{3}" + code) { catalog, _ in catalog.currency(code) }
            })
        }
        // Its `ETag` covers every row too: a replica asks this one conditional request when nothing changed.
        router.add(.get, "/v2/providers", cors: cors, .adaptive { request in
            catalogAnswer(request, "providers", versioned: true) { catalog, today in catalog.providers(today: today) }
        })
    }

    private static let indexResponse = Response(
        headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=86400"],
        body: .bytes(SharedBytes(index)))

    /// What `render` answers for the newest snapshot and the serving day (kept per snapshot, day and query),
    /// Frankfurter's 404 when it answers nothing, its 406 for a path ending in `.csv`.
    private func catalogAnswer(
        _ request: Request, _ name: String, versioned: Bool = false,
        _ render: @escaping @Sendable (any V2Metadata, RateDate) -> [UInt8]?
    ) -> Handler.Answer {
        if request.segments.last?.hasSuffix(".csv") == true { return .now(V2Error.notAcceptable.response) }
        return serving.answer { snapshot, state in
            let day = serving.day(state)
            let key = "v2\u{3}\(name)\u{3}\(day.key)\u{3}" + RatesSnapshot.queryKey(request.query)
            if let prepared = snapshot.answers.answer(key) { return prepared.response(for: request, state: state) }
            let catalog: any V2Metadata = snapshot.v2.providers.isEmpty
                ? V2Catalog(coverage: coverage.coverage(of: snapshot), provider: cache.provider, base: snapshot.set.base)
                : V2MirrorCatalog(coverage: snapshot.v2.coverage, providers: snapshot.v2.providers)
            guard let bytes = render(catalog, day.today) else { return V2Error.notFound.response }
            let prepared = snapshot.answers.keep(key, PreparedAnswer(Representation(
                bytes: bytes, contentType: "application/json; charset=utf-8", lastModified: snapshot.storedAt,
                version: versioned ? snapshot.v2.version : nil)))
            return prepared.response(for: request, state: state)
        }
    }
}

extension QueryItems {
    /// The last value of that name: Frankfurter's (Rack's) reading of a repeated parameter.
    func last(_ name: String) -> String? {
        var found: String?
        for item in self where item.name == name { found = item.value }
        return found
    }
}
