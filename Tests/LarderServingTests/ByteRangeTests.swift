import LarderServing
import Testing

@Suite("ByteRange: single byte ranges of RFC 9110 §14")
struct ByteRangeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let header: String?
        let size: UInt64
        let expected: ByteRange
        let why: String

        init(_ header: String?, size: UInt64 = 1000, _ expected: ByteRange, _ why: String) {
            self.header = header
            self.size = size
            self.expected = expected
            self.why = why
        }

        var testDescription: String { "\(header.map { "'\($0)'" } ?? "nil") of \(size) → \(expected) (\(why))" }
    }

    static let max = UInt64.max

    static let forms: [Case] = [
        Case(nil, .none, "no header"),
        Case("bytes=0-499", .satisfiable(offset: 0, length: 500), "first 500"),
        Case("bytes=500-999", .satisfiable(offset: 500, length: 500), "second 500"),
        Case("bytes=500-", .satisfiable(offset: 500, length: 500), "open-ended"),
        Case("bytes=-500", .satisfiable(offset: 500, length: 500), "suffix"),
        Case("bytes=-1", .satisfiable(offset: 999, length: 1), "last byte"),
        Case("bytes=0-0", .satisfiable(offset: 0, length: 1), "first byte"),
        Case("bytes=999-999", .satisfiable(offset: 999, length: 1), "last byte by position"),
        Case("bytes=900-5000", .satisfiable(offset: 900, length: 100), "last-pos clamped to size-1"),
        Case("bytes=-5000", .satisfiable(offset: 0, length: 1000), "suffix larger than size"),
        Case("bytes=005-009", .satisfiable(offset: 5, length: 5), "leading zeros"),
        Case("Bytes=0-9", .satisfiable(offset: 0, length: 10), "unit ignores case"),
        Case("BYTES=0-9", .satisfiable(offset: 0, length: 10), "unit ignores case"),
        Case(" bytes=0-9\t", .satisfiable(offset: 0, length: 10), "surrounding whitespace"),
        Case("bytes= 0-9 ", .satisfiable(offset: 0, length: 10), "whitespace around the list element"),
        Case("bytes=0-9 ,", .satisfiable(offset: 0, length: 10), "trailing empty element"),
        Case("bytes=, ,0-9", .satisfiable(offset: 0, length: 10), "leading empty elements"),
        Case("bytes=0-", size: 1, .satisfiable(offset: 0, length: 1), "one-byte file"),
        Case("bytes=-1", size: 1, .satisfiable(offset: 0, length: 1), "one-byte file, suffix"),
    ]

    /// Headers that are no single satisfiable range, so the whole body is served (`.none`), on a 1,000-byte body.
    static let ignored: [Case] = [
        ("", "empty"),
        ("items=0-9", "unknown unit"),
        ("bytes", "no ="),
        ("bytes=", "no range"),
        ("bytes=,", "only empty elements"),
        ("=0-9", "no unit"),
        ("bytes =0-9", "space before ="),
        ("bytes=0 -9", "space inside a range"),
        ("bytes=0- 9", "space inside a range"),
        ("bytes=a-9", "not a number"),
        ("bytes=0-9a", "trailing junk"),
        ("bytes=+1-2", "sign"),
        ("bytes=-", "no positions"),
        ("bytes=--1", "negative"),
        ("bytes=1-2-3", "two dashes"),
        ("bytes=0x10-20", "hexadecimal"),
        ("bytes=1.5-2", "fraction"),
        ("bytes=１-2", "non-ASCII digit"),
        ("bytes=10-5", "last-pos before first-pos is invalid"),
        ("bytes=0-1,5-6", "multiple ranges"),
        ("bytes=0-1, 0-1", "multiple identical ranges"),
        ("bytes=0-1,-5", "range and suffix"),
        ("bytes=0-1,x", "a valid range then junk"),
        ("bytes=5000-,0-1", "multiple, one unsatisfiable"),
    ].map { Case($0, .none, $1) }

    static let unsatisfiable: [Case] = [
        Case("bytes=1000-", .unsatisfiable, "first-pos == size"),
        Case("bytes=1000-2000", .unsatisfiable, "entirely past the end"),
        Case("bytes=5000-", .unsatisfiable, "far past the end"),
        Case("bytes=-0", .unsatisfiable, "zero suffix"),
        Case("bytes=-000", .unsatisfiable, "zero suffix with zeros"),
        Case("bytes=1-", size: 1, .unsatisfiable, "one-byte file"),
        Case("bytes=0-", size: 0, .unsatisfiable, "empty file"),
        Case("bytes=0-0", size: 0, .unsatisfiable, "empty file"),
        Case("bytes=-0", size: 0, .unsatisfiable, "empty file, zero suffix"),
        // The RFC deems a non-zero suffix of nothing satisfiable, but 206 cannot describe 0 bytes.
        Case("bytes=-1", size: 0, .none, "empty file, non-zero suffix: the whole empty body"),
        Case("bytes=0-1,2-3", size: 0, .none, "empty file, multiple ranges"),
    ]

    static let huge: [Case] = [
        Case("bytes=0-18446744073709551615", .satisfiable(offset: 0, length: 1000), "UInt64.max as last-pos"),
        Case("bytes=0-18446744073709551616", .satisfiable(offset: 0, length: 1000), "UInt64.max + 1 clamps"),
        Case("bytes=0-99999999999999999999999999999999", .satisfiable(offset: 0, length: 1000), "32 digits clamp"),
        Case("bytes=18446744073709551616-", .unsatisfiable, "first-pos past UInt64"),
        Case("bytes=99999999999999999999999999-99999999999999999999999999", .unsatisfiable, "both huge, equal"),
        Case("bytes=99999999999999999999-99999999999999999998", .none, "both huge, last before first"),
        Case("bytes=99999999999999999998-99999999999999999999", .unsatisfiable, "both huge, in order"),
        Case("bytes=18446744073709551616-5", .none, "huge first-pos, small last-pos"),
        Case("bytes=-99999999999999999999999999", .satisfiable(offset: 0, length: 1000), "huge suffix"),
        Case("bytes=0000000000000000000000000000005-9", .satisfiable(offset: 5, length: 5), "many leading zeros"),
        Case("bytes=18446744073709551614-", size: max, .satisfiable(offset: max - 1, length: 1), "largest size"),
        Case("bytes=-18446744073709551615", size: max, .satisfiable(offset: 0, length: max), "whole largest size"),
        Case("bytes=18446744073709551615-", size: max, .unsatisfiable, "first-pos == largest size"),
        Case("bytes=0-", size: max, .satisfiable(offset: 0, length: max), "open-ended, largest size"),
    ]

    /// Every table: the forms, headers ignored (the whole body is served), unsatisfiable ranges and
    /// empty bodies, and numbers too large for 64 bits (which must neither overflow nor trap).
    @Test(arguments: forms + ignored + unsatisfiable + huge)
    func everyCase(_ test: Case) {
        let range = ByteRange(test.header, size: test.size)
        #expect(range == test.expected)
        if case .satisfiable(let offset, let length) = range {
            #expect(length > 0 && offset <= test.size && length <= test.size - offset, "a range never lies outside the body")
        }
    }

    @Test func aLongHeaderIsReadInOnePass() {
        let junk = "bytes=" + String(repeating: "9", count: 100_000) + "-"
        #expect(ByteRange(junk, size: 1000) == .unsatisfiable)
        let many = "bytes=" + Array(repeating: "0-1", count: 10_000).joined(separator: ",")
        #expect(ByteRange(many, size: 1000) == .none)
    }
}
