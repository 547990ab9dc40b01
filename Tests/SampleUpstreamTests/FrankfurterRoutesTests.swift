import Foundation
import LarderTesting
import Testing

/// The sample upstream's Frankfurter v2 surface over `Examples/upstream/frankfurter/`, against what the real
/// Frankfurter answered on the same set (`Tests/Fixtures/frankfurter-golden/`).
@Suite("Sample upstream: Frankfurter v2 over the multi-provider set")
struct FrankfurterRoutesTests {
    static let bodies = repositoryRoot.appending(path: "Tests/Fixtures/frankfurter-golden/bodies")

    static func fetch(_ port: Int, _ target: String) async throws -> TestResponse {
        try await onThread { try TestConnection.fetch(port: port, target) }
    }

    /// A body as JSON of any shape (`TestResponse.json` reads objects only).
    static func value(_ response: TestResponse) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(response.body))
    }

    /// The golden body whose file name starts with `prefix` and a `-`, as JSON.
    static func golden(_ prefix: String) throws -> Any {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: bodies.path).first { $0.hasPrefix(prefix + "-") })
        return try JSONSerialization.jsonObject(with: Data(contentsOf: bodies.appending(path: name)))
    }

    @Test func theCatalogueIsFrankfurters() async throws {
        try await withSampleUpstream { upstream in
            let currencies = try await Self.fetch(upstream.port, "/v2/currencies?scope=all")
            #expect(currencies.status == 200)
            // Names from Larder's currency table (the money gem 7.0.2's); the capture's gem (Debian's 7.1.1) renamed ANG.
            let golden = try #require(try Self.golden("v2_currencies_scope=all") as? [[String: Any]]).map { entry in
                entry["iso_code"] as? String == "ANG" ? entry.merging(["name": "Netherlands Antillean Gulden"]) { $1 } : entry
            }
            #expect(Self.value(currencies) as? NSArray == golden as NSArray)
            // Frankfurter's fields only: which way a provider stores its rows is not published (the mirror probes).
            let providers = try #require(Self.value(try await Self.fetch(upstream.port, "/v2/providers")) as? [[String: Any]])
            #expect(providers as NSArray == (try Self.golden("v2_providers") as? NSArray))
        }
    }

    @Test func oneProvidersQueryEchoesItsRowsAsFrankfurterDoes() async throws {
        try await withSampleUpstream { upstream in
            for (query, prefix) in [
                ("providers=NBP&base=USD&quotes=PLN", "v2_rates_providers=NBP_base=USD_quotes=PLN"),
                ("providers=CNB&base=CZK", "v2_rates_providers=CNB_base=CZK"),
            ] {
                let answer = try await Self.fetch(upstream.port, "/v2/rates?\(query)&from=2026-11-27&to=2026-11-27")
                // Frankfurter's latest adds the identity row (base in base), which the mirror leaves out.
                let expected = try #require(try Self.golden(prefix) as? [[String: Any]]).filter { $0["base"] as? String != $0["quote"] as? String }
                #expect(Self.value(answer) as? NSArray == expected as NSArray, "\(query)")
            }
            // A silent start opens with each pair's newest row of the 14 days before.
            let cbr = try #require(
                Self.value(try await Self.fetch(upstream.port, "/v2/rates?providers=CBR&base=USD&quotes=RUB&from=2026-11-10&to=2026-11-20"))
                    as? [[String: Any]])
            #expect(cbr.map { $0["date"] as? String } == ["2026-11-02"])
            #expect(try await Self.fetch(upstream.port, "/v2/rates?providers=NBP&base=AED").text == "[]", "a pegged base")
            let long = try await Self.fetch(upstream.port, "/v2/rates?providers=ECB&base=EUR&from=2010-01-01&to=2026-01-01")
            #expect(long.status == 422)
            #expect(long.json?["message"] as? String == "date range exceeds 5 years at daily granularity; filter with quotes= (5 currencies or fewer), aggregate with group=week or group=month, or split the range into shorter requests")
            #expect(try await Self.fetch(upstream.port, "/v2/rates?providers=ECB&base=EUR&quotes=USD&from=2010-01-01&to=2026-01-01").status == 200)

            // A new rows.csv is served from the next request.
            try await upstream.put("/frankfurter/rows.csv", "provider,date,base,quote,rate\nECB,2026-11-27,EUR,USD,1.5\n")
            #expect(try await Self.fetch(upstream.port, "/v2/rates?providers=ECB&base=EUR&from=2026-11-27&to=2026-11-27").text
                == #"[{"date":"2026-11-27","base":"EUR","quote":"USD","rate":1.5}]"#)
            #expect(try await upstream.requests("/v2/rates").total == 7)
        }
    }
}
