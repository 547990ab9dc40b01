import LarderHTTP

/// The body of a successful `POST /documents/refresh`: the counts of SPEC §3.
enum DocumentsRefreshAnswer {
    static func ok(_ outcome: DocumentsRefreshOutcome) -> Response {
        let body = "{\"added\":\(outcome.added),\"failed\":\(outcome.failed),"
            + "\"index\":\"\(outcome.indexNotModified ? "not_modified" : "updated")\","
            + "\"removed\":\(outcome.removed),\"unchanged\":\(outcome.unchanged),\"updated\":\(outcome.updated)}\n"
        return Response(
            status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .string(body))
    }
}
