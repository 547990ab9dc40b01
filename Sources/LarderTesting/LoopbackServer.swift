public import LarderHTTP

/// Something a test talks to on a loopback port, one fresh connection a request: a Larder run by
/// `withLarder`, a bare server from `withServer`.
public protocol LoopbackServer: Sendable {
    /// The port it listens on.
    var port: Int { get }
}

extension LoopbackServer {
    /// `GET target`.
    public func get(_ target: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await request("GET", target, headers: headers)
    }

    /// `POST target`.
    public func post(_ target: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await request("POST", target, headers: headers)
    }

    /// Any request (its blocking socket work off the cooperative pool).
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) async throws -> TestResponse {
        let port = port
        return try await onThread {
            try TestConnection(port: port, timeout: .seconds(120)).request(method, target, headers: headers, body: body)
        }
    }
}

extension HTTPServer: LoopbackServer {}
extension TestLarder: LoopbackServer {}
