import LarderHTTP

/// `GET /health`: liveness, answered from bytes prepared once.
enum HealthRoutes {
    static func register(on router: inout Router) {
        let ok = PreparedResponse(
            headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: SharedBytes("{\"status\":\"ok\"}\n")
        )
        router.add(.get, "/health", reads: [], .immediate { _ in Response(prepared: ok) })
    }
}
