import Foundation
import Glibc
import LarderTestSupport
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
