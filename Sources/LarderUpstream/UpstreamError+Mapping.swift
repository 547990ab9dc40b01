import AsyncHTTPClient
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns what AsyncHTTPClient and SwiftNIO throw into an `UpstreamError` with a plain message.
///
/// Messages name the URL as `UpstreamURL.shown` (no credentials). The URL handed to
/// AsyncHTTPClient never carries credentials either, so no error of theirs can contain them.
extension UpstreamError {
    static func tooLarge(_ maxBytes: Int, detail: String) -> UpstreamError {
        UpstreamError(.tooLarge, "body larger than the \(bytes(maxBytes)) cap (\(detail))")
    }

    static func requestTimeout(_ limits: UpstreamLimits, url: String, detail: String) -> UpstreamError {
        UpstreamError(.timeout, "no complete answer from \(url) within \(seconds(limits.requestTimeout)) (\(detail))")
    }

    /// A failure before the response head arrived: connecting, sending, redirects, the head itself.
    static func beforeHead(_ error: any Error, url: String, limits: UpstreamLimits) -> UpstreamError {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded:
                return requestTimeout(limits, url: url, detail: "waiting for the response head")
            case .connectTimeout:
                return UpstreamError(.timeout, "could not connect to \(url) within \(seconds(limits.connectTimeout))")
            case .readTimeout:
                return UpstreamError(.timeout, "\(url) stopped sending")
            case .redirectLimitReached:
                return UpstreamError(.redirect, "more than \(limits.maxRedirects) redirects from \(url)")
            case .redirectCycleDetected:
                return UpstreamError(.redirect, "redirect loop from \(url)")
            case .invalidURL, .emptyHost, .emptyScheme:
                // The first URL passed UpstreamURL's checks, so a bad one came from a Location header.
                return UpstreamError(.redirect, "\(url) redirected to an invalid URL")
            case .remoteConnectionClosed:
                return UpstreamError(.transfer, "\(url) closed the connection without answering")
            case .cancelled:
                return cancelled(url)
            default:
                if error.shortDescription == "Unsupported scheme" {
                    return UpstreamError(.redirect, "\(url) redirected to a URL that is not http or https")
                }
                return UpstreamError(.transfer, "request to \(url) failed: \(error.shortDescription.lowercased())")
            }
        }
        switch error {
        case is CancellationError:
            return cancelled(url)
        case let error as HTTPParserError:
            return UpstreamError(.transfer, "malformed response from \(url): \(error)")
        case ChannelError.connectTimeout:
            return UpstreamError(.timeout, "could not connect to \(url) within \(seconds(limits.connectTimeout))")
        case let error as IOError:
            return UpstreamError(.unreachable, "cannot connect to \(url): \(reason(error))")
        default:
            // NIOPosix's NIOConnectionError (DNS or connect failures) and TLS errors land here.
            return UpstreamError(.unreachable, "cannot connect to \(url): \(error)")
        }
    }

    /// A failure while the body streamed in.
    static func duringBody(_ error: any Error, url: String, limits: UpstreamLimits) -> UpstreamError {
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return cancelled(url)
            case .readTimeout: return UpstreamError(.timeout, "\(url) stopped sending the body")
            case .remoteConnectionClosed: return truncated(url)
            default: return UpstreamError(.transfer, "body from \(url) failed: \(error.shortDescription.lowercased())")
            }
        }
        switch error {
        case is CancellationError:
            return cancelled(url)
        case HTTPParserError.invalidEOFState:
            return truncated(url)
        case let error as HTTPParserError:
            return UpstreamError(.transfer, "malformed body from \(url): \(error)")
        case let error as IOError:
            return UpstreamError(.transfer, "connection to \(url) failed during the body: \(reason(error))")
        default:
            break
        }
        // NIOHTTPCompression is not a dependency of this module, so its errors are told by name.
        let type = String(reflecting: Swift.type(of: error))
        if type.hasSuffix("NIOHTTPDecompression.DecompressionError"), "\(error)" == "limit" {
            return UpstreamError(.tooLarge, "body inflates past the client's \(bytes(limits.maxInflatedBytes)) decompression limit")
        }
        if type.contains("NIOHTTPDecompression") {
            return UpstreamError(.transfer, "bad compressed body from \(url): \(error)")
        }
        return UpstreamError(.transfer, "body from \(url) failed: \(error)")
    }

    private static func truncated(_ url: String) -> UpstreamError {
        UpstreamError(.transfer, "\(url) closed the connection before the body was complete")
    }

    private static func cancelled(_ url: String) -> UpstreamError {
        UpstreamError(.transfer, "request to \(url) was cancelled")
    }

    private static func reason(_ error: IOError) -> String {
        switch error.errnoCode {
        case ECONNREFUSED: "connection refused"
        case ECONNRESET: "connection reset"
        case EHOSTUNREACH: "no route to host"
        case ENETUNREACH: "network unreachable"
        default: "\(error)"
        }
    }

    /// `8 MiB` for whole mebibytes, else a byte count.
    static func bytes(_ count: Int) -> String {
        count >= 1 << 20 && count % (1 << 20) == 0 ? "\(count >> 20) MiB" : "\(count) bytes"
    }

    /// `5 s`, `1.5 s`, `250 ms`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration / .milliseconds(1)
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
        let seconds = milliseconds / 1000
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
