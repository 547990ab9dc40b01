// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "larder",
    // Linux only: the server, the store and the tools import Glibc, read /proc and use epoll and fdatasync
    // (docs/architecture.md#platform). No `platforms:` entry claims otherwise.
    products: [
        .executable(name: "larder", targets: ["larder"]),
        .executable(name: "sample-upstream", targets: ["sample-upstream"]),
        // For Fuzz/Package.swift, which builds these targets with libFuzzer (`make fuzz`).
        .library(name: "LarderFuzzing", targets: ["LarderFuzzing"]),
    ],
    // Exact versions, so a build next month links the same code; the packages these bring are pinned in
    // tools/deps/swift-dependencies.txt and checked by `make build` and `make test`.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        // gzip of a prepared body, once per change: compress-nio compresses one buffer in one call over
        // the system zlib (on NIOCore, already here through AsyncHTTPClient). swift-nio-extras'
        // NIOHTTPCompression is a NIO channel handler that compresses each response as it is written:
        // per request, and inside a NIO pipeline, which libmicrohttpd is not. No `br`: no Swift brotli
        // package is at hand, and a hand-written encoder is not worth its risk.
        .package(url: "https://github.com/adam-fowler/compress-nio.git", exact: "1.5.0"),
    ],
    targets: [
        // libmicrohttpd, found through pkg-config: `make deps` puts its static build (1.0.10-1, pinned with its
        // source's sums in tools/deps/libmicrohttpd.sh) first on PKG_CONFIG_PATH; a plain `swift build` takes the system's (Debian 12's libmicrohttpd-dev is
        // 0.9.75, and the build stops with the line that fixes it). shim.h is only its header; CLarderHTTP holds Larder's C.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Larder's C around libmicrohttpd: the daemon's options, the connection limits shared by the
        // daemons, the epoll loop's thread. Warnings are errors (the same flags as `make test-c`).
        .target(
            name: "CLarderHTTP",
            dependencies: ["CMicroHTTPD"],
            cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]
        ),
        // The HTTP server: the only module that touches libmicrohttpd. Knows nothing of rates or documents.
        .target(
            name: "LarderHTTP",
            dependencies: [
                "CLarderHTTP",
                "CMicroHTTPD",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The one configuration value (SPEC §2) that every later module reads. The rates and documents
        // modules lend it their format and schedule vocabularies, so they stay free of configuration.
        .target(
            name: "LarderConfig",
            dependencies: ["LarderRates", "LarderDocuments", "LarderHTTP", .product(name: "Logging", package: "swift-log")]
        ),
        // The SQLite store (GRDB): migrations, records, the format-version and upstream-URL checks.
        .target(
            name: "LarderStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The one shared upstream HTTP client (AsyncHTTPClient): conditional GET, limits, timeouts.
        .target(
            name: "LarderUpstream",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The freshness rules of SPEC §4: TTL, timestamps, single flight, backoff, scheduling. Pure Swift, clock injected.
        .target(
            name: "LarderFreshness",
            dependencies: ["LarderFormats", .product(name: "Logging", package: "swift-log")]
        ),
        // Cached answers over HTTP: representations with validators, SPEC §3's cache headers, 304s,
        // and responses prepared once per second for the hot path. Shared by rates and documents.
        .target(
            name: "LarderServing",
            dependencies: [
                "LarderHTTP",
                "LarderFreshness",
                "LarderFormats",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Strict readers shared by the upstream formats: JSON keeping number text, XML screening and the
        // refusing XMLParser delegate, RFC 3339. Pure.
        .target(name: "LarderFormats"),
        // Exchange rates as data: the model, the upstream formats (SPEC §5), cross rates, JSON output, the
        // in-memory history of stored days. Pure.
        .target(
            name: "LarderRates",
            dependencies: ["LarderFormats"]
        ),
        // Documents as data: the index model, XML and JSON index parsing, name rules (SPEC §5, §6). Pure.
        .target(
            name: "LarderDocuments",
            dependencies: ["LarderFormats"]
        ),
        // The rates API: Larder's /rates, Frankfurter v1 and v2, each in its folder, served from the snapshot a
        // `RatesSource` publishes (the rates cache is one). Knows nothing of the store, the sync or the upstreams.
        .target(
            name: "LarderRatesAPI",
            dependencies: [
                "LarderRates",
                "LarderFormats",
                "LarderHTTP",
                "LarderFreshness",
                "LarderServing",
                .product(name: "Logging", package: "swift-log"),
            ],
            // The dialects' OpenAPI documents, generated from openapi.yaml (tools/generate/dialect-openapi.py), as bytes
            // in the module (`.embedInCode`, as the status page's files: no resource bundle).
            resources: [
                .embedInCode("Resources/v1-openapi.json"),
                .embedInCode("Resources/v2-openapi.json"),
            ]
        ),
        // The rates cache: sync from the upstream into the store, the history and the snapshot it publishes,
        // the ECB schedule, the cross-check.
        .target(
            name: "LarderRatesCache",
            dependencies: [
                "LarderRates",
                "LarderRatesAPI",
                "LarderConfig",
                "LarderStore",
                "LarderUpstream",
                "LarderFormats",
                "LarderFreshness",
                "LarderServing",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The documents mirror: index sync, verified downloads into files, the /documents routes.
        .target(
            name: "LarderDocumentsCache",
            dependencies: [
                "LarderDocuments",
                "LarderFormats",
                "LarderHTTP",
                "LarderConfig",
                "LarderStore",
                "LarderUpstream",
                "LarderFreshness",
                "LarderServing",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Prometheus metrics through swift-metrics: the request observer and the cache events, and /metrics.
        .target(
            name: "LarderMetrics",
            dependencies: [
                "LarderHTTP",
                "LarderServing",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // Builds the running application from a configuration: routes, services, logging, and the
        // status page at `/` (its inline script and stylesheet pinned by SHA-256 in its CSP).
        .target(
            name: "LarderApp",
            dependencies: [
                "LarderHTTP",
                "LarderConfig",
                "LarderStore",
                "LarderUpstream",
                "LarderFreshness",
                "LarderRates",
                "LarderDocuments",
                "LarderRatesAPI",
                "LarderRatesCache",
                "LarderDocumentsCache",
                "LarderMetrics",
                "LarderFormats",
                "LarderServing",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // The status page's script and stylesheet, as files that node and a CSS parser check (`make test`),
            // compiled into the module as bytes: the binary needs no resource bundle (docs/architecture.md).
            resources: [
                .embedInCode("StatusPage/Resources/page.js"),
                .embedInCode("StatusPage/Resources/page.css"),
            ]
        ),
        // The thin executable: command line, logging bootstrap, signals.
        .executableTarget(
            name: "larder",
            dependencies: [
                "LarderApp",
                "LarderConfig",
                "LarderHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A controllable upstream for `make run` and the integration tests.
        .target(
            name: "SampleUpstream",
            dependencies: [
                "LarderHTTP",
                "LarderFormats",
                "LarderRates",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "sample-upstream",
            dependencies: [
                "SampleUpstream",
                "LarderHTTP",
                "LarderConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The one way tests run Larder (in the spirit of HummingbirdTesting): `withLarder` builds the
        // application and runs exactly the binary's services on a manual clock beside a sample
        // upstream; also the wire-level client, the child-process runner, `eventually`, `gunzip`.
        .target(
            name: "LarderTesting",
            dependencies: [
                "LarderApp", "LarderConfig", "LarderDocumentsCache", "LarderFormats", "LarderFreshness", "LarderHTTP", "LarderServing", "LarderUpstream", "SampleUpstream",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The fuzz targets: every parser of untrusted bytes, with the properties each input must keep,
        // and two whole pipelines (rates, documents: upstream bytes through the store to every answer),
        // which is why it reaches the caches and the app. `make test` replays their corpus and saved
        // reproducers through the same code (FuzzReplayTests).
        .target(
            name: "LarderFuzzing",
            dependencies: [
                "LarderHTTP", "LarderFormats", "LarderRates", "LarderDocuments", "LarderServing", "LarderConfig",
                "LarderFreshness", "LarderStore", "LarderUpstream", "LarderRatesCache", "LarderDocumentsCache", "LarderMetrics",
                "LarderApp",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Each test target declares exactly the modules its files import (`make test` checks both ways).
        .testTarget(name: "LarderHTTPTests", dependencies: ["LarderHTTP", "LarderTesting", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "LarderConfigTests",
            dependencies: ["LarderConfig", "LarderRates", "LarderDocuments", "LarderHTTP", "LarderTesting", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "SampleUpstreamTests", dependencies: ["LarderHTTP", "LarderRates", "LarderTesting"]),
        .testTarget(
            name: "LarderStoreTests",
            dependencies: ["LarderStore", "LarderTesting", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "LarderUpstreamTests", dependencies: ["LarderUpstream", "LarderHTTP", "LarderTesting"]),
        .testTarget(name: "LarderFreshnessTests", dependencies: ["LarderFreshness", "LarderTesting"]),
        .testTarget(name: "LarderFormatsTests", dependencies: ["LarderFormats", "LarderTesting"]),
        .testTarget(name: "LarderServingTests", dependencies: ["LarderServing", "LarderHTTP", "LarderTesting"]),
        .testTarget(name: "LarderRatesTests", dependencies: ["LarderRates", "LarderTesting"]),
        .testTarget(name: "LarderRatesAPITests", dependencies: ["LarderRatesAPI", "LarderRates", "LarderHTTP"]),
        .testTarget(name: "LarderDocumentsTests", dependencies: ["LarderDocuments", "LarderFuzzing", "LarderTesting"]),
        .testTarget(
            name: "LarderRatesCacheTests",
            dependencies: [
                "LarderRatesCache", "LarderRatesAPI", "LarderRates", "LarderDocuments", "LarderDocumentsCache", "LarderApp",
                "LarderConfig", "LarderStore", "LarderFormats", "LarderFreshness", "LarderHTTP", "LarderServing", "LarderTesting",
            ]
        ),
        .testTarget(
            name: "LarderDocumentsCacheTests",
            dependencies: [
                "LarderDocumentsCache", "LarderDocuments", "LarderRatesCache", "LarderRates", "LarderApp", "LarderConfig",
                "LarderStore", "LarderFreshness", "LarderServing", "LarderHTTP", "LarderTesting", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The application's own routes (/health, /ready, /status, /metrics, the status page) on a Larder run by withLarder.
        .testTarget(
            name: "LarderAppTests",
            dependencies: [
                "LarderApp", "LarderConfig", "LarderDocuments", "LarderDocumentsCache", "LarderFreshness", "LarderFuzzing",
                "LarderHTTP", "LarderMetrics", "LarderRates", "LarderRatesAPI", "LarderRatesCache", "LarderServing", "LarderTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(
            name: "FuzzReplayTests",
            dependencies: ["LarderFuzzing", "LarderHTTP", "LarderTesting"]
        ),
        .testTarget(
            name: "LarderEndToEndTests",
            dependencies: [
                "LarderTesting", "LarderStore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Stores written by earlier builds, read from the source tree by path.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Every target: `any` spelled out, members visible only through what a file imports, and imports
// internal unless a file re-exports them on purpose (`public import`).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
