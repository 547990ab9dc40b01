public import Foundation
import LarderFormats

/// One answer the sample upstream's ECB data API (`/sdmx/…`) sent: its query, status and body size.
public struct SDMXAnswer: Sendable, Equatable {
    public var query: String
    public var status: Int
    public var bytes: Int
}

extension SampleUpstreamControl {
    /// Revises (or adds) `day` of the ECB XML file at `path` as `/sdmx/…` serves it, changed at `at`.
    public func reviseSDMX(_ path: String, day: String, rates: [String: String], at: Date) async throws {
        let body: [String: Any] = ["day": day, "rates": rates, "updated_at": RFC3339.string(at, milliseconds: false)]
        let response = try await control("PUT", "/_control/sdmx" + path, body: Array(try JSONSerialization.data(withJSONObject: body)))
        guard response.status == 200 else { throw TestConnectionError("revision refused: \(response.text)") }
    }

    /// The answers `/sdmx{path}` sent so far, oldest first.
    public func sdmxAnswers(_ path: String) async throws -> [SDMXAnswer] {
        let response = try await control("GET", "/_control/sdmx" + path)
        let list = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [[String: Any]] ?? []
        return list.map {
            SDMXAnswer(query: $0["query"] as? String ?? "", status: $0["status"] as? Int ?? 0, bytes: $0["bytes"] as? Int ?? 0)
        }
    }
}
