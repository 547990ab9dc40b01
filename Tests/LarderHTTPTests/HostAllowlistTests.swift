import LarderHTTP
import LarderTesting
import Testing

/// `--allowed-hosts`' syntax, and real servers answering by it: on a lean route and a usual one alike.
@Suite("The Host allowlist")
struct HostAllowlistTests {
    private static func routes(_ router: inout Router) {
        router.add(.get, "/lean", reads: [], .immediate { _ in Response(body: .string("lean")) })
        router.add(.get, "/items/:id", .immediate { _ in Response(body: .string("item")) })
    }

    /// The statuses of `/lean` and `/items/1` for each Host, on a server allowing `list` and bound to `bind`.
    private static func statuses(
        list: String?, bind: String = "127.0.0.1", hosts: [String]
    ) async throws -> [String: [Int]] {
        try await withServer(configure: { configuration in
            configuration.host = bind
            configuration.allowedHosts = try? list.map(HostAllowlist.init(parsing:))
        }, routes: routes) { server in
            var found: [String: [Int]] = [:]
            for host in hosts {
                found[host] = [
                    try await server.get("/lean", headers: [("Host", host)]).status,
                    try await server.get("/items/1", headers: [("Host", host)]).status,
                ]
            }
            return found
        }
    }

    @Test func parsesEveryFormAndNormalizesNames() throws {
        let list = try HostAllowlist(parsing: " Larder.Example. , larder:8080,.SVC.cluster.local,[::1]:9000,ip-literals,[FE80::1]")
        #expect(list.rules == [
            .name("larder.example", port: nil), .name("larder", port: 8080), .domain("svc.cluster.local", port: nil),
            .name("[::1]", port: 9000), .ipLiterals, .name("[fe80::1]", port: nil),
        ])
        #expect(try HostAllowlist(parsing: "*").rules == [.any])
        #expect(try HostAllowlist(parsing: "a,a").rules == [.name("a", port: nil)])
    }

    @Test(arguments: [
        "", " ", "a,", ",a", "a b", "*.example.com", "a:0", "a:65536", "a:x", "a:", "http://a", "a/b", "..a", "a..b",
        ".", "[::1", "[xyz]", ".[::1]", "a:80:80", "ex%41mple", "[::1]x",
    ])
    func refusesWhatIsNoEntry(text: String) {
        #expect(throws: HostAllowlist.ParseError.self, "\(text)") { try HostAllowlist(parsing: text) }
    }

    @Test func portsDomainsAndCaseInAnExplicitList() async throws {
        let found = try await Self.statuses(
            list: "larder.example:8080,.svc.cluster.local,localhost",
            hosts: [
                "larder.example:8080", "LARDER.example.:8080", "larder.example:9090", "larder.example",
                "svc.cluster.local", "larder.ns.svc.cluster.local:80", "evilsvc.cluster.local", "svc.cluster.local.evil",
                "localhost:1", "127.0.0.1", "[::1]",
            ])
        let allowed = Set(["larder.example:8080", "LARDER.example.:8080", "svc.cluster.local", "larder.ns.svc.cluster.local:80", "localhost:1"])
        for (host, statuses) in found {
            #expect(statuses == (allowed.contains(host) ? [200, 200] : [403, 403]), "\(host)")
        }
    }

    /// A loop thread remembers the last Host its server allowed (a keep-alive client repeats it): a
    /// refused one between two allowed ones on the same connection is still refused, every time, and
    /// the allowed one is still allowed after it.
    @Test func theRememberedHostNeverLetsAnotherThrough() async throws {
        try await withServer(configure: { configuration in
            configuration.allowedHosts = try? HostAllowlist(parsing: "localhost")
        }, routes: Self.routes) { server in
            let port = server.port
            let statuses = try await onThread {
                let connection = try TestConnection(port: port)
                return try ["localhost:1", "evil.example", "localhost:1", "LOCALHOST:1", "evil.example", "localhost:1"].map {
                    try connection.request("GET", "/lean", headers: [("Host", $0)]).status
                }
            }
            #expect(statuses == [200, 403, 200, 200, 403, 200])
        }
    }

    @Test func ipLiteralsOnlyWhenListed() async throws {
        let hosts = ["10.0.0.7:8080", "[fd00::7]:8080", "10.0.0.7.example", "larder"]
        let without = try await Self.statuses(list: "larder", hosts: hosts)
        let with = try await Self.statuses(list: "larder,ip-literals", hosts: hosts)
        #expect(without == ["10.0.0.7:8080": [403, 403], "[fd00::7]:8080": [403, 403], "10.0.0.7.example": [403, 403], "larder": [200, 200]])
        #expect(with == ["10.0.0.7:8080": [200, 200], "[fd00::7]:8080": [200, 200], "10.0.0.7.example": [403, 403], "larder": [200, 200]])
    }

    @Test func aStarOrANonLoopbackBindAnswersAnyHost() async throws {
        let hosts = ["attacker.example", "x", "localhost"]
        #expect(try await Self.statuses(list: "*", hosts: hosts).values.allSatisfy { $0 == [200, 200] })
        #expect(try await Self.statuses(list: nil, bind: "0.0.0.0", hosts: hosts).values.allSatisfy { $0 == [200, 200] })
        #expect(try await Self.statuses(list: nil, hosts: hosts) == [
            "attacker.example": [403, 403], "x": [403, 403], "localhost": [200, 200],
        ])
    }
}
