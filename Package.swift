// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "larder",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "larder", targets: ["larder"]),
        .executable(name: "sample-upstream", targets: ["sample-upstream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // libmicrohttpd, found through pkg-config; shim.h wraps the variadic calls Swift cannot import.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // The HTTP server: the only module that touches libmicrohttpd. Knows nothing of rates or documents.
        .target(
            name: "LarderHTTP",
            dependencies: [
                "CMicroHTTPD",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The one configuration value (SPEC §2) that every later module reads.
        .target(
            name: "LarderConfig",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        // Builds the running application from a configuration: routes, services, logging.
        .target(
            name: "LarderApp",
            dependencies: [
                "LarderHTTP",
                "LarderConfig",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
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
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "sample-upstream",
            dependencies: [
                "SampleUpstream",
                "LarderHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Helpers shared by the test targets: a wire-level HTTP client and process launchers.
        .target(name: "LarderTestSupport", path: "Tests/LarderTestSupport"),
        .testTarget(name: "LarderHTTPTests", dependencies: ["LarderHTTP", "LarderTestSupport"]),
        .testTarget(name: "LarderConfigTests", dependencies: ["LarderConfig"]),
        .testTarget(name: "SampleUpstreamTests", dependencies: ["SampleUpstream", "LarderTestSupport"]),
        .testTarget(name: "LarderEndToEndTests", dependencies: ["LarderTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
