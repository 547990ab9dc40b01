import Foundation
import LarderHTTP

/// `GET /ready` and `GET /status` (SPEC §3): readiness for orchestrators, and what each resource is doing.
struct OperationsRoutes: Sendable {
    /// The same reporter as the status page's, so `/status` and the page cannot disagree.
    let reporter: StatusReporter

    func register(on router: inout Router) {
        router.add(.get, "/ready", reads: [], .immediate { _ in ready() })
        // Suspending: the mirror's counts may be read from the store, which no loop thread waits for.
        router.add(.get, "/status", reads: [], .suspending { _ in await status() })
    }

    /// 200 when every configured resource has data; else 503 with the reasons.
    func ready() -> Response {
        let reasons = Readiness(rates: reporter.rates, documents: reporter.documents).reasons
        let body: [String: Any] = reasons.isEmpty ? ["status": "ready"] : ["status": "not_ready", "reasons": reasons]
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Cache-Control": "no-store"]
        if !reasons.isEmpty { headers.add("Retry-After", "5") }
        return Response(status: reasons.isEmpty ? .ok : .serviceUnavailable, headers: headers, body: .bytes(SharedBytes(Self.json(body))))
    }

    func status() async -> Response {
        let report = await reporter.report()
        return Response(
            headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .bytes(SharedBytes(Self.json(report.jsonObject))))
    }

    private static func json(_ value: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Array(data) + [UInt8(ascii: "\n")]
    }
}
