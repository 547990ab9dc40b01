import LarderHTTP

extension V2Routes {
    /// The metadata routes: `/v2/currencies`, `/v2/currency/{code}`, `/v2/providers` and the `/v2` stub.
    /// Registered after the rates routes and before the 404/406 fallback.
    func registerMeta(on router: inout Router) {
        // The metadata routes go here.
    }
}
