import AsyncHTTPClient
import NIOCore

/// Reads a response body into a sink under a byte cap and the request's deadline.
///
/// AsyncHTTPClient's own deadline ends once the response head is in, so a server that sends its
/// head and then stalls would hold the request forever: the body is raced against a timer here.
struct BodyReader: Sendable {
    let maxBytes: Int
    let deadline: ContinuousClock.Instant
    let limits: UpstreamLimits
    /// The URL as messages show it (no credentials).
    let url: String
    /// Where the deadline's timer runs.
    let timers: any EventLoop

    /// Streams the body into `sink` and returns its length; throws `UpstreamError` only.
    func read(_ body: HTTPClientResponse.Body, into sink: @Sendable ([UInt8]) async throws -> Void) async throws -> Int {
        do {
            // The group waits for both children before it returns, so the sink never outlives this call.
            return try await withoutActuallyEscaping(sink) { sink in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask { try await copy(body, into: sink) }
                    group.addTask {
                        try await sleep(until: deadline)
                        throw UpstreamError.requestTimeout(limits, url: url, detail: "while the body was arriving")
                    }
                    // Whichever ends first decides; cancelling the other drops the body, which makes
                    // AsyncHTTPClient cancel the request and close its connection.
                    defer { group.cancelAll() }
                    return try await group.next() ?? 0
                }
            }
        } catch let error as UpstreamError {
            throw error
        } catch let error as SinkError {
            throw UpstreamError(.transfer, "could not store the body of \(url): \(UpstreamURL.redact(String(describing: error.underlying)))")
        } catch {
            throw UpstreamError.duringBody(error, url: url, limits: limits)
        }
    }

    /// Sleeps until `deadline` on an event loop's timer. Cancelled, the timer is dropped at once: a
    /// cancelled `Task.sleep` keeps its task and its dispatch timer until the deadline passes (on
    /// Linux), some 800 bytes per request for the whole timeout, 24 MiB during a first sync of 30,000
    /// documents.
    private func sleep(until deadline: ContinuousClock.Instant) async throws {
        let scheduled = timers.scheduleTask(in: max(.zero, TimeAmount(ContinuousClock.now.duration(to: deadline)))) {}
        try await withTaskCancellationHandler {
            try await scheduled.futureResult.get()
        } onCancel: {
            scheduled.cancel()
        }
    }

    /// Counts each decompressed chunk before handing it on and stops as soon as the count passes the cap.
    private func copy(_ body: HTTPClientResponse.Body, into sink: @Sendable ([UInt8]) async throws -> Void) async throws -> Int {
        var count = 0
        for try await buffer in body {
            count += buffer.readableBytes
            if count > maxBytes {
                throw UpstreamError.tooLarge(maxBytes, detail: "after decompression")
            }
            do {
                try await sink(Array(buffer.readableBytesView))
            } catch {
                throw SinkError(underlying: error)
            }
        }
        return count
    }
}

/// An error the caller's sink threw, kept apart from errors of the wire.
private struct SinkError: Error {
    let underlying: any Error
}
