import LarderDocuments
import LarderRates
import Logging

// MARK: - The settings table

extension Setting {
    /// What a reader is told of a setting: its default as typed on the command line (nil: unset) and
    /// its meaning, in Markdown. `docs/configuration.md` and the README's table are written from this
    /// (`make docs`), and `make test` fails when they differ; a test resolves every default given here
    /// and compares it with `Configuration()`'s, so the two cannot part either.
    public struct Documentation: Sendable, Equatable {
        public let defaultValue: String?
        public let meaning: String
    }

    /// The one table of settings: a new setting is one case here (the compiler asks for it).
    public var documentation: Documentation {
        let (defaultValue, meaning): (String?, String) = switch self {
        case .host: ("127.0.0.1", "address to bind (a literal or a resolvable name; the container uses `0.0.0.0`)")
        case .port: ("8080", "port to bind; `0` picks a free one")
        case .cacheDir: ("./larder-cache", "where the cache lives")
        case .ratesURL:
            (nil, "upstream of `/rates` (`http`/`https`), or several in priority order: the flag repeated, the variable a comma list; each `URL` or `URL;format=NAME`, `;fallback` for one asked only when every other failed; unset disables the rates routes")
        case .ratesFormat: ("auto", Self.choices(RatesFormat.allCases.map(\.rawValue)))
        case .ratesTTL: ("1h", "how long a rate set stays fresh (under `--rates-schedule ttl`)")
        case .ratesSchedule:
            ("auto", "`ecb`: fresh until the ECB's next expected publication; `ttl`: the TTL; `auto`: `ecb` for an ECB feed, else `ttl`; `follow`: revalidated when the upstream's own `max-age` runs out, between 1 s and 60 s (a replica of a Larder)")
        case .ratesProvider:
            (nil, "who publishes the rates, as Frankfurter v2's `/v2/providers` and `?providers=` name it: 1-16 letters, digits or `_`, upper-cased; unset: the feed format's key, `ECB` for `ecb`, `ecb-sdmx` and `frankfurter`, `OXR` (Open Exchange Rates) for `json`, `PIPE` for `pipe`")
        case .ratesPollInterval: ("10m", "under `ecb`, how often a publication that is due but not there yet is polled for")
        case .ratesMaxBytes:
            ("32m", "the largest rates body taken (after decompression): bytes, or `512k`, `32m`, `1g`; the ECB's full `eurofxref-hist.xml` fits")
        case .ratesCORS:
            ("*", "which web pages may read the rates: `*`, `none`, or a comma list of origins (`https://app.example,http://localhost:3000`)")
        case .documentsCORS: ("none", "the same for the documents; none by default, as a mirror may hold private documents")
        case .documentsURL:
            (nil, "upstream documents index (`http`/`https`), or several in priority order as for `--rates-url`; unset disables the documents routes")
        case .documentsFormat: ("auto", Self.choices(DocumentsFormat.allCases.map(\.rawValue)))
        case .documentsIndexMaxBytes:
            ("64m", "the largest documents index taken (after decompression); an index of 100,000 entries (about 22 MB of JSON) fits")
        case .documentsMaxBytes: ("64m", "the largest single document taken (after decompression)")
        case .documentsTTL: ("15m", "how long the documents index stays fresh")
        case .documentsSchedule:
            ("ttl", "`ttl`: the TTL; `follow`: the index revalidated when the upstream's own `max-age` runs out, between 1 s and 60 s (a replica of a Larder)")
        case .adminToken: (nil, "when set, POST routes need `Authorization: Bearer TOKEN`")
        case .allowedHosts:
            (nil, "the `Host` names answered, against DNS rebinding: a comma list of `name`, `name:port`, `.domain` (it and its subdomains), `[v6]`, `ip-literals` or `*`; unset, bound to loopback: `localhost`, `127.0.0.1`, `[::1]` and `ip-literals`, bound elsewhere: `*` (with a log line recommending the flag)")
        case .threads:
            ("auto", "HTTP server threads, each an epoll loop sharing the port: `auto` is one per usable core, at most \(ThreadCount.autoCap); a number fixes it")
        case .logLevel:
            ("info", Self.choices(Logger.Level.allCases.map(\.rawValue)) + "; `debug` adds one access-log line per request")
        case .logFormat: ("text", Self.choices(LogFormat.allCases.map(\.rawValue)) + " (one object per line); logs go to standard error")
        case .clientTimeout: ("30s", "a client connection idle or stalled this long is closed")
        case .maxConnections: ("4096", "client connections at once")
        case .maxConnectionsPerIP: ("1024", "client connections at once from one address")
        }
        return Documentation(defaultValue: defaultValue, meaning: meaning)
    }

    /// The settings as a Markdown table (flag, variable, default, meaning), in the order given.
    public static func markdownTable(_ settings: [Setting] = allCases) -> String {
        var lines = ["| flag | variable | default | meaning |", "|---|---|---|---|"]
        for setting in settings {
            let documentation = setting.documentation
            let defaultValue = documentation.defaultValue.map { "`\($0)`" } ?? "unset"
            lines.append("| `\(setting.flag)` | `\(setting.environmentVariable)` | \(defaultValue) | \(documentation.meaning) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "`a`, `b` or `c`"
    private static func choices(_ values: [String]) -> String {
        let quoted = values.map { "`\($0)`" }
        return quoted.dropLast().joined(separator: ", ") + (quoted.count > 1 ? " or " : "") + (quoted.last ?? "")
    }
}
