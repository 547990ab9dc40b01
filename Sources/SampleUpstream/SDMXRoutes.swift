import Foundation
import LarderFormats
import LarderHTTP
import LarderRates

/// The ECB data API as the sample upstream plays it, over any ECB XML file it holds:
///
/// - `GET /sdmx/{path}?format=csvdata&startPeriod=…&endPeriod=…&updatedAfter=…`: the file's days as
///   the API's CSV, limited to the period and to days put or revised after `updatedAfter` (an
///   RFC 3339 instant). Nothing changed since `updatedAfter` is a 304 with no body, as the ECB
///   answers; no day in the period otherwise a 404.
/// - `PUT /_control/sdmx/{path}` with `{"day":"2014-06-13","rates":{"USD":"1.3999"},"updated_at":"…"}`:
///   revises (or adds) one day, changed at `updated_at` (default: now).
/// - `GET /_control/sdmx/{path}`: the answers sent so far (`query`, `status`, `bytes`).
struct SDMXRoutes {
    let series: SDMXSeries
    let log: RequestLog

    func register(on router: inout Router) {
        router.add(.get, "/sdmx/*path", .immediate { request in
            let path = request.parameters["path"] ?? ""
            log.received(path: "/sdmx/" + path)
            let response = answer(request, path: path)
            log.record(path: "/sdmx/" + path, status: response.status.rawValue)
            return response
        })
        router.add(.put, "/_control/sdmx/*path", .immediate { request in
            let path = request.parameters["path"] ?? ""
            guard let revision = try? JSONDecoder().decode(Revision.self, from: Data(request.body)),
                  let day = RateDate(revision.day) else {
                return HTTPError(.unprocessableContent, code: "bad_revision", message: "expected {\"day\",\"rates\",\"updated_at\"}").response
            }
            let at = revision.updatedAt.flatMap(RFC3339.instant) ?? Date()
            guard series.revise(path, day: day, rates: revision.rates, at: at) else {
                return HTTPError.notFound("no ECB XML file /\(path)").response
            }
            return json(["revised": revision.day])
        })
        router.add(.get, "/_control/sdmx/*path", .immediate { request in
            json(series.answers(request.parameters["path"] ?? ""))
        })
    }

    private struct Revision: Decodable {
        var day: String
        var rates: [String: String]
        var updatedAt: String?

        enum CodingKeys: String, CodingKey {
            case day, rates
            case updatedAt = "updated_at"
        }
    }

    private func answer(_ request: Request, path: String) -> Response {
        guard let days = series.days(path) else { return HTTPError.notFound("no ECB XML file /\(path)").response }
        let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let start = request.query["startPeriod"].flatMap { RateDate($0) } ?? .firstDay
        let end = request.query["endPeriod"].flatMap { RateDate($0) } ?? .lastDay
        let after = request.query["updatedAfter"].flatMap(RFC3339.instant)
        if request.query["updatedAfter"] != nil, after == nil {
            return recorded(path, query, HTTPError(.badRequest, code: "bad_updated_after", message: "updatedAfter is not an RFC 3339 instant").response)
        }
        let chosen = days.filter { date, day in
            start <= date && date <= end && after.map { day.updatedAt > $0 } != false
        }.sorted { $0.key < $1.key }.map { ($0.key, $0.value.rates) }
        guard !chosen.isEmpty else {
            if after != nil { return recorded(path, query, Response(status: .notModified, headers: [:])) }
            return recorded(path, query, HTTPError.notFound("No results found.").response)
        }
        let body = SDMXCSV.write(chosen)
        return recorded(path, query, Response(headers: ["Content-Type": "text/csv"], body: .bytes(SharedBytes(body))), bytes: body.count)
    }

    private func recorded(_ path: String, _ query: String, _ response: Response, bytes: Int = 0) -> Response {
        series.record(path, SDMXSeries.Answer(query: query, status: response.status.rawValue, bytes: bytes))
        return response
    }

    private func json(_ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: .bytes(SharedBytes(Array(data))))
    }
}
