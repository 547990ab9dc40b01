import Foundation
import LarderHTTP

/// The control API tests drive the sample upstream with (under `/_control/`).
///
/// - `GET /_control/requests` · `DELETE /_control/requests`: request counts per path and status, and
///   the requests being answered now (`in_flight`); reset.
/// - `PUT /_control/faults` (a `Fault` as JSON) · `GET` · `DELETE /_control/faults`: add, list, clear.
/// - `PUT /_control/files/{path}` (body = new content) · `DELETE /_control/files/{path}`: swap or remove a file.
struct ControlRoutes {
    let files: FileStore
    let faults: FaultTable
    let log: RequestLog
    let clock: @Sendable () -> Int

    func register(on router: inout Router) {
        router.add(.get, "/_control/requests", .immediate { _ in json(log.current) })
        router.add(.delete, "/_control/requests", .immediate { _ in
            log.reset()
            return json(["reset": true])
        })
        router.add(.get, "/_control/faults", .immediate { _ in json(faults.all) })
        router.add(.put, "/_control/faults", .immediate { request in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            guard let fault = try? decoder.decode(Fault.self, from: Data(request.body)) else {
                return HTTPError(.unprocessableContent, code: "bad_fault", message: "expected a fault as JSON").response
            }
            // A bomb is built here, once per size, not when first served: building one takes the
            // serving thread for a while (seconds in a debug build on a busy machine), and the other
            // upstream on this server would time out behind it.
            if let mebibytes = fault.gzipBombMib { _ = GzipBomb.bytes(mebibytes: Fault.clampedGzipBombMib(mebibytes)) }
            faults.add(fault)
            return json(fault)
        })
        router.add(.delete, "/_control/faults", .immediate { _ in
            faults.removeAll()
            return json(["cleared": true])
        })
        router.add(.put, "/_control/files/*path", .immediate { request in
            let path = request.parameters["path"] ?? ""
            let file = files.replace(path, with: request.body, now: clock())
            return json(["path": path, "etag": file.etag, "size": String(file.bytes.count)])
        })
        router.add(.delete, "/_control/files/*path", .immediate { request in
            let path = request.parameters["path"] ?? ""
            return files.remove(path) ? json(["removed": path]) : HTTPError.notFound("no file /\(path)").response
        })
    }

    private func json(_ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: .bytes(SharedBytes(Array(data))))
    }
}
