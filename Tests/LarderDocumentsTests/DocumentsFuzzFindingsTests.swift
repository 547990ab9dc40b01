import Foundation
@testable import LarderDocuments
import Testing

/// What `make fuzz` found in the documents rules, one test per input class.
@Suite("Fuzz findings: documents")
struct DocumentsFuzzFindingsTests {
    @Test("the partial-download suffix in another case is no valid name", arguments: [
        "x.Larder-partial", "Rea.larder-paRtialRRRR.2Etxt", "A.LARDER-PARTIAL", "a.larder-Partial.txt",
    ])
    func partialSuffixInAnotherCase(_ name: String) {
        #expect(!DocumentName.isValid(name))
    }

    static let index = URL(string: "http://127.0.0.1:8081/docs/index.json")!

    @Test("escaped dot segments are removed like plain ones", arguments: [
        ("%2e%2e", "http://127.0.0.1:8081/"), ("%2E%2E/x/a.txt", "http://127.0.0.1:8081/x/a.txt"),
        ("a/%2e/b.txt", "http://127.0.0.1:8081/docs/a/b.txt"), ("%2e%2E/%2e%2e/a.txt", "http://127.0.0.1:8081/a.txt"),
        ("%7Euser/a%2Dfile.txt", "http://127.0.0.1:8081/docs/~user/a-file.txt"),
    ])
    func escapedDotSegment(_ reference: String, _ expected: String) throws {
        #expect(try DocumentURLRule.resolve(reference, against: Self.index).absoluteString == expected)
    }

    @Test("an escaped slash stays data inside its segment", arguments: ["h.t%2f.", "a%2Fb.txt"])
    func escapedSlashStaysInItsSegment(_ reference: String) throws {
        let url = try DocumentURLRule.resolve(reference, against: Self.index)
        #expect(url.absoluteString == "http://127.0.0.1:8081/docs/" + reference)
    }
}
