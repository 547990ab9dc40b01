import LarderFormats
import Testing

@Suite("CSVReader: RFC 4180, strictly")
struct CSVReaderTests {
    static func records(_ text: String, keeping: @escaping (Int) -> Bool = { _ in true }) throws(FormatError) -> [[String]] {
        var all: [[String]] = []
        try CSVReader.forEachRecord(Array(text.utf8), keeping: keeping) { (record, _) throws(FormatError) in all.append(record) }
        return all
    }

    @Test func readsQuotedFieldsBlankLinesAndBothLineEnds() throws {
        let text = "a,b,c\r\n\"x, \"\"y\"\"\",,\"two\nlines\"\n\n1,2,3"
        #expect(try Self.records(text) == [["a", "b", "c"], ["x, \"y\"", "", "two\nlines"], ["1", "2", "3"]])
    }

    @Test func fieldsOfColumnsNotKeptComeEmptyButTheHeaderIsWhole() throws {
        #expect(try Self.records("a,b\n1,2\n", keeping: { $0 == 1 }) == [["a", "b"], ["", "2"]])
    }

    @Test(arguments: [
        ("a,b\r1,2\n", "line 1: a carriage return not followed by a line feed"),
        ("a,b\n\"1\"x,2\n", "line 2: text after a closing double quote"),
        ("a,b\n1,\"2\n", "line 2: a quoted field is never closed (truncated?)"),
        ("a,b\n1,2,3\n", "line 2: 3 field(s) where the header has 2"),
        ("a,b\n1\",2\n", "line 2: a double quote inside an unquoted field"),
    ])
    func refuses(text: String, message: String) {
        #expect(throws: FormatError(message)) { try Self.records(text) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: FormatError("the body is not valid UTF-8")) {
            try CSVReader.forEachRecord([0x61, 0xFF, 0x0A]) { (_, _) throws(FormatError) in }
        }
    }
}
