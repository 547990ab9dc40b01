import Foundation
import LarderFormats
import LarderTesting
import Testing

@Suite("Writing: RFC 3339 text, hex and JSON")
struct WritingTests {
    @Test("instants are written in UTC, with milliseconds only when they have some", arguments: [
        (1_777_636_800.0, "2026-05-01T12:00:00Z"),
        (1_777_636_800.123, "2026-05-01T12:00:00.123Z"),
        (1_777_636_800.5, "2026-05-01T12:00:00.500Z"),
        (0.0, "1970-01-01T00:00:00Z"),
        (-1.0, "1969-12-31T23:59:59Z"),
        (-62_135_596_800.0, "0001-01-01T00:00:00Z"),
        (1_709_251_199.0, "2024-02-29T23:59:59Z"),
        (951_782_400.0, "2000-02-29T00:00:00Z"),
        (253_402_300_799.0, "9999-12-31T23:59:59Z"),
    ])
    func rfc3339(seconds: Double, text: String) throws {
        #expect(RFC3339.string(Date(timeIntervalSince1970: seconds)) == text)
        // What is written reads back as the same instant.
        let back = try #require(RFC3339.instant(text))
        #expect(abs(back.timeIntervalSince1970 - seconds) < 0.000_5)
    }

    @Test func wholeSecondsRoundDown() {
        #expect(RFC3339.string(Date(timeIntervalSince1970: 1_777_636_800.999), milliseconds: false) == "2026-05-01T12:00:00Z")
    }

    @Test func everyDayOfFourHundredYearsRoundTrips() async throws {
        // One instant per day across a whole Gregorian cycle, leap rules included; on a thread of its
        // own, off the cooperative pool (`onThread`).
        let wrong = try await onThread {
            var wrong: [String] = []
            var day = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
            for _ in 0..<(146_097) {
                let text = RFC3339.string(day)
                if RFC3339.instant(text) != day { wrong.append(text) }
                day += 86_400
            }
            return wrong
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5)) do not read back")
    }

    @Test func hexIsLowercaseTwoDigitsPerByte() {
        #expect(Hex.string([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        #expect(Hex.string([UInt8]()) == "")
    }

    @Test("strings are escaped as JSON requires", arguments: [
        ("plain /path", #""plain /path""#),
        ("quote \" and \\ back", #""quote \" and \\ back""#),
        ("lines\n\r\t", #""lines\n\r\t""#),
        ("bell \u{7} nul \u{0}", #""bell \u0007 nul \u0000""#),
        ("café 日本", "\"café 日本\""),
    ])
    func jsonStrings(text: String, json: String) throws {
        var writer = JSONWriter()
        writer.string(text)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == json)
        // And a JSON parser reads the original back.
        let parsed = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed) as? String
        #expect(parsed == text)
    }
}
