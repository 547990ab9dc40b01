import Foundation
import LarderTesting
import Testing

@Suite("The larder binary: flags, environment, exit codes")
struct CommandLineTests {
    @Test func printsItsVersion() async throws {
        let result = try await onThread { try ChildProcess.run("larder", ["--version"]) }
        #expect(result.status == 0)
        // Larder's version, then the libmicrohttpd it runs on (`make deps` provides 1.0.10 or later).
        let line = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = try #require(try #/0\.1\.0 \(libmicrohttpd (\d+)\.(\d+)\.(\d+)\)/#.wholeMatch(in: line), "\(line)")
        let library = (Int(match.output.1)!, Int(match.output.2)!, Int(match.output.3)!)
        #expect(library >= (1, 0, 10), "\(line)")
    }

    @Test(arguments: [
        ["--port", "abc"], ["--port", "70000"], ["--host", ""], ["--cache-dir", ""],
        ["--rates-url", "ftp://example.test/r.xml"], ["--rates-format", "csv"], ["--rates-ttl", "5x"],
        ["--documents-url", "not a url"], ["--documents-format", "yaml"], ["--documents-ttl", "0"],
        ["--admin-token", ""], ["--threads", "0"], ["--log-level", "loud"], ["--log-format", "xml"],
        ["--client-timeout", "soon"], ["--max-connections", "-3"], ["--max-connections-per-ip", "none"],
        ["--allowed-hosts", ""], ["--allowed-hosts", "evil host"], ["--allowed-hosts", "a:0"], ["--allowed-hosts", "*.example"],
        ["--rates-url", "https://a.test/r.xml", "--rates-url", "https://b.test/r.xml;format=csv"],
        ["--documents-url", "https://a.test/index.json", "--documents-url", "gopher://b.test/index.json"],
    ])
    func badFlagExits64NamingIt(arguments: [String]) async throws {
        let result = try await onThread { try ChildProcess.run("larder", ["serve"] + arguments) }
        #expect(result.status == 64)
        #expect(result.stderr.contains(arguments[0]))
        #expect(!result.stdout.contains("listening"))
    }

    @Test func badEnvironmentValueExits64NamingTheVariable() async throws {
        let result = try await onThread {
            try ChildProcess.run("larder", ["serve"], environment: ["LARDER_RATES_TTL": "forever"])
        }
        #expect(result.status == 64)
        #expect(result.stderr.contains("LARDER_RATES_TTL (--rates-ttl): 'forever'"))
    }

    @Test func aBadEntryOfAnUpstreamListExits64WithoutItsCredentials() async throws {
        let result = try await onThread {
            try ChildProcess.run("larder", ["serve"], environment: [
                "LARDER_RATES_URL": "https://a.test/r.xml,https://user:s3cret@b.test/r.xml;format=csv",
            ])
        }
        #expect(result.status == 64)
        #expect(result.stderr.contains("LARDER_RATES_URL"))
        #expect(!result.stderr.contains("s3cret"))
    }

    @Test func environmentConfiguresAndFlagsWin() async throws {
        // LARDER_PORT=0 applies (no flag); the flag --log-level beats an invalid LARDER_LOG_LEVEL.
        let (port, health) = try await onThread {
            let child = try ChildProcess("larder", ["serve", "--log-level", "info"], environment: [
                "LARDER_PORT": "0", "LARDER_LOG_LEVEL": "not-a-level",
            ])
            let port = try child.waitForListening()
            let health = try TestConnection.fetch(port: port, "/health")
            child.signal(SIGTERM)
            _ = child.waitForExit()
            return (port, health.status)
        }
        #expect(port != 8080)
        #expect(health == 200)
    }

    @Test func portInUseIsAClearFailure() async throws {
        let (status, stderr) = try await onThread {
            let first = try ChildProcess("larder", ["serve", "--port", "0"])
            let port = try first.waitForListening()
            let second = try ChildProcess.run("larder", ["serve", "--port", String(port)])
            first.signal(SIGTERM)
            _ = first.waitForExit()
            return (second.status, second.stderr)
        }
        #expect(status == 1)
        #expect(stderr.contains("cannot listen on 127.0.0.1:"))
    }

    /// Bound beyond loopback with no list, Larder answers any Host and says once how to narrow it.
    @Test func aNonLoopbackBindRecommendsTheAllowlist() async throws {
        let (wide, narrow, rebinding) = try await onThread {
            let wide = try ChildProcess("larder", ["serve", "--host", "0.0.0.0", "--port", "0"])
            let port = try wide.waitForListening()
            let rebinding = try TestConnection(port: port).request("GET", "/health", headers: [("Host", "attacker.example")])
            let narrow = try ChildProcess("larder", ["serve", "--port", "0"])
            _ = try narrow.waitForListening()
            for child in [wide, narrow] { child.signal(SIGTERM); _ = child.waitForExit() }
            return (wide.standardError, narrow.standardError, rebinding.status)
        }
        #expect(rebinding == 200)
        #expect(wide.components(separatedBy: "--allowed-hosts").count == 2, "one line: \(wide)")
        #expect(!narrow.contains("--allowed-hosts"))
    }
}
