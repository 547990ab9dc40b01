import Foundation
import LarderConfig
import LarderDocuments
import LarderRates
import LarderTesting
import Testing

@Suite("Each resource's upstreams in /status, /metrics and the status page")
struct UpstreamHealthReportTests {
    @Test func bothResourcesListTheirUpstreamsWithoutCredentials() async throws {
        let dead = "http://reader:s3cret@127.0.0.1:1/"
        try await withRatesAndDocuments { configuration, upstream in
            configuration.rates = UpstreamResource(upstreams: [
                Upstream(url: dead + "rates.xml", format: .ecb),
                Upstream(url: upstream.url("/rates/eurofxref-daily.xml"), format: .auto),
            ])
            configuration.documents = UpstreamResource(upstreams: [
                Upstream(url: dead + "index.json", format: .auto),
                Upstream(url: upstream.url("/documents/index.json"), format: .auto),
            ])
        } _: { larder, upstream in
            let status = try await larder.get("/status")
            let metrics = try await larder.get("/metrics").text
            let page = try await larder.get("/", headers: [("Accept", "text/html")]).text
            for text in [status.text, metrics, page] { #expect(!text.contains("s3cret")) }
            let resources = status.json?["resources"] as? [String: Any] ?? [:]
            for (resource, path) in [("rates", "/rates/eurofxref-daily.xml"), ("documents", "/documents/index.json")] {
                let upstreams = (resources[resource] as? [String: Any])?["upstreams"] as? [[String: Any]] ?? []
                #expect(upstreams.map { $0["state"] as? String } == ["open", "closed"], "\(resource)")
                #expect(upstreams.last?["label"] as? String == upstream.url(path))
                #expect(upstreams.last?["last_success"] is String, "\(resource)")
                let dead = try #require(upstreams.first?["label"] as? String)
                #expect(metrics.contains(#"larder_upstream_up{resource="\#(resource)",upstream="\#(dead)"} 0"#))
                #expect(metrics.contains(#"larder_upstream_up{resource="\#(resource)",upstream="\#(upstream.url(path))"} 1"#))
                #expect(page.contains(upstream.url(path)))
            }
            // The resource's own counters keep their labels (their sums stay right); the per-upstream family adds one.
            #expect(metrics.contains(#"larder_upstream_fetches_total{resource="rates",outcome="error"} 1"#))
            #expect(metrics.contains(
                #"larder_upstream_fetches_by_upstream_total{resource="documents",upstream="\#(upstream.url("/documents/index.json"))",outcome="200"} 1"#))
        }
    }
}
