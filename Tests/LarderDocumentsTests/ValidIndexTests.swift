import Foundation
import LarderDocuments
import LarderTesting
import Testing

@Suite("Valid documents indexes")
struct ValidIndexTests {
    private static let hash = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"

    private static let entries: [Fields] = [
        ["name": "handbook.txt", "url": "https://docs.example.com/files/handbook.txt", "size": "482133",
         "sha256": hash.uppercased(), "content_type": "text/plain; charset=utf-8",
         "created_at": "2026-01-10T09:00:00Z", "updated_at": "2026-04-30T17:22:05.123Z"],
        ["name": "Report_2026-11.pdf", "size": "0"],
        ["name": "a", "url": "/documents/a", "content_type": "application/vnd.api+json"],
    ]

    @Test("every field is read, in index order, the same from XML and from JSON", arguments: IndexFormat.allCases)
    func allFields(format: IndexFormat) throws {
        let index = try parse(indexBody(format, Self.entries))
        #expect(index.version == 1)
        #expect(index.generatedAt == Date(timeIntervalSince1970: 1_777_636_800))
        #expect(index.documents.map(\.name) == ["handbook.txt", "Report_2026-11.pdf", "a"])
        let handbook = try #require(index.documents.first)
        #expect(handbook.url.absoluteString == "https://docs.example.com/files/handbook.txt")
        #expect(handbook.size == 482_133)
        #expect(handbook.sha256 == Self.hash, "an uppercase sha256 is accepted and stored in lowercase")
        #expect(handbook.contentType == "text/plain; charset=utf-8")
        #expect(handbook.createdAt == Date(timeIntervalSince1970: 1_768_035_600))
        #expect(isInstant(handbook.updatedAt, 1_777_569_725.123))
        let report = index.documents[1]
        #expect(report.url.absoluteString == "https://up.example.com/docs/v1/Report_2026-11.pdf")
        #expect(report.size == 0)
        #expect(report.sha256 == nil && report.contentType == nil && report.createdAt == nil && report.updatedAt == nil)
        #expect(index.documents[2].url.absoluteString == "https://up.example.com/documents/a")
    }

    @Test("XML and JSON forms of one index give equal values")
    func formatsAgree() throws {
        #expect(try parse(indexBody(.xml, Self.entries)) == parse(indexBody(.json, Self.entries)))
    }

    @Test("an empty list is a valid index (the mirror then removes everything)", arguments: [
        "<documents version=\"1\"/>",
        "<documents version=\"1\">\n</documents>",
        "{\"version\":1,\"documents\":[]}",
    ])
    func emptyList(body: String) throws {
        let index = try parse(body)
        #expect(index.documents.isEmpty)
        #expect(index.generatedAt == nil)
    }

    @Test("JSON null is an absent optional field")
    func jsonNull() throws {
        let body = """
            {"version":1,"generated_at":null,"documents":[{"name":"a.txt","url":null,"size":null,"sha256":null,
             "content_type":null,"created_at":null,"updated_at":null}]}
            """
        let index = try parse(body)
        #expect(index.generatedAt == nil)
        #expect(index.documents == [DocumentEntry(name: "a.txt", url: URL(string: "https://up.example.com/docs/v1/a.txt")!)])
    }

    @Test("XML comments, a BOM, predefined entities and character references are ordinary XML")
    func xmlConveniences() throws {
        let body = "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- generated -->\n<documents version=\"1\">"
            + "<!-- one --><document name=\"a&#46;txt\" url=\"get?id=1&amp;v=2\"/></documents>"
        let index = try parse(body)
        #expect(index.documents.first?.name == "a.txt")
        #expect(index.documents.first?.url.absoluteString == "https://up.example.com/docs/v1/get?id=1&v=2")
    }

    @Test("auto detection reads both formats and the explicit format is honoured", arguments: IndexFormat.allCases)
    func detection(format: IndexFormat) throws {
        let body = indexBody(format, [["name": "a.txt"]])
        #expect(try parse(body, format: .auto).documents.count == 1)
        #expect(try parse(body, format: format.documentsFormat).documents.count == 1)
        let other: DocumentsFormat = format == .xml ? .json : .xml
        #expect(throws: DocumentIndexError.self) { try parse(body, format: other) }
    }

    @Test("the size cap counts the whole body: at the cap accepted, one byte over refused")
    func sizeCap() throws {
        let body = Array(indexBody(.json, Self.entries).utf8)
        #expect(throws: Never.self) {
            try DocumentIndexParser.parse(body, format: .auto, indexURL: indexURL, maxBytes: body.count)
        }
        let message = try #require(refusal(body, maxBytes: body.count - 1))
        #expect(message.contains("over the limit"))
    }

    @Test("a version-1 index may list 100,000 documents")
    func manyDocuments() async throws {
        // Seconds of CPU: off the cooperative pool.
        let index = try await onThread {
            let entries = (0..<100_000).map { "{\"name\":\"d\($0)\"}" }.joined(separator: ",")
            return try parse("{\"version\":1,\"documents\":[\(entries)]}")
        }
        #expect(index.documents.count == 100_000)
        #expect(index.documents.last?.name == "d99999")
    }
}
