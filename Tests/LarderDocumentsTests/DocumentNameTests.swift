import LarderDocuments
import Testing

@Suite("Document names")
struct DocumentNameTests {
    static let valid = [
        "a", "Z", "0", "a.txt", "A.TXT", "report_2026-11.pdf", "a..b", "a.", "a-", "9_9",
        String(repeating: "a", count: 128),
    ]

    static let invalid = [
        "", ".", "..", "../a.txt", "../../etc/passwd", "%2e%2e", "%2e%2e%2fetc", "/etc/passwd", "a/b", "a\\b",
        "a\u{0}b", "a\u{1}b", "a\u{7F}b", "a\tb", "a.txt\n", "a b", "a:b", "a%41",
        "\u{FF41}.txt",  // ａ.txt, FULLWIDTH LATIN SMALL LETTER A
        "a\u{2024}txt",  // a․txt, ONE DOT LEADER
        "e\u{301}.txt",  // é as e + COMBINING ACUTE ACCENT
        ".hidden", "-rf", "_a", String(repeating: "a", count: 129),
        "a.txt" + DocumentName.temporarySuffix, "x" + DocumentName.temporarySuffix + ".txt",
    ]

    @Test("names of the SPEC alphabet, 1 to 128 bytes, are valid", arguments: valid)
    func validName(name: String) {
        #expect(DocumentName.isValid(name))
    }

    @Test("traversal, separators, controls, look-alikes and the partial-download suffix are invalid",
          arguments: invalid)
    func invalidName(name: String) {
        #expect(!DocumentName.isValid(name))
    }

    @Test("an invalid name refuses the whole index, in both formats", arguments: IndexFormat.allCases, invalid)
    func refusesIndex(format: IndexFormat, name: String) throws {
        let body = indexBody(format, [["name": "ok.txt"], ["name": name]])
        let message = try #require(refusal(body))
        // XML cannot carry NUL or C0 controls other than tab, LF and CR; the screen or the parser
        // refuses those bodies before any name rule runs.
        let xmlCannotCarry = format == .xml && name.unicodeScalars.contains { $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0) }
        if !xmlCannotCarry {
            #expect(message.hasPrefix("index: document 2: name '"))
            #expect(message.contains("is not a valid document name"))
        }
    }

    @Test("names are unique ignoring ASCII case", arguments: IndexFormat.allCases, [
        ("a.txt", "a.txt"), ("A.txt", "a.txt"), ("README", "readme"), ("Report.PDF", "report.pdf"),
    ])
    func duplicate(format: IndexFormat, names: (String, String)) throws {
        let body = indexBody(format, [["name": names.0], ["name": "other"], ["name": names.1]])
        let message = try #require(refusal(body))
        #expect(message == "index: document 3 ('\(names.1)'): name duplicates document 1 ('\(names.0)') ignoring case")
    }

    @Test("a name is required", arguments: IndexFormat.allCases)
    func missingName(format: IndexFormat) {
        #expect(refusal(format, [["url": "a.txt"]]) == "index: document 1: name is required")
    }

    @Test("case folding touches ASCII letters only")
    func caseFolded() {
        #expect(DocumentName.caseFolded("Report_2026-11.PDF") == "report_2026-11.pdf")
    }
}
