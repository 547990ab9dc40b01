import Foundation
import LarderConfig
import LarderTesting
import Testing

/// `LarderVersion.current` is the one source of the version; the files a release ships beside the
/// binary (image tags and label, the OpenAPI contract, the READMEs' examples) must say the same.
@Suite("Version: the repository's files name LarderVersion.current")
struct VersionAgreementTests {
    static let root = repositoryRoot

    @Test(arguments: ["Docker/Dockerfile", "Docker/compose.yaml", "Docker/kubernetes.yaml", "Docker/README.md", "README.md", "docs/configuration.md"])
    func namesTheCurrentVersion(path: String) throws {
        // `larder:0.1.0` and `larder-sample-upstream:0.1.0` (image tags), `larder/0.1.0` (User-Agent),
        // `larder 0.1.0 (libmicrohttpd 1.0.10) listening` (the listening line).
        let mention = #/(?i)larder(?:-sample-upstream)?[:\/ ]v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)/#
        let lines = try Self.lines(of: path)
        let found = lines.enumerated().flatMap { number, line in
            line.matches(of: mention).map { (line: number + 1, version: String($0.output.1)) }
        }
        // A file that stops naming the version at all means this pattern is out of date, not that all is well.
        #expect(!found.isEmpty, "\(path) names no Larder version any more: update this test's pattern")
        for mention in found where mention.version != LarderVersion.current {
            Issue.record("\(path):\(mention.line) names \(mention.version), not \(LarderVersion.current)")
        }
    }

    @Test func imageLabelNamesTheCurrentVersion() throws {
        let label = #/org\.opencontainers\.image\.version="([^"]*)"/#
        let versions = try Self.lines(of: "Docker/Dockerfile").compactMap { try label.firstMatch(in: $0)?.output.1 }
        // The label is optional; when the Dockerfile carries one, it must agree.
        for version in versions {
            #expect(version == LarderVersion.current, "Docker/Dockerfile's image label says \(version)")
        }
    }

    @Test func openAPIInfoVersionIsTheCurrentVersion() throws {
        let lines = try Self.lines(of: "openapi.yaml")
        let info = try #require(lines.firstIndex(of: "info:"), "openapi.yaml has no top-level info:")
        // The info block: the indented lines up to the next top-level key.
        let block = lines[(info + 1)...].prefix { $0.isEmpty || $0.first == " " }
        let field = #/^\s+version:\s*["']?([^"'\s]+)["']?\s*$/#
        let versions = block.compactMap { (try? field.wholeMatch(in: $0))??.output.1 }
        let version = try #require(versions.first, "openapi.yaml has no info.version")
        #expect(version == LarderVersion.current)
    }

    private static func lines(of path: String) throws -> [Substring] {
        try String(contentsOf: root.appending(path: path), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }
}
