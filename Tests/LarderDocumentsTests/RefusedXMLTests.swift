import Foundation
import LarderDocuments
import LarderTesting
import Testing

@Suite("XML indexes that are refused whole")
struct RefusedXMLTests {
    private static let valid = indexBody(.xml, twoEntries)

    @Test("named cut points are refused as truncated or malformed", arguments: [
        "</documents",           // the closing tag lacks its '>'
        "</docu",
        "  <document name=\"b.txt\" url=\"https://cdn.example.net/b.txt\"/>\n",  // no closing tag at all
        "url=\"https://cdn.exa", // inside an attribute value
    ])
    func namedCut(marker: String) throws {
        let range = try #require(Self.valid.range(of: marker))
        let body = String(Self.valid[..<range.upperBound])
        let message = try #require(refusal(body, format: .xml))
        #expect(message.hasPrefix("index: xml: "))
    }

    @Test("mismatched, unknown or misplaced elements are refused", arguments: [
        ("<documents version=\"1\"><document name=\"a.txt\"></documents></document>", "index: xml: "),
        ("<documents version=\"1\"><document name=\"a.txt\"></documnt></documents>", "index: xml: "),
        ("<documents version=\"1\"><b><document name=\"a.txt\"/></i></documents>", "index: xml: "),
        ("<documents version=\"1\"><file name=\"a.txt\"/></documents>", "unknown element <file> inside <documents>"),
        ("<documents version=\"1\"><document name=\"a.txt\"><document name=\"b.txt\"/></document></documents>",
         "element <document> inside <document>"),
        ("<index version=\"1\"><document name=\"a.txt\"/></index>", "the root element is <index>, not <documents>"),
        ("<x:documents xmlns:x=\"urn:x\" version=\"1\"/>", "the root element is <x:documents>, not <documents>"),
        ("<documents version=\"1\"/><documents version=\"1\"/>", "index: xml: "),
        ("<documents version=\"1\">stray text</documents>", "text content is not part of the index"),
        ("<documents version=\"1\"><document name=\"a.txt\">x</document></documents>", "text content is not part of the index"),
        ("<documents version=\"1\"><![CDATA[<document name=\"a.txt\"/>]]></documents>", "CDATA is not part of the index"),
        ("<documents version=\"1\"><?render fast?></documents>", "processing instructions are refused"),
        ("  <?xml version=\"1.0\"?><documents version=\"1\"/>", "index: xml: "),  // the declaration must come first
        ("<documents version=\"1\" owner=\"me\"/>", "unknown attribute 'owner' on <documents>"),
        ("<documents version=\"1\"><document name=\"a.txt\" name=\"b.txt\"/></documents>", "index: xml: "),
        ("<documents version=\"1\"><document name=\"a.txt\" sha265=\"00\"/></documents>",
         "index: document 1 ('a.txt'): unknown field 'sha265'"),
        ("<documents version=\"1\"><document name=\"a&#47;b\"/></documents>", "name 'a/b' is not a valid document name"),
        ("<documents version=\"1\"><document name=\"&#x2e;&#x2e;\"/></documents>", "name '..' is not a valid document name"),
        ("<documents version=\"1\"><document name=\"&unknown;\"/></documents>", "index: "),
    ])
    func structure(body: String, expected: String) throws {
        let message = try #require(refusal(body))
        #expect(message.contains(expected))
    }

    @Test("DTDs and entity declarations are refused before parsing", arguments: [
        """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
          <!ENTITY lol "lol">
          <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <documents version="1"><document name="a.txt" content_type="&lol9;"/></documents>
        """,
        "<!DOCTYPE documents SYSTEM \"file:///etc/passwd\"><documents version=\"1\"/>",
        "<documents version=\"1\"><!ENTITY x \"y\"><document name=\"a.txt\"/></documents>",
        "<!doctype html><html><body>Not found</body></html>",
    ])
    func declarations(body: String) throws {
        let message = try #require(refusal(body))
        #expect(message == "index: xml: DOCTYPE and other declarations (<!…>) are refused")
    }

    @Test("an HTML page without a doctype is not an index")
    func htmlPage() throws {
        let message = try #require(refusal("<html><head><title>502</title></head><body>Bad gateway</body></html>"))
        #expect(message.contains("the root element is <html>, not <documents>"))
    }

    /// (body, part of the expected message): bodies an XML parser must never see.
    static let screenedCases: [([UInt8], String)] = {
        let utf16: [UInt8] = [0xFF, 0xFE] + "<documents version=\"1\"/>".utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return [
            (Array("<documents version=\"1\">\0</documents>".utf8), "NUL byte"),
            (utf16, "NUL byte"),
            (Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><documents version=\"1\"/>".utf8), "encoding 'utf-16'"),
        ]
    }()

    @Test("bytes the screen refuses: NUL, UTF-16, another declared encoding", arguments: screenedCases)
    func screened(body: [UInt8], expected: String) throws {
        let message = try #require(refusal(body, format: .xml))
        #expect(message.contains(expected))
    }

    @Test("too many documents are refused before any of them is judged")
    func tooMany() async throws {
        let refused = try await onThread {
            refusal("<documents version=\"1\">" + String(repeating: "<document/>", count: 100_001) + "</documents>")
        }
        #expect(refused == "index: more than 100000 documents")
    }
}
