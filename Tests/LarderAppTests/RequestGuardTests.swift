import Foundation
import LarderApp
import LarderConfig
import LarderDocumentsCache
import LarderFreshness
import LarderHTTP
import LarderRatesCache
import LarderTesting
import Testing

/// SPEC §6's refusals before any handler: a Host not allowed (DNS rebinding) and a cross-site POST,
/// against a whole Larder with both resources, on the default loopback allowlist.
@Suite("Host allowlist and cross-site POSTs", .serialized)
struct RequestGuardTests {
    static func refused(_ larder: TestLarder, _ reason: String) async throws -> Double? {
        sample(try await larder.get("/metrics").text, #"larder_requests_refused_total{reason="\#(reason)"}"#)
    }

    @Test func aRebindingHostIsRefusedOnEveryRouteBeforeAnyHandler() async throws {
        try await withRatesAndDocuments { larder, upstream in
            #expect(try await Self.refused(larder, "host_not_allowed") == 0, "exported at 0 from the first scrape")
            #expect(try await Self.refused(larder, "cross_site_request") == 0)
            let fetches = try await upstream.allRequests().mapValues(\.total)
            let targets: [(String, String)] = [
                ("GET", "/documents/welcome.txt"), ("GET", "/status"), ("GET", "/metrics"), ("GET", "/rates"),
                ("GET", "/health"), ("HEAD", "/health"), ("GET", "/ready"), ("GET", "/"), ("GET", "/no/such/path"),
                ("OPTIONS", "/rates"), ("POST", "/rates/refresh"), ("GET", "/v2/rates?base=USD"),
            ]
            for (method, target) in targets {
                let answer = try await larder.request(method, target, headers: [
                    ("Host", "attacker.example:\(larder.port)"), ("Origin", "http://attacker.example:\(larder.port)"),
                ])
                #expect(answer.status == 403, "\(method) \(target)")
                #expect(answer.header("Cache-Control") == "no-store", "\(method) \(target)")
                #expect(answer.header("Access-Control-Allow-Origin") == nil, "\(method) \(target)")
                if method != "HEAD" {
                    #expect(answer.errorCode == "host_not_allowed", "\(method) \(target)")
                    let message = (answer.json?["error"] as? [String: Any])?["message"] as? String ?? ""
                    #expect(message.contains("'attacker.example:\(larder.port)'") && message.contains("--allowed-hosts"))
                }
            }
            #expect(try await Self.refused(larder, "host_not_allowed") == Double(targets.count))
            #expect(try await Self.refused(larder, "cross_site_request") == 0, "the Host is checked first")
            #expect(try await upstream.allRequests().mapValues(\.total) == fetches, "the refused refresh ran")
        }
    }

    @Test(arguments: [
        "localhost:PORT", "127.0.0.1:PORT", "[::1]:PORT", "LOCALHOST.", "localhost", "LocalHost.:PORT",
        "10.1.2.3:8080", "192.168.0.10", "[fe80::1]:PORT", "[::ffff:127.0.0.1]", "",
    ])
    func theLoopbackDefaultAnswersLocalNamesAndIPLiterals(host: String) async throws {
        try await withLarder { larder, _ in
            let port = larder.port
            let answer = try await larder.get("/health", headers: [("Host", host.replacingOccurrences(of: "PORT", with: "\(port)"))])
            #expect(answer.status == 200, "\(host)")
        }
    }

    @Test(arguments: [
        "attacker.example", "localhost.attacker.example:PORT", "127.0.0.1.nip.io", "local", "1.2.3", "1.2.3.4.5",
        "256.1.1.1", "0x7f.0.0.1", "x",
    ])
    func theLoopbackDefaultRefusesOtherNames(host: String) async throws {
        try await withLarder { larder, _ in
            let port = larder.port
            let answer = try await larder.get("/health", headers: [("Host", host.replacingOccurrences(of: "PORT", with: "\(port)"))])
            #expect(answer.status == 403, "\(host)")
            #expect(answer.errorCode == "host_not_allowed", "\(host)")
        }
    }

    @Test func aRequestWithoutHostIsServed() async throws {
        try await withLarder { configuration, _ in
            configuration.allowedHosts = try HostAllowlist(parsing: "larder.example")
        } _: { larder, _ in
            let port = larder.port
            let answer = try await onThread {
                let connection = try TestConnection(port: port)
                try connection.send("GET /health HTTP/1.0\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(answer.status == 200)
            #expect(try await larder.get("/health", headers: [("Host", "Larder.Example.")]).status == 200)
            #expect(try await larder.get("/health").status == 403, "127.0.0.1 is not in the list")
        }
    }

    /// Each one aims at both refreshes: had either run, the upstream would have counted a request
    /// and the refreshers' last attempts would have moved.
    @Test func crossSitePostsAreRefusedAndRunNothingTokenOrNot() async throws {
        try await withRatesAndDocuments { configuration, _ in
            configuration.adminToken = "s3cret"
        } _: { larder, upstream in
            let application = try #require(larder.application)
            let attempts = (application.rates?.refresher.status.lastAttempt, application.documents?.refresher.status.lastAttempt)
            let fetches = try await upstream.allRequests().mapValues(\.total)
            let own = "http://127.0.0.1:\(larder.port)"
            let forms: [[(String, String)]] = [
                [("Origin", "http://attacker.example")], [("Origin", "null")], [("Sec-Fetch-Site", "cross-site")],
                [("Sec-Fetch-Site", "same-site")], [("Origin", "http://127.0.0.2:\(larder.port)")],
                [("Origin", "http://127.0.0.1:1")], [("Host", "127.0.0.1:\(larder.port)"), ("Origin", "ftp://127.0.0.1:\(larder.port)")],
                [("Host", "127.0.0.1:\(larder.port)"), ("Origin", own), ("Sec-Fetch-Site", "same-site")],
                [("Origin", own + ".attacker.example")],
            ]
            var count = 0
            for form in forms {
                for target in ["/rates/refresh", "/documents/refresh", "/no/such/post"] {
                    let answer = try await larder.post(target, headers: form + [("Authorization", "Bearer s3cret")])
                    count += 1
                    #expect(answer.status == 403, "\(form) \(target)")
                    #expect(answer.errorCode == "cross_site_request", "\(form) \(target)")
                    #expect(answer.header("Cache-Control") == "no-store")
                }
            }
            #expect(try await upstream.allRequests().mapValues(\.total) == fetches, "a refused refresh ran")
            #expect(application.rates?.refresher.status.lastAttempt == attempts.0)
            #expect(application.documents?.refresher.status.lastAttempt == attempts.1)
            #expect(try await RequestGuardTests.refused(larder, "cross_site_request") == Double(count))
            #expect(try await RequestGuardTests.refused(larder, "host_not_allowed") == 0)
        }
    }

    /// The status page's own buttons (same origin) and clients that send neither header still refresh.
    @Test(arguments: [
        [("Host", "127.0.0.1:PORT"), ("Origin", "http://127.0.0.1:PORT"), ("Sec-Fetch-Site", "same-origin")],
        [("Host", "localhost:PORT"), ("Origin", "http://LOCALHOST:PORT")],
        [("Host", "larder.example"), ("Origin", "https://larder.example")],
        [("Sec-Fetch-Site", "same-origin")], [("Sec-Fetch-Site", "none")], [],
    ])
    func sameOriginAndHeaderlessPostsRefresh(form: [(String, String)]) async throws {
        try await withRates { configuration, _ in
            configuration.allowedHosts = try HostAllowlist(parsing: "localhost,127.0.0.1,larder.example")
        } _: { larder, upstream in
            let synced = try await eventually {
                guard let rates = larder.application?.rates else { return false }
                return rates.refresher.status.lastAttempt != nil && !rates.refresher.isRefreshing
            }
            #expect(synced, "the start-up sync finished: the POST starts a refresh of its own")
            let before = try await upstream.requests(ratesPath).total
            let headers = form.map { ($0.0, $0.1.replacingOccurrences(of: "PORT", with: "\(larder.port)")) }
            let answer = try await larder.post("/rates/refresh", headers: headers)
            #expect(answer.status == 200, "\(form): \(answer.text)")
            #expect(try await upstream.requests(ratesPath).total == before + 1, "\(form)")
        }
    }
}
