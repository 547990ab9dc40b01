import Foundation
@testable import LarderDocumentsCache
import Testing

@Suite("Documents: a document's place on another mirror")
struct MirrorPathTests {
    static let cases: [(document: String, index: String, mirror: String, expected: String?)] = [
        ("http://a.test/docs/x.pdf", "http://a.test/docs/index.json", "https://b.test/m/index.json", "https://b.test/m/x.pdf"),
        ("http://a.test/docs/files/x.pdf?v=2", "http://a.test/docs/index.json", "http://b.test/index.json", "http://b.test/files/x.pdf?v=2"),
        ("http://a.test/other/x.pdf", "http://a.test/docs/sub/index.json", "http://b.test/m/n/index.json", "http://b.test/other/x.pdf"),
        ("http://a.test/x.pdf", "http://a.test/docs/sub/index.json", "http://b.test/m/n/o/index.json", "http://b.test/m/x.pdf"),
        ("http://a.test/docs/a:b.txt", "http://a.test/docs/index.json", "http://b.test/m/index.json", "http://b.test/m/a:b.txt"),
        ("http://A.test/docs/x.pdf", "http://a.test/docs/index.json", "http://b.test/m/index.json", "http://b.test/m/x.pdf"),
        // Another origin than the index's: no relative path.
        ("http://c.test/docs/x.pdf", "http://a.test/docs/index.json", "http://b.test/m/index.json", nil),
        ("http://a.test:8080/docs/x.pdf", "http://a.test/docs/index.json", "http://b.test/m/index.json", nil),
        ("https://a.test/docs/x.pdf", "http://a.test/docs/index.json", "http://b.test/m/index.json", nil),
        ("http://u:p@a.test/docs/x.pdf", "http://a.test/docs/index.json", "http://b.test/m/index.json", nil),
    ]

    @Test(arguments: cases)
    func theSameRelativePathOnTheMirror(documentURL: String, indexURL: String, mirrorURL: String, expected: String?) throws {
        let document = try #require(URL(string: documentURL))
        let index = try #require(URL(string: indexURL))
        let mirror = try #require(URL(string: mirrorURL))
        let found = MirrorPath.url(of: document, listedIn: index, onMirror: mirror)
        #expect(found?.absoluteString == expected)
        // Resolved against its own index, the relative path is the document again.
        if let reference = MirrorPath.relativeReference(to: document, from: index) {
            #expect(URL(string: reference, relativeTo: index)?.absoluteURL.absoluteString.lowercased() == documentURL.lowercased())
        }
    }
}
