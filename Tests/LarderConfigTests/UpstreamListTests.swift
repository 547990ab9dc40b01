import LarderConfig
import LarderRates
import Testing

@Suite("Upstream lists: --rates-url repeated, LARDER_RATES_URL a comma list, URL;format=NAME (SPEC §2)")
struct UpstreamListTests {
    private let ecb = "https://data-api.ecb.europa.eu/service/data/EXR/D..EUR.SP00.A"
    private let frankfurter = "https://api.frankfurter.dev/v1/"

    @Test func repeatedFlagsKeepTheirOrderAndFormats() throws {
        // `ServeCommand` joins repeated flags with newlines.
        let raw = "\(ecb);format=ecb-sdmx\n\(frankfurter);format=frankfurter\nhttps://mirror.test/eurofxref.xml"
        let rates = try #require(try Configuration.resolve(flags: [.ratesURL: raw], environment: [:]).rates)
        #expect(rates.upstreams.map(\.url) == [ecb, frankfurter, "https://mirror.test/eurofxref.xml"])
        #expect(rates.upstreams.map(\.format) == [.ecbSDMX, .frankfurter, .auto])
        #expect(rates.url == ecb)
    }

    @Test func theVariableSplitsAtACommaBeforeAScheme() throws {
        // A comma inside a URL (a query's list) stays; one before http:// or https:// separates entries.
        let raw = "https://a.test/rates?c=USD,JPY;format=ecb,http://b.test/feed.xml"
        let rates = try #require(try Configuration.resolve(flags: [:], environment: ["LARDER_RATES_URL": raw]).rates)
        #expect(rates.upstreams.map(\.url) == ["https://a.test/rates?c=USD,JPY", "http://b.test/feed.xml"])
        #expect(rates.upstreams.map(\.format) == [.ecb, .auto])
    }

    @Test func aFallbackMarkerInEitherOrderWithTheFormat() throws {
        let raw = "http://primary-a.test/;format=frankfurter\nhttp://primary-b.test/;fallback;format=frankfurter\n"
            + "\(ecb);format=ecb-sdmx;fallback"
        let rates = try #require(try Configuration.resolve(flags: [.ratesURL: raw], environment: [:]).rates)
        #expect(rates.upstreams.map(\.url) == ["http://primary-a.test/", "http://primary-b.test/", ecb])
        #expect(rates.upstreams.map(\.format) == [.frankfurter, .frankfurter, .ecbSDMX])
        #expect(rates.upstreams.map(\.fallback) == [false, true, true])
        #expect(rates.identity.contains(";fallback") == false, "the marker is no part of where the data comes from")
    }

    @Test func everyUpstreamAFallbackIsRefused() {
        #expect(throws: ConfigurationError.self) {
            try Configuration.resolve(flags: [.ratesURL: "https://a.test/r.xml;fallback"], environment: [:])
        }
    }

    @Test func rateFormatFlagAppliesToEntriesWithoutTheirOwn() throws {
        let raw = "https://a.test/r.json\nhttps://b.test/r.xml;format=ecb"
        let rates = try #require(try Configuration.resolve(flags: [.ratesURL: raw, .ratesFormat: "json"], environment: [:]).rates)
        #expect(rates.upstreams.map(\.format) == [.json, .ecb])
    }

    @Test func oneURLIsTodaysUpstreamAndItsIdentity() throws {
        let rates = try #require(try Configuration.resolve(flags: [.ratesURL: "https://a.test/r.xml"], environment: [:]).rates)
        #expect(rates.upstreams.count == 1)
        #expect(rates.identity == "https://a.test/r.xml")
    }

    @Test func reorderingTheListKeepsItsIdentity() {
        let forward = UpstreamResource<RatesFormat>(upstreams: [
            Upstream(url: "https://a.test/r", format: .ecb), Upstream(url: "https://b.test/r", format: .auto),
        ])
        let backward = UpstreamResource<RatesFormat>(upstreams: [
            Upstream(url: "https://b.test/r", format: .ecb), Upstream(url: "https://a.test/r", format: .auto),
        ])
        let more = UpstreamResource<RatesFormat>(upstreams: [
            Upstream(url: "https://a.test/r", format: .ecb), Upstream(url: "https://c.test/r", format: .ecb),
        ])
        #expect(forward?.identity == backward?.identity)
        #expect(forward?.identity != more?.identity)
    }

    @Test(arguments: [
        "https://user:s3cret@a.test/r.xml\nftp://user:s3cret@b.test/r.xml",
        "https://user:s3cret@a.test/r.xml;format=csv",
        "https://a.test/r.xml,https://user:s3cret@b test/r.xml",
    ])
    func aBadEntryIsNamedWithoutCredentials(raw: String) {
        #expect {
            _ = try Configuration.resolve(flags: [.ratesURL: raw], environment: [:])
        } throws: { error in
            let text = (error as? ConfigurationError)?.description ?? ""
            return text.hasPrefix("--rates-url") && !text.contains("s3cret")
        }
    }
}
