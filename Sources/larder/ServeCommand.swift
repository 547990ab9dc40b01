import ArgumentParser
import Foundation
import LarderApp
import LarderConfig
import LarderHTTP
import Logging

/// `larder serve`: every flag of SPEC §2, each also readable from its `LARDER_*` variable.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve cached rates and documents over HTTP.",
        discussion: "Every option can also be set with its LARDER_* environment variable (e.g. LARDER_RATES_TTL); a flag beats the environment."
    )

    @OptionGroup var listen: ListenOptions
    @Option(name: .customLong("cache-dir"), help: "Where the cache lives (default ./larder-cache).")
    var cacheDir: String?
    @Option(name: .customLong("rates-url"), help: "Upstream of /rates (http or https), URL or URL;format=NAME; repeat it for fallbacks in priority order; unset disables /rates.")
    var ratesURL: [String] = []
    @Option(name: .customLong("rates-format"), help: "auto, ecb, ecb-sdmx, frankfurter, pipe or json (default auto).")
    var ratesFormat: String?
    @Option(name: .customLong("rates-ttl"), help: "How long rates stay fresh: 90s, 15m, 1h, 2d or seconds (default 1h).")
    var ratesTTL: String?
    @Option(name: .customLong("rates-schedule"), help: "auto, ecb, ttl or follow: when rates go stale (default auto: the ECB's publication calendar for an ECB feed, else the TTL; follow: the upstream's max-age, 1 to 60 s).")
    var ratesSchedule: String?
    @Option(name: .customLong("rates-provider"), help: "Who publishes the rates, as /v2/providers names it (default: ECB for an ECB feed, OXR for json, PIPE for pipe).")
    var ratesProvider: String?
    @Option(name: .customLong("rates-poll-interval"), help: "Under the ECB calendar, how often a late publication is polled for (default 10m).")
    var ratesPollInterval: String?
    @Option(name: .customLong("rates-max-bytes"), help: "Largest rates body taken from the upstream, after decompression (default 32m).")
    var ratesMaxBytes: String?
    @Option(name: .customLong("documents-index-max-bytes"), help: "Largest documents index taken from the upstream, after decompression (default 64m).")
    var documentsIndexMaxBytes: String?
    @Option(name: .customLong("documents-max-bytes"), help: "Largest document taken from the upstream, after decompression (default 64m).")
    var documentsMaxBytes: String?
    @Option(name: .customLong("rates-cors"), help: "Web origins that may read the rates: *, none, or a comma list of origins (default *).")
    var ratesCORS: String?
    @Option(name: .customLong("documents-cors"), help: "Web origins that may read the documents: *, none, or a comma list (default none).")
    var documentsCORS: String?
    @Option(name: .customLong("allowed-hosts"), help: "Host names answered, against DNS rebinding: a comma list of name, name:port, .domain (and its subdomains), [v6], ip-literals or * (default: localhost and IP literals on a loopback bind, else *).")
    var allowedHosts: String?
    @Option(name: .customLong("documents-url"), help: "Upstream documents index (http or https), URL or URL;format=NAME; repeat it for mirrors in priority order; unset disables /documents.")
    var documentsURL: [String] = []
    @Option(name: .customLong("documents-format"), help: "auto, xml or json (default auto).")
    var documentsFormat: String?
    @Option(name: .customLong("documents-ttl"), help: "How long the documents index stays fresh (default 15m).")
    var documentsTTL: String?
    @Option(name: .customLong("documents-schedule"), help: "ttl or follow: when the documents index goes stale (default ttl; follow: the upstream's max-age, 1 to 60 s).")
    var documentsSchedule: String?
    @Option(name: .customLong("admin-token"), help: "Bearer token required by POST routes (default: none required).")
    var adminToken: String?
    @Option(name: .customLong("threads"), help: "HTTP server threads, each an epoll loop: auto (default: one per core, at most \(ThreadCount.autoCap)) or a count.")
    var threads: String?
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (default info).")
    var logLevel: String?
    @Option(name: .customLong("log-format"), help: "text or json (default text), on standard error.")
    var logFormat: String?
    @Option(name: .customLong("client-timeout"), help: "Close a client connection idle or stalled this long (default 30s).")
    var clientTimeout: String?
    @Option(name: .customLong("max-connections"), help: "Most client connections at once (default 4096).")
    var maxConnections: String?
    @Option(name: .customLong("max-connections-per-ip"), help: "Most client connections from one address (default 1024).")
    var maxConnectionsPerIP: String?

    private var flags: [Setting: String] {
        let pairs: [(Setting, String?)] = [
            (.host, listen.host), (.port, listen.port), (.cacheDir, cacheDir),
            (.ratesURL, Self.joined(ratesURL)), (.ratesFormat, ratesFormat), (.ratesTTL, ratesTTL),
            (.documentsURL, Self.joined(documentsURL)), (.documentsFormat, documentsFormat), (.documentsTTL, documentsTTL),
            (.documentsSchedule, documentsSchedule),
            (.adminToken, adminToken), (.threads, threads), (.logLevel, logLevel), (.logFormat, logFormat),
            (.clientTimeout, clientTimeout), (.maxConnections, maxConnections),
            (.maxConnectionsPerIP, maxConnectionsPerIP), (.ratesSchedule, ratesSchedule), (.ratesProvider, ratesProvider),
            (.ratesPollInterval, ratesPollInterval), (.ratesMaxBytes, ratesMaxBytes), (.ratesCORS, ratesCORS),
            (.documentsCORS, documentsCORS), (.documentsIndexMaxBytes, documentsIndexMaxBytes),
            (.documentsMaxBytes, documentsMaxBytes), (.allowedHosts, allowedHosts),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.compactMap { setting, value in value.map { (setting, $0) } })
    }

    /// A repeated flag's values as one setting value: newline-separated, as `Configuration.resolve` reads a list.
    private static func joined(_ values: [String]) -> String? {
        values.isEmpty ? nil : values.joined(separator: "\n")
    }

    func run() async throws {
        let configuration: Configuration
        do {
            configuration = try Configuration.resolve(
                flags: flags,
                environment: ProcessInfo.processInfo.environment
            )
        } catch {
            FileHandle.standardError.write(Data("larder serve: \(error)\nSee 'larder serve --help'.\n".utf8))
            throw ExitCode(64)  // EX_USAGE
        }
        LoggingBootstrap.bootstrap(format: configuration.logFormat, level: configuration.logLevel)
        let logger = Logger(label: "larder")
        FileDescriptorLimit.raise(logger: logger)
        #if DEBUG
        // A plain `swift build` gives this build; a first sync of 10,000 documents took 2 × wget's time with it
        // and 0.7 × with the release build (docs/performance.md), so a user timing Larder is told first.
        logger.warning("this is a debug build of larder, several times slower than a release one: make build (swift build -c release)")
        #endif

        let application: LarderApplication
        do {
            application = try LarderApplication(configuration: configuration, logger: logger) { host, port in
                // Unbuffered, so a test or a supervisor reading the pipe sees it at once.
                let line = "larder \(LarderCommand.versionDescription) listening on \(HTTPServer.url(host: host, port: port))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("larder serve: \(error)\n".utf8))
            throw ExitCode(73)  // EX_CANTCREAT: the cache cannot be opened
        }
        // Large prepared bodies go by sendfile from the page cache, cheaper than from memfds (SharedBytes).
        if !SharedBytes.keepLargeBodies(in: configuration.cacheDirectory) {
            logger.warning("cannot open \(configuration.cacheDirectory) for large answers' files: memory files instead")
        }
        do {
            try await application.run()
        } catch {
            logger.critical("larder stopped: \(error)")
            throw ExitCode.failure
        }
    }
}
