public import LarderHTTP
import LarderRates
import LarderServing

/// Frankfurter v2's routes under `/v2`, over the stored history: the rates family (`/v2/rates`,
/// `/v2/rates.csv`, `/v2/rate/{base}/{quote}`), the metadata routes, and Frankfurter's 404 and 406
/// for every other path under `/v2`.
public struct V2Routes: Sendable {
    let cache: any RatesSource
    /// Every currency's first and last stored day, read once per snapshot for the metadata routes.
    let coverage = CoverageMemo()
    let cors: CORSPolicy

    public init(cache: any RatesSource, cors: CORSPolicy = .anyOrigin) {
        self.cache = cache
        self.cors = cors
        serving = SnapshotServing(cache: cache)
    }

    /// The key of who publishes the stored rates, as v2 names a provider (`ECB`; `--rates-provider`);
    /// empty while an `auto` feed has not been read (nothing is stored then).
    var provider: String { cache.provider?.key ?? "" }

    public func register(on router: inout Router) {
        registerRates(on: &router)
        registerMeta(on: &router)
        registerFallback(on: &router)
    }

    let serving: SnapshotServing

    /// Frankfurter answers a `.csv` path other than `/v2/rates.csv`, or a request whose `Accept` asks for
    /// CSV first, with 406 (its `r.csv { r.halt(406) }`), and any other unrouted path under `/v2` with its 404 body.
    private func registerFallback(on router: inout Router) {
        router.add(.get, "/v2/*rest", cors: cors, .immediate { request in
            V2Routes.wantsCSV(request) ? V2Error.notAcceptable.response : V2Error.notFound.response
        })
    }

    /// The request asks for CSV, by a `.csv` path or by `Accept` (Frankfurter's type routing): only
    /// `/v2/rates` has that form, so a metadata route answers it with `V2Error.notAcceptable`.
    static func wantsCSV(_ request: Request) -> Bool {
        (request.segments.last ?? "").hasSuffix(".csv")
            || request.headers["Accept"].map(V2RatesFormat.prefersCSV) ?? false
    }
}
