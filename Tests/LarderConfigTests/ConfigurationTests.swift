import LarderConfig
import LarderDocuments
import LarderHTTP
import LarderRates
import Logging
import Testing

@Suite("Configuration: flags, environment, validation (SPEC §2)")
struct ConfigurationTests {
    @Test(arguments: [
        ("90s", 90), ("15m", 900), ("1h", 3600), ("2d", 172_800), ("45", 45), ("0", 0),
    ] as [(String, Int64)])
    func parsesDurations(text: String, seconds: Int64) {
        #expect(DurationParser.parse(text) == .seconds(seconds))
    }

    @Test(arguments: ["", "s", "1.5h", "-1", "1w", "h1", "1 h", "١h", "99999999999999999999d"])
    func refusesBadDurations(text: String) {
        #expect(DurationParser.parse(text) == nil)
    }

    @Test func formatsDurationsShortest() {
        #expect(DurationParser.format(.seconds(3600)) == "1h")
        #expect(DurationParser.format(.seconds(90)) == "90s")
        #expect(DurationParser.format(.seconds(172_800)) == "2d")
    }

    @Test func defaultsFollowTheSpec() throws {
        let configuration = try Configuration.resolve(flags: [:], environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.cacheDirectory == "./larder-cache")
        #expect(configuration.rates == nil)
        #expect(configuration.documents == nil)
        #expect(configuration.ratesTTL == .seconds(3600))
        #expect(configuration.documentsTTL == .seconds(900))
        #expect(configuration.documentsSchedule == .ttl)
        #expect(configuration.threads == .auto)
        #expect(configuration.logLevel == .info)
        #expect(configuration.logFormat == .text)
        #expect(configuration.clientTimeout == .seconds(30))
        #expect(configuration.maxConnections == 4096)
        #expect(configuration.maxConnectionsPerIP == 1024)
        #expect(configuration.adminToken == nil)
    }

    @Test func everySettingIsReadFromItsFlag() throws {
        let flags: [Setting: String] = [
            .host: "::1", .port: "0", .cacheDir: "/tmp/c", .ratesURL: "https://x.test/r.xml", .ratesFormat: "ecb",
            .ratesTTL: "2h", .documentsURL: "http://y.test/index.json", .documentsFormat: "json", .documentsTTL: "5m",
            .adminToken: "s3cret", .threads: "3", .logLevel: "debug", .logFormat: "json", .clientTimeout: "10s",
            .maxConnections: "100", .maxConnectionsPerIP: "10", .ratesSchedule: "ttl", .ratesPollInterval: "5m",
            .ratesCORS: "https://App.example, http://localhost:3000", .documentsCORS: "*", .ratesMaxBytes: "64m",
            .documentsIndexMaxBytes: "128m", .documentsMaxBytes: "1g", .allowedHosts: "larder.example:8080,.svc.local",
            .ratesProvider: "boc", .documentsSchedule: "follow",
        ]
        #expect(flags.count == Setting.allCases.count)
        let configuration = try Configuration.resolve(flags: flags, environment: [:])
        #expect(configuration.host == "::1")
        #expect(configuration.port == 0)
        #expect(configuration.cacheDirectory == "/tmp/c")
        #expect(configuration.rates == UpstreamResource(url: "https://x.test/r.xml", format: .ecb))
        #expect(configuration.ratesTTL == .seconds(7200))
        #expect(configuration.documents == UpstreamResource(url: "http://y.test/index.json", format: .json))
        #expect(configuration.documentsTTL == .seconds(300))
        #expect(configuration.documentsSchedule == .follow)
        #expect(configuration.adminToken == "s3cret")
        #expect(configuration.threads == .fixed(3))
        #expect(configuration.logLevel == .debug)
        #expect(configuration.logFormat == .json)
        #expect(configuration.clientTimeout == .seconds(10))
        #expect(configuration.maxConnections == 100)
        #expect(configuration.maxConnectionsPerIP == 10)
        #expect(configuration.ratesSchedule == .ttl)
        #expect(configuration.ratesProvider == "BOC", "upper-cased, as ?providers= compares")
        #expect(configuration.ratesPollInterval == .seconds(300))
        #expect(configuration.ratesCORS == .list(["https://app.example", "http://localhost:3000"]))
        #expect(configuration.documentsCORS == .any)
        #expect(configuration.ratesMaxBytes == 64 << 20)
        #expect(configuration.documentsIndexMaxBytes == 128 << 20)
        #expect(configuration.documentsMaxBytes == 1 << 30)
        #expect(configuration.allowedHosts?.rules == [.name("larder.example", port: 8080), .domain("svc.local", port: nil)])
    }

    @Test func theNewDefaultsFollowTheSpec() throws {
        let configuration = try Configuration.resolve(flags: [:], environment: [:])
        #expect(configuration.ratesSchedule == .auto)
        #expect(configuration.ratesPollInterval == .seconds(600))
        #expect(configuration.ratesCORS == .any, "rates are public reference data")
        #expect(configuration.documentsCORS == .none, "a mirror may hold private documents")
        #expect(configuration.ratesMaxBytes == 32 << 20, "the ECB's full history fits")
        #expect(configuration.documentsIndexMaxBytes == 64 << 20, "an index of 100,000 entries fits")
        #expect(configuration.documentsMaxBytes == 64 << 20)
        let none = try Configuration.resolve(flags: [.ratesCORS: "none"], environment: ["LARDER_DOCUMENTS_CORS": "*"])
        #expect(none.ratesCORS == .none && none.documentsCORS == .any)
        #expect(none.allowedHosts == nil, "by the bind address")
    }

    @Test(arguments: [
        (Setting.ratesCORS, "https://a.example/"), (.ratesCORS, "ftp://a.example"), (.documentsCORS, "a.example"),
        (.documentsCORS, "https://a.example/path"), (.ratesCORS, "https://a.example,"), (.ratesSchedule, "weekly"),
        (.ratesProvider, "E C B"), (.ratesProvider, "ABCDEFGHIJKLMNOPQ"), (.ratesProvider, ""),
        (.ratesPollInterval, "0"), (.ratesMaxBytes, "12"), (.ratesMaxBytes, "2t"), (.ratesMaxBytes, "-1m"),
        (.documentsIndexMaxBytes, "1000"), (.documentsIndexMaxBytes, "lots"), (.documentsMaxBytes, "2tib"),
        (.allowedHosts, ""), (.allowedHosts, "a b"), (.allowedHosts, "*.example.com"), (.allowedHosts, "a:99999"),
    ])
    func refusesBadNewValuesNamingTheFlag(setting: Setting, value: String) {
        #expect {
            _ = try Configuration.resolve(flags: [setting: value], environment: [:])
        } throws: { error in
            (error as? ConfigurationError)?.description.hasPrefix(setting.flag) == true
        }
    }

    @Test(arguments: [("auto", ThreadCount.auto), ("1", .fixed(1)), ("16", .fixed(16))])
    func threadsTakeACountOrAuto(raw: String, expected: ThreadCount) throws {
        #expect(try Configuration.resolve(flags: [.threads: raw], environment: [:]).threads == expected)
    }

    /// `auto`: one thread per usable core, at least one, at most the cap.
    @Test(arguments: [(0, 1), (1, 1), (2, 2), (3, 3), (8, 8), (200, ThreadCount.autoCap)])
    func autoThreadsFollowTheCores(cores: Int, threads: Int) {
        #expect(ThreadCount.auto.resolved(cores: cores) == threads)
        #expect(ThreadCount.fixed(3).resolved(cores: cores) == 3)
    }

    @Test func flagBeatsEnvironmentAndEnvironmentBeatsDefault() throws {
        let configuration = try Configuration.resolve(
            flags: [.port: "9000"],
            environment: ["LARDER_PORT": "7000", "LARDER_RATES_TTL": "10m", "LARDER_LOG_LEVEL": "warning"])
        #expect(configuration.port == 9000)
        #expect(configuration.ratesTTL == .seconds(600))
        #expect(configuration.logLevel == .warning)
    }

    @Test func aBadEnvironmentValueIsIgnoredWhenTheFlagIsGiven() throws {
        let configuration = try Configuration.resolve(flags: [.port: "1"], environment: ["LARDER_PORT": "nope"])
        #expect(configuration.port == 1)
    }

    @Test func environmentVariableNamesFollowTheFlags() {
        #expect(Setting.maxConnectionsPerIP.environmentVariable == "LARDER_MAX_CONNECTIONS_PER_IP")
        #expect(Setting.cacheDir.environmentVariable == "LARDER_CACHE_DIR")
        #expect(Setting.ratesURL.flag == "--rates-url")
    }

    @Test(arguments: [
        (Setting.port, "abc"), (.port, "70000"), (.port, "-1"), (.host, ""), (.host, "no such host.invalid"),
        (.cacheDir, ""), (.ratesURL, "ftp://x.test/r"), (.ratesURL, "not a url"), (.ratesURL, "http://"),
        (.ratesFormat, "csv"), (.ratesTTL, "5x"), (.ratesTTL, "0"), (.documentsURL, "file:///etc/passwd"),
        (.documentsFormat, "yaml"), (.documentsTTL, "-5m"), (.adminToken, ""), (.adminToken, "has space"),
        (.threads, "0"), (.threads, "many"), (.logLevel, "loud"), (.logFormat, "xml"), (.clientTimeout, "2d"),
        (.clientTimeout, "0s"), (.maxConnections, "0"), (.maxConnections, "lots"), (.maxConnectionsPerIP, "0"),
    ])
    func refusesBadValuesNamingTheFlag(setting: Setting, value: String) {
        #expect {
            try Configuration.resolve(flags: [setting: value], environment: [:])
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.setting == setting && !error.fromEnvironment && error.description.hasPrefix(setting.flag)
        }
    }

    @Test func refusesBadEnvironmentValuesNamingTheVariable() {
        #expect {
            try Configuration.resolve(flags: [:], environment: ["LARDER_THREADS": "zero"])
        } throws: { error in
            (error as? ConfigurationError)?.description.hasPrefix("LARDER_THREADS (--threads): 'zero'") == true
        }
    }
}
