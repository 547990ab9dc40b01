import LarderFormats
import Testing

@Suite("XML screen")
struct XMLScreenTests {
    private func problem(_ text: String) -> String? {
        problem(Array(text.utf8))
    }

    private func problem(_ bytes: [UInt8]) -> String? {
        do {
            try XMLScreen.check(bytes)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("plain XML passes, with declaration, comments, CDATA, BOM and leading whitespace", arguments: [
        "<a/>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>",
        "<?xml version='1.0' encoding='iso-8859-1'?><a/>",
        "<?xml version=\"1.0\"?><!-- note --><a><![CDATA[x < y]]></a>",
        "\u{FEFF}\n  <a b=\"1 &lt; 2\">text</a>",
    ])
    func passes(text: String) {
        #expect(problem(text) == nil)
    }

    @Test("every declaration is refused, wherever it is", arguments: [
        "<!DOCTYPE a><a/>",
        "<!doctype html><html/>",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>",
        "<a><!ENTITY x \"y\"></a>",
        "<a/><!ELEMENT a ANY>",
        "<a><!ATTLIST a b CDATA #IMPLIED></a>",
        "<a><!-- fine --><!X></a>",
        // The screen scans bytes without parsing, so it errs on the side of refusing: a `<!` that only
        // sits inside CDATA or a comment is refused too. No index or rates feed carries one.
        "<a><![CDATA[<!x>]]></a>",
        "<a><!-- <!DOCTYPE a> --></a>",
    ])
    func declarations(text: String) {
        #expect(problem(text) == "DOCTYPE and other declarations (<!…>) are refused")
    }

    @Test("a body that does not start with '<' is not XML", arguments: ["", "   ", "{\"a\":1}", "text <a/>", "\u{FEFF}"])
    func notXML(text: String) {
        #expect(problem(text) == "the body is not XML (it does not start with '<')")
    }

    @Test("NUL bytes are refused, and with them UTF-16")
    func nul() {
        #expect(problem("<a>\0</a>") == "NUL byte in the XML")
        let utf16 = [0xFF, 0xFE] + "<a/>".utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(problem(utf16) == "NUL byte in the XML")
    }

    @Test("a declared encoding other than UTF-8, ASCII or Latin-1 is refused", arguments: [
        ("UTF-16", "utf-16"), ("ebcdic-cp-us", "ebcdic-cp-us"), ("UTF-7", "utf-7"),
    ])
    func encoding(declared: String, shown: String) {
        #expect(problem("<?xml version=\"1.0\" encoding=\"\(declared)\"?><a/>")
            == "XML encoding '\(shown)' is not accepted (UTF-8 only)")
    }

    @Test("an empty encoding name is refused too")
    func emptyEncoding() {
        #expect(problem("<?xml version=\"1.0\" encoding=\"\"?><a/>")?.hasSuffix("is not accepted (UTF-8 only)") == true)
    }
}
