/// What the caches fetch through: a conditional GET streamed into a sink. The shared
/// `UpstreamClient` in production; an in-memory upstream where no socket is wanted (the
/// whole-pipeline fuzz targets run the caches' real sync paths on bytes they choose).
public protocol UpstreamTransport: Sendable {
    /// A conditional GET whose 200 body goes to `sink` chunk by chunk, at most `maxBytes` in all
    /// (see `UpstreamClient.stream`).
    func stream(
        _ url: String, validators: UpstreamValidators, maxBytes: Int,
        into sink: @Sendable ([UInt8]) async throws -> Void
    ) async throws(UpstreamError) -> UpstreamStreamOutcome
}

extension UpstreamTransport {
    /// A conditional GET of a body that fits in memory: at most `maxBytes` after decompression.
    public func fetch(
        _ url: String, validators: UpstreamValidators, maxBytes: Int
    ) async throws(UpstreamError) -> UpstreamResult {
        let collector = BodyCollector()
        let outcome = try await stream(url, validators: validators, maxBytes: maxBytes) { chunk in
            collector.append(chunk)
        }
        switch outcome {
        case .notModified(let validators, let freshFor):
            return .notModified(validators, freshFor: freshFor)
        case .streamed(let body):
            return .fetched(UpstreamBody(
                bytes: collector.bytes, validators: body.validators, contentType: body.contentType, freshFor: body.freshFor))
        }
    }
}
