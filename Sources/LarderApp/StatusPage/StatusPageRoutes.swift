import LarderConfig
import LarderHTTP
import LarderServing
import LarderStore

/// `GET /` (and `HEAD`): the status page for a person with a browser (README, "Status page"), and
/// Frankfurter's root index (`RootIndex`) for a program: chosen by `Accept`, with `Vary: Accept`.
struct StatusPageRoutes: Sendable {
    let pages: StatusPages

    init(reporter: StatusReporter, blocking: BlockingPool) {
        pages = StatusPages(
            reporter: reporter, adminTokenRequired: reporter.configuration.adminToken != nil, blocking: blocking)
    }

    func register(on router: inout Router) {
        // A plain load (no query) is a lean request; a query takes the usual way to the same handler.
        router.add(.get, "/", reads: ["If-None-Match", "Accept"], .adaptive { request in
            if RootIndex.wantsHTML(request) { return pages.answer(request) }
            // The page's parameters mean nothing to the index, but one of no valid shape is refused
            // alike, so a URL is valid or not whoever asks.
            do throws(HTTPError) {
                _ = try PageQuery.parse(request.query)
            } catch {
                return .now(error.response)
            }
            return .now(RootIndex.answer.response(for: request))
        })
    }
}
