import Foundation
import LarderDocuments
import Testing

@Suite("The sample upstream's index files")
struct ExampleIndexTests {
    private static let base = URL(string: "http://127.0.0.1:8081/documents/index.json")!

    @Test("index.json and index.xml parse to the same five documents", arguments: ["index.json", "index.xml"])
    func parses(file: String) throws {
        let index = try DocumentIndexParser.parse(Examples.bytes(file), format: .auto, indexURL: Self.base)
        #expect(index.version == 1)
        #expect(index.generatedAt == Date(timeIntervalSince1970: 1_795_176_000))
        #expect(index.documents.map(\.name) == ["welcome.txt", "handbook.txt", "release-notes.txt", "faq.md", "glossary.txt"])
        let handbook = index.documents[1]
        #expect(handbook.url.absoluteString == "http://127.0.0.1:8081/documents/handbook.txt")
        #expect(handbook.size == 2096)
        #expect(handbook.sha256 == "bedeb816b6acea54e4592d1b7b08baea867b849bd3da318c5c0e2c108ba589b1")
        #expect(handbook.contentType == "text/plain")
        #expect(handbook.createdAt == Date(timeIntervalSince1970: 1_790_845_200))
        #expect(isInstant(handbook.updatedAt, 1_795_022_525.123))
        #expect(index.documents[3].contentType == "text/markdown")
    }

    @Test("the two files describe exactly the same index")
    func formatsAgree() throws {
        let json = try DocumentIndexParser.parse(Examples.bytes("index.json"), format: .json, indexURL: Self.base)
        let xml = try DocumentIndexParser.parse(Examples.bytes("index.xml"), format: .xml, indexURL: Self.base)
        #expect(json == xml)
    }

    @Test("each listed size matches the sample file beside the index")
    func sizesMatchFiles() throws {
        let index = try DocumentIndexParser.parse(Examples.bytes("index.json"), format: .json, indexURL: Self.base)
        for document in index.documents {
            #expect(try Examples.bytes(document.name).count == document.size, "\(document.name)")
        }
    }
}
