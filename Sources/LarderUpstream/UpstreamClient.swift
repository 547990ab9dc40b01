import AsyncHTTPClient
public import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// The one shared upstream HTTP client: conditional GETs under the limits of SPEC §6.
///
/// Call `shutdown()` before the last reference goes: AsyncHTTPClient traps in debug builds when a
/// client that is still running is deallocated.
public final class UpstreamClient: UpstreamTransport {
    let client: HTTPClient
    let limits: UpstreamLimits
    let userAgent: String
    let logger: Logger
    /// Told of every answer's `Date` header (the clock-skew report; never used for bounds).
    let observeDate: (@Sendable (_ dateHeader: String) -> Void)?

    /// One AsyncHTTPClient on the shared event loops; `version` (the caller's, as this module knows
    /// none) goes into `User-Agent: larder/<version>`.
    public init(
        limits: UpstreamLimits = .init(), version: String, logger: Logger,
        observeDate: (@Sendable (_ dateHeader: String) -> Void)? = nil
    ) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: limits.maxRedirects, allowCycles: false),
            timeout: .init(connect: TimeAmount(limits.connectTimeout)),
            decompression: .enabled(limit: .size(limits.maxInflatedBytes))
        )
        // A refused connection fails at once instead of being retried until the connect timeout:
        // the freshness layer has its own backoff, and a fast, clear error is what /status should show.
        configuration.connectionPool.retryConnectionEstablishment = false
        // As many keep-alive connections per upstream as the documents mirror runs downloads at once (16);
        // the default 8 would leave half of them queued.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 16
        // The decompressor inflates everything one socket read brings before back-pressure can act,
        // so the read size bounds a gzip bomb's burst (about 1000 times it). Reads of at most 16 KiB
        // keep that burst near 16 MiB whatever the cap; AsyncHTTPClient offers no other hook for it.
        configuration.http1_1ConnectionDebugInitializer = Self.limitReadSize
        configuration.http2ConnectionDebugInitializer = Self.limitReadSize
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration, backgroundActivityLogger: logger)
        self.limits = limits
        userAgent = "larder/\(version)"
        self.logger = logger
        self.observeDate = observeDate
    }

    @Sendable private static func limitReadSize(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.setOption(ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 16 * 1024))
    }

    /// Closes the pooled connections; later requests fail. Calling it again does nothing.
    public func shutdown() async {
        do {
            try await client.shutdown()
        } catch {
            logger.debug("upstream client already shut down")
        }
    }

    /// A conditional GET whose 200 body goes to `sink` chunk by chunk, in order, as it arrives
    /// (decompressed); the whole exchange, body included, ends within `limits.requestTimeout`.
    ///
    /// A declared `Content-Length` (of the body as sent, so compressed) over `maxBytes` is refused
    /// before any byte is read; otherwise the request stops as soon as the decompressed count passes
    /// `maxBytes`, and the sink never sees a byte beyond it.
    /// A failure can come after some chunks went to the sink: the sink's target is then incomplete
    /// and must be discarded. An error the sink throws ends the request and comes back as `.transfer`.
    public func stream(
        _ url: String, validators: UpstreamValidators, maxBytes: Int,
        into sink: @Sendable ([UInt8]) async throws -> Void
    ) async throws(UpstreamError) -> UpstreamStreamOutcome {
        let target = try UpstreamURL(url)
        let started = ContinuousClock.now
        do {
            let outcome = try await exchange(target, validators: validators, maxBytes: maxBytes, started: started, sink: sink)
            logger.debug("upstream answered", metadata: [
                "url": .string(target.shown), "outcome": .string(outcome.logDescription),
                "ms": .stringConvertible((ContinuousClock.now - started) / .milliseconds(1)),
            ])
            return outcome
        } catch {
            let failure = error as? UpstreamError ?? UpstreamError(.transfer, "\(target.shown): \(type(of: error))")
            logger.debug("upstream request failed", metadata: [
                "url": .string(target.shown), "kind": .string(failure.kind.rawValue), "error": .string(failure.message),
            ])
            throw failure
        }
    }

    /// One request and its body; every error it throws is an `UpstreamError`.
    private func exchange(
        _ target: UpstreamURL, validators: UpstreamValidators, maxBytes: Int, started: ContinuousClock.Instant,
        sink: @Sendable ([UInt8]) async throws -> Void
    ) async throws -> UpstreamStreamOutcome {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(
                request(for: target, validators: validators),
                deadline: .now() + TimeAmount(limits.requestTimeout), logger: logger
            )
        } catch {
            throw UpstreamError.beforeHead(error, url: target.shown, limits: limits)
        }
        let headers = response.headers
        if let observeDate, let date = headers.first(name: "Date") { observeDate(date) }
        switch response.status.code {
        case 200:
            if let declared = headers.first(name: "Content-Length").flatMap(Int.init), declared > maxBytes {
                throw UpstreamError.tooLarge(maxBytes, detail: "declared Content-Length \(declared)")
            }
            let count = try await BodyReader(
                maxBytes: maxBytes, deadline: started + limits.requestTimeout, limits: limits, url: target.shown,
                timers: client.eventLoopGroup.any()
            ).read(response.body, into: sink)
            let body = UpstreamStreamedBody(
                byteCount: count, validators: Self.validators(in: headers, else: .none),
                contentType: headers.first(name: "Content-Type"), freshFor: Self.freshFor(in: headers)
            )
            return .streamed(body)
        case 304:
            return .notModified(Self.validators(in: headers, else: validators), freshFor: Self.freshFor(in: headers))
        case 300..<400 where headers.contains(name: "Location"):
            // AsyncHTTPClient hands back a redirect it will not follow: to a scheme other than http(s).
            let location = UpstreamURL.redact(headers.first(name: "Location") ?? "")
            throw UpstreamError(.redirect, "redirect to a location that is not http or https: \(location)")
        default:
            let status = response.status
            var error = UpstreamError(.status, "upstream answered \(status.code) \(status.reasonPhrase)", status: Int(status.code))
            // Delta-seconds only (RFC 9110 §10.2.3); an HTTP date is taken as no hint.
            error.retryAfter = headers.first(name: "Retry-After").flatMap { Int($0.filter { $0 != " " }) }
            throw error
        }
    }

    private func request(for target: UpstreamURL, validators: UpstreamValidators) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: target.requestURL)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: userAgent)
        if let etag = validators.etag {
            request.headers.add(name: "If-None-Match", value: etag)
        }
        if let lastModified = validators.lastModified {
            request.headers.add(name: "If-Modified-Since", value: lastModified)
        }
        if let credentials = target.credentials {
            request.setBasicAuth(username: credentials.user, password: credentials.password)
        }
        return request
    }

    /// The seconds of freshness a response declares to a shared cache (RFC 9111 §5.2.2): `s-maxage`,
    /// else `max-age`; 0 under `no-cache` or `no-store`; nil when it says nothing. `Age` is not taken
    /// off: a Larder's `max-age` already counts down to its copy's expiry.
    static func freshFor(in headers: HTTPHeaders) -> Int? {
        var maxAge: Int?
        var shared: Int?
        for field in headers[canonicalForm: "Cache-Control"] {
            let directive = field.lowercased().filter { $0 != " " && $0 != "\t" && $0 != "\"" }
            if directive == "no-cache" || directive == "no-store" { return 0 }
            let parts = directive.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let seconds = Int(parts[1]), seconds >= 0 else { continue }
            if parts[0] == "s-maxage" { shared = seconds } else if parts[0] == "max-age" { maxAge = seconds }
        }
        return shared ?? maxAge
    }

    /// The response's validators; one it does not carry comes from `fallback`.
    static func validators(in headers: HTTPHeaders, else fallback: UpstreamValidators) -> UpstreamValidators {
        UpstreamValidators(
            etag: headers.first(name: "ETag") ?? fallback.etag,
            lastModified: headers.first(name: "Last-Modified") ?? fallback.lastModified
        )
    }
}

extension UpstreamStreamOutcome {
    var logDescription: String {
        switch self {
        case .notModified: "304"
        case .streamed(let body): "200, \(body.byteCount) bytes"
        }
    }
}
