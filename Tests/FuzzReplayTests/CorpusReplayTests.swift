import Foundation
import LarderFuzzing
import LarderTesting
import Testing

/// `make test`'s share of fuzzing: every committed corpus file and every saved reproducer goes through
/// every fuzz target, with the same property checks `make fuzz` runs, so a fixed bug stays fixed.
@Suite("Fuzz corpus and reproducers")
struct CorpusReplayTests {
    static let fuzz = repositoryRoot.appending(path: "Fuzz")
    /// The shared real-upstream fixtures, not part of the repository and maybe absent.
    static let fixtures = sharedFixtures("rates")

    /// Every input file: corpus, reproducers and, when present, the shared fixtures.
    static let inputs: [URL] = {
        let folders = ["corpus", "reproducers"].flatMap { kind in
            FuzzTarget.all.map { fuzz.appending(path: "\(kind)/\($0.name)") }
        } + [fixtures]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
                .filter { !$0.lastPathComponent.hasPrefix(".") }
        }.sorted { $0.path < $1.path }
    }()

    @Test("every target has a committed seed corpus", arguments: FuzzTarget.all.map(\.name))
    func targetHasSeeds(_ name: String) throws {
        let seeds = try FileManager.default.contentsOfDirectory(atPath: Self.fuzz.appending(path: "corpus/\(name)").path)
        #expect(seeds.filter { !$0.hasPrefix(".") }.count >= 3)
    }

    @Test("every input keeps every target's properties", arguments: FuzzTarget.all.map(\.name))
    func replay(_ name: String) async throws {
        let target = try #require(FuzzTarget.named(name))
        #expect(Self.inputs.count >= 100)
        // Seconds of CPU in a debug build: on a thread of its own, off the cooperative pool (`onThread`).
        let failures = try await onThread {
            var failures: [String] = []
            for file in Self.inputs {
                let input = Array(try Data(contentsOf: file))
                do {
                    try target.check(input)
                } catch let error as PropertyViolation {
                    failures.append("\(file.path): \(error.message)")
                }
            }
            return failures
        }
        for failure in failures { Issue.record("\(failure)") }
    }

    @Test("the target list names each target once, as its corpus folder does")
    func targetNamesAreUniqueFolders() {
        let names = FuzzTarget.all.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(FileManager.default.fileExists(atPath: Self.fuzz.appending(path: "reproducers/\(name)").path))
        }
    }
}
