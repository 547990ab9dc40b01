@testable import LarderHTTP
import LarderTesting
import Testing

/// The connection count several loops share (`larder_shared_limits`): taken when libmicrohttpd
/// says a connection started, given back when it closed, so no failed connection lowers capacity.
@Suite("Shared connection count: from NOTIFY_STARTED to NOTIFY_CLOSED")
struct SharedConnectionCountTests {
    static let limit = 8

    /// The first loop admits every connection and then drops it (its pool cannot be allocated: the
    /// drop libmicrohttpd sends no CLOSED for); clients vanish; at the limit, the shared count refuses
    /// new connections and the full loop leaves them in the backlog. The whole capacity must then
    /// still be there: `limit` connections held open at once. Before the count moved to
    /// NOTIFY_STARTED, each drop on the first loop took one connection off the capacity for good.
    @Test func failedAndRefusedConnectionsLeaveTheFullCapacity() async throws {
        raiseOpenFileLimit()
        try await withServer(configure: {
            $0.threads = 2
            $0.maxConnections = Self.limit
            $0.maxConnectionsPerIP = Self.limit
            $0.faults.firstLoopConnectionMemoryLimit = 1 << 62
        }, routes: standardRoutes) { server in
            let port = server.port
            let (dropped, heldAtFirst) = try await onThread {
                // The kernel spreads connections over the two loops' sockets: about half land on the first.
                let dropped = (0..<(8 * Self.limit)).count { _ in !Self.answers(port: port) }
                // Clients that connect and vanish, before and after sending a request.
                for _ in 0..<(4 * Self.limit) { _ = try? TestConnection(port: port, timeout: .seconds(5)) }
                let held = Self.hold(Self.limit, port: port)
                // Past the limit: refused by the shared count, or queued while the second loop is full.
                for _ in 0..<(4 * Self.limit) {
                    try? TestConnection(port: port, timeout: .seconds(5)).send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                }
                return (dropped, held.count)  // the held connections close here
            }
            #expect(dropped >= Self.limit, "too few connections met the failing loop")
            #expect(heldAtFirst == Self.limit)
            // Once the server has seen the held and queued connections close, all of them fit again.
            var heldAgain = 0
            _ = try await eventually(every: .milliseconds(100)) {
                heldAgain = try await onThread { Self.hold(Self.limit, port: port).count }
                return heldAgain == Self.limit
            }
            #expect(heldAgain == Self.limit)
        }
    }

    /// True when a new connection is answered.
    static func answers(port: Int) -> Bool {
        guard let connection = try? TestConnection(port: port, timeout: .seconds(5)) else { return false }
        return (try? connection.request("GET", "/hello"))?.status == 200
    }

    /// Up to `count` connections open at once, each answered once (those the failing loop or the
    /// limit closes are dropped and tried again, a bounded number of times).
    static func hold(_ count: Int, port: Int) -> [TestConnection] {
        var held: [TestConnection] = []
        for _ in 0..<(16 * count) where held.count < count {
            guard let connection = try? TestConnection(port: port, timeout: .seconds(5)) else { continue }
            if (try? connection.request("GET", "/hello"))?.status == 200 { held.append(connection) }
        }
        return held
    }
}
