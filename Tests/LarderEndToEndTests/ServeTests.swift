import Foundation
import LarderTesting
import Testing

@Suite("larder serve over loopback")
struct ServeTests {
    @Test func printsTheListeningLineAndAnswersHealth() async throws {
        let (line, health, head, exitStatus) = try await onThread {
            let child = try ChildProcess("larder", ["serve", "--port", "0"])
            let port = try child.waitForListening()
            let health = try TestConnection.fetch(port: port, "/health")
            let head = try TestConnection.fetch(port: port, "HEAD", "/health")
            child.signal(SIGTERM)
            return (child.standardOutput, health, head, child.waitForExit(timeout: .seconds(10)))
        }
        #expect(line.range(of: #"listening on http://127\.0\.0\.1:[1-9][0-9]*"#, options: .regularExpression) != nil)
        #expect(line.range(of: #"^larder \d+\.\d+\.\d+ \(libmicrohttpd \d+\.\d+\.\d+\) listening"#, options: .regularExpression) != nil)
        #expect(health.status == 200)
        #expect(health.header("Content-Type") == "application/json")
        #expect(health.json?["status"] as? String == "ok")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(exitStatus == 0)
    }

    @Test(arguments: [
        ("GET", "/rates", "rates"), ("GET", "/rates/2026-01-02", "rates"), ("GET", "/currencies", "rates"),
        ("POST", "/rates/refresh", "rates"), ("GET", "/documents", "documents"),
        ("GET", "/documents/a.txt", "documents"), ("POST", "/documents/refresh", "documents"),
    ])
    func unconfiguredResourcesAnswerJSON404(method: String, path: String, resource: String) async throws {
        let response = try await onThread {
            let child = try ChildProcess("larder", ["serve", "--port", "0"])
            let port = try child.waitForListening()
            return try TestConnection.fetch(port: port, method, path)
        }
        #expect(response.status == 404)
        #expect(response.errorCode == "not_configured")
        #expect(response.header("Cache-Control") == "no-store")
        let message = (response.json?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("--\(resource)-url"))
    }

    @Test func aColdCacheWithAnUnreachableUpstreamAnswers503() async throws {
        try await withTemporaryDirectory("larder-e2e") { cache in
            let (rates, documents) = try await onThread {
                let child = try ChildProcess("larder", [
                    "serve", "--port", "0", "--cache-dir", cache, "--rates-url", "http://127.0.0.1:9/rates.xml",
                    "--documents-url", "http://127.0.0.1:9/index.json",
                ])
                let port = try child.waitForListening()
                return (try TestConnection.fetch(port: port, "/rates"), try TestConnection.fetch(port: port, "/documents"))
            }
            #expect(rates.status == 503)
            #expect(rates.errorCode == "unavailable")
            #expect(rates.header("Retry-After") != nil)
            #expect(documents.status == 503)
            #expect(documents.errorCode == "unavailable")
            #expect(documents.header("Retry-After") != nil)
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalStopsGracefullyWithExitZero(signal: Int32) async throws {
        let (status, elapsed) = try await onThread {
            let child = try ChildProcess("larder", ["serve", "--port", "0"])
            let port = try child.waitForListening()
            // An idle keep-alive connection must not hold the stop up.
            let idle = try TestConnection(port: port)
            _ = try idle.request("GET", "/health")
            let start = ContinuousClock.now
            child.signal(signal)
            let status = child.waitForExit(timeout: .seconds(10))
            return (status, ContinuousClock.now - start)
        }
        #expect(status == 0)
        #expect(elapsed < .seconds(10))
    }

    @Test func logsOneAccessLinePerRequestAtDebugAsJSON() async throws {
        let stderr = try await onThread {
            let child = try ChildProcess("larder", ["serve", "--port", "0", "--log-level", "debug", "--log-format", "json"])
            let port = try child.waitForListening()
            _ = try TestConnection.fetch(port: port, "/health")
            _ = try TestConnection.fetch(port: port, "/missing")
            child.signal(SIGTERM)
            _ = child.waitForExit()
            return child.standardError
        }
        let lines = stderr.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count == stderr.split(separator: "\n").count)
        let messages = lines.compactMap { $0["message"] as? String }
        #expect(messages.filter { $0 == "GET /health 200" }.count == 1)
        #expect(messages.filter { $0 == "GET /missing 404" }.count == 1)
        #expect(lines.allSatisfy { $0["level"] is String && $0["ts"] is String })
    }

    @Test func infoLevelWritesNoAccessLines() async throws {
        let stderr = try await onThread {
            let child = try ChildProcess("larder", ["serve", "--port", "0"])
            let port = try child.waitForListening()
            _ = try TestConnection.fetch(port: port, "/health")
            child.signal(SIGTERM)
            _ = child.waitForExit()
            return child.standardError
        }
        #expect(!stderr.contains("GET /health"))
    }

    @Test func servesAThousandConcurrentClientsFromOneAddress() async throws {
        raiseOpenFileLimit()
        let answered = try await onThread {
            let child = try ChildProcess("larder", ["serve", "--port", "0"])
            let port = try child.waitForListening()
            let connections = try (0..<1000).map { _ in try TestConnection(port: port) }
            for connection in connections { try connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n") }
            let answered = try connections.filter { try $0.readResponse().status == 200 }.count
            child.signal(SIGTERM)
            _ = child.waitForExit()
            return answered
        }
        #expect(answered == 1000)
    }

    @Test func sampleUpstreamBinaryServesTheExamples() async throws {
        let (index, status) = try await onThread {
            let child = try ChildProcess("sample-upstream", ["--port", "0", "--root", ChildProcess.examplesUpstream.path])
            let port = try child.waitForListening()
            let index = try TestConnection.fetch(port: port, "/documents/index.json")
            child.signal(SIGTERM)
            return (index, child.waitForExit())
        }
        #expect(index.status == 200)
        #expect((index.json?["documents"] as? [Any])?.isEmpty == false)
        #expect(status == 0)
    }
}
