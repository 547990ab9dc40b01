import Foundation
import LarderFormats
import Testing

/// What `make fuzz` found in the shared readers, one test per input class (Fuzz/reproducers holds
/// the inputs themselves, replayed by FuzzReplayTests).
@Suite("Fuzz findings: formats")
struct FormatsFuzzFindingsTests {
    @Test("a processing instruction without data never reaches XMLParser, which crashes on it", arguments: [
        "<?x?><a/>", "<a><?x?></a>", "<a/><?target?>", "<?xml version=\"1.0\"?><a><?pi data?></a>", "<?xml-stylesheet href=\"s\"?><a/>",
    ])
    func processingInstructionWithoutData(_ text: String) throws {
        #expect(throws: FormatError.self) { try XMLScreen.check(Array(text.utf8)) }
        // The same through a reader: refused with the screen's words, the process still standing.
        let reader = RefusingXMLDelegate(messagePrefix: "test: ")
        #expect(throws: FormatError.self) { try reader.read(Array(text.utf8), processingNamespaces: true) }
    }

    @Test("an XML declaration never closed is refused whatever it names, and libxml2 never sees it", arguments: [
        "<?xml version=\"1.0\" encoding=\"ISO-8859-8\"name=&aSS\u{FB};S", "<?xml version=\"1.0\" encoding=\"UTF-8\"><a/>",
        "<?xml version=\"1.0\"", "\u{FEFF}<?xml encoding='latin1'",
    ])
    func unclosedDeclaration(_ text: String) {
        #expect(throws: FormatError.self) { try XMLScreen.check(Array(text.utf8)) }
        let reader = RefusingXMLDelegate(messagePrefix: "test: ")
        #expect(throws: FormatError.self) { try reader.read(Array(text.utf8), processingNamespaces: true) }
    }

    @Test("the XML declaration still passes, after a BOM and blanks too", arguments: [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>", "\u{FEFF}<?xml version=\"1.0\"?>\n<a/>", "  <?xml\tversion=\"1.0\"?><a/>",
    ])
    func xmlDeclarationPasses(_ text: String) throws {
        try XMLScreen.check(Array(text.utf8))
    }

    @Test("a number past Double's range is refused, as JSONSerialization refuses it", arguments: [
        "20833.331e40033", "1e400", "-1E309", "[1,2,1e999]",
    ])
    func numberPastDoubleRange(_ text: String) {
        #expect(throws: FormatError.self) { try JSONReader.read(Array(text.utf8)) }
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) == nil)
    }

    @Test("numbers at Double's edges are still read, keeping their text", arguments: [
        "1.7976931348623157e308", "5e-324", "1e-400", "123456789012345678901234567890",
    ])
    func numberAtDoubleEdges(_ text: String) throws {
        #expect(try JSONReader.read(Array(text.utf8)) == .number(text))
    }

    @Test("an offset that moves the instant out of years 0001–9999 is refused", arguments: [
        "9999-12-31t23:59:59.98313-05:30", "9999-12-31T23:00:00-01:00", "9999-12-31T23:59:59.9996Z", "0001-01-01T00:00:00+00:01",
    ])
    func offsetPastYearRange(_ text: String) {
        #expect(RFC3339.instant(text) == nil)
    }

    @Test("the first and last writable instants still read and write back", arguments: [
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z",
    ])
    func edgesOfYearRange(_ text: String) throws {
        #expect(RFC3339.string(try #require(RFC3339.instant(text))) == text)
    }
}
