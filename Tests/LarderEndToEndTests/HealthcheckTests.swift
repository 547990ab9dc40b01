import Foundation
import Glibc
import LarderTesting
import Testing

@Suite("larder healthcheck")
struct HealthcheckTests {
    @Test func exitsZeroWhenLarderAnswersAndOneWhenNothingDoes() async throws {
        let (up, down, fromEnvironment) = try await onThread {
            let larder = try ChildProcess("larder", ["serve", "--port", "0"])
            let port = try larder.waitForListening()
            let up = try ChildProcess.run("larder", ["healthcheck", "--port", String(port)])
            let fromEnvironment = try ChildProcess.run(
                "larder", ["healthcheck"], environment: ["LARDER_PORT": String(port), "LARDER_HOST": "0.0.0.0"])
            larder.signal(SIGTERM)
            _ = larder.waitForExit()
            let down = try ChildProcess.run("larder", ["healthcheck", "--port", String(port)])
            return (up, down, fromEnvironment)
        }
        #expect(up.status == 0)
        #expect(fromEnvironment.status == 0, "a wildcard host is checked on loopback")
        #expect(down.status == 1)
        #expect(down.stderr.contains("cannot connect"))
    }

    @Test func aServerThatNeverAnswersFailsWithinTheTimeout() async throws {
        // A listening socket nobody accepts from: the connection is queued, the answer never comes.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        listen(listener, 8)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try await onThread {
            try ChildProcess.run("larder", ["healthcheck", "--port", String(port), "--timeout", "1s"], timeout: .seconds(10))
        }
        #expect(result.status == 1)
        #expect(result.stderr.contains("within"))
    }
}

@Suite("Stopping while the upstream hangs")
struct StopWhileFetchingTests {
    @Test func sigtermDuringHangingFetchesExitsZeroPromptly() async throws {
        try await withTemporaryDirectory("larder-stop") { cache in
            let (status, elapsed) = try await onThread { () -> (Int32?, Duration) in
                let upstream = try ChildProcess("sample-upstream", ["--root", ChildProcess.examplesUpstream.path, "--port", "0"])
                defer { upstream.signal(SIGKILL) }
                let upstreamPort = try upstream.waitForListening()
                _ = try TestConnection.fetch(
                    port: upstreamPort, "PUT", "/_control/faults", body: Array(#"{"path":"*","delay_ms":30000}"#.utf8))
                let larder = try ChildProcess("larder", [
                    "serve", "--port", "0", "--cache-dir", cache,
                    "--rates-url", "http://127.0.0.1:\(upstreamPort)/rates/eurofxref-daily.xml",
                    "--documents-url", "http://127.0.0.1:\(upstreamPort)/documents/index.json",
                ])
                _ = try larder.waitForListening()
                // Both start-up fetches are now hanging on the upstream.
                let hanging = try eventuallyBlocking {
                    let json = try TestConnection.fetch(port: upstreamPort, "/_control/requests").json
                    let paths = json?["paths"] as? [String: [String: Any]]
                    return ["/rates/eurofxref-daily.xml", "/documents/index.json"].allSatisfy {
                        paths?[$0]?["in_flight"] as? Int == 1
                    }
                }
                #expect(hanging)
                let start = ContinuousClock.now
                larder.signal(SIGTERM)
                let status = larder.waitForExit(timeout: .seconds(15))
                return (status, ContinuousClock.now - start)
            }
            #expect(status == 0)
            #expect(elapsed < .seconds(10), "SPEC §2: exit 0 within 10 s, background fetches included")
        }
    }
}
