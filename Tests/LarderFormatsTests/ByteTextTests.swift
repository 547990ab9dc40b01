import LarderFormats
import Testing

@Suite("Byte helpers")
struct ByteTextTests {
    @Test("the BOM and XML/JSON whitespace are skipped, nothing else")
    func skipping() {
        #expect(ByteText.skipByteOrderMark(ByteText.byteOrderMark + [0x20]) == 3)
        #expect(ByteText.skipByteOrderMark([0xEF, 0xBB]) == 0)
        #expect(ByteText.skipByteOrderMarkAndWhitespace(ByteText.byteOrderMark + Array(" \t\r\n<".utf8)) == 7)
        #expect(ByteText.skipByteOrderMarkAndWhitespace(Array("\u{0B}<".utf8)) == 0, "vertical tab is not JSON/XML whitespace")
        #expect(ByteText.skipByteOrderMarkAndWhitespace([]) == 0)
    }

    @Test("excerpts escape control characters and stop at the limit")
    func excerpt() {
        #expect(ByteText.excerpt("a\u{0}b\r\n\u{7F}\u{85}") == "a\\u{0}b\\u{D}\\u{A}\\u{7F}\\u{85}")
        #expect(ByteText.excerpt(String(repeating: "x", count: 50), limit: 5) == "xxxxx…")
        #expect(ByteText.excerpt("ａ.txt") == "ａ.txt")
    }
}
