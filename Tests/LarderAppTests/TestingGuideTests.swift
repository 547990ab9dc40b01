import Foundation
import LarderTesting
import Testing

/// docs/testing.md's example is a file of this target (TestingGuideExample.swift), compiled and run
/// outside the rates suites: what the guide shows works wherever a new test goes.
@Suite("The testing guide's example")
struct TestingGuideTests {
    @Test func theGuideShowsTheExampleFileWhole() throws {
        let guide = try String(contentsOf: repositoryRoot.appending(path: "docs/testing.md"), encoding: .utf8)
        let block = try #require(guide.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let example = try String(
            contentsOf: repositoryRoot.appending(path: "Tests/LarderAppTests/TestingGuideExample.swift"), encoding: .utf8)
        let code = try #require(example.range(of: "import ")).lowerBound
        #expect(block == String(example[code...]))
    }
}
