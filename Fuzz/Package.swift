// swift-tools-version:6.2
// The libFuzzer build of Larder's fuzz targets (Sources/LarderFuzzing), kept out of the main package
// so `swift build` and `make test` never build it: `make fuzz` builds this with
// `-sanitize=fuzzer,address` (tools/fuzz/run.py) and runs one process per target.
import Foundation
import PackageDescription

// The main package is the folder above; its identity is that folder's name, whatever the clone is called.
let larder = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()

let package = Package(
    name: "larder-fuzz",
    dependencies: [.package(path: larder.path)],
    targets: [
        .executableTarget(
            name: "larder-fuzz",
            dependencies: ["FuzzDriver", .product(name: "LarderFuzzing", package: larder.lastPathComponent.lowercased())],
            path: "Entry"
        ),
        // The process entry: libFuzzer's driver (see driver.c).
        .target(name: "FuzzDriver", path: "Driver"),
    ],
    swiftLanguageModes: [.v6]
)
