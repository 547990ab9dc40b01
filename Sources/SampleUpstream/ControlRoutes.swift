import Foundation
import LarderHTTP
import LarderRates

/// The control API tests drive the sample upstream with (under `/_control/`).
///
/// - `GET /_control/requests` · `DELETE /_control/requests`: request counts per path and status, and
///   the requests being answered now (`in_flight`); reset.
/// - `PUT /_control/faults` (a `Fault` as JSON) · `GET` · `DELETE /_control/faults`: add, list, clear.
/// - `PUT /_control/files/{path}` (body = new content) · `DELETE /_control/files/{path}`: swap or remove a file.
/// - `PUT /_control/today` (body = `YYYY-MM-DD`) · `DELETE /_control/today`: the day Frankfurter's routes
///   take as today, or back to the machine's.
struct ControlRoutes {
    let files: FileStore
    let faults: FaultTable
    let log: RequestLog
    let today: FrankfurterToday
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
        router.add(.put, "/_control/today", .immediate { [today] request in
            guard let day = RateDate(String(decoding: request.body, as: UTF8.self)) else {
                return HTTPError.badRequest("not a date: want YYYY-MM-DD").response
            }
            today.set(day)
            return json(["today": day.description])
        })
        router.add(.delete, "/_control/today", .immediate { [today] _ in
            today.set(nil)
            return json(["today": today.day.description])
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
