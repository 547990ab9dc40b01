import Foundation
@testable import LarderApp
import Testing

@Suite("The status page's formatting")
struct StatusPageFormatTests {
    @Test(arguments: [
        ("plain", "plain"),
        (#"<a href="x">'&'</a>"#, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"),
        ("Króna €", "Króna €"),
        ("&amp;", "&amp;amp;"),
    ])
    func escapesWhatHTMLReads(_ text: String, _ escaped: String) {
        #expect(HTML.escape(text) == escaped)
    }

    @Test(arguments: [
        ("1.0879", "1.0862", "−0.16 %", "down"),
        ("1.0862", "1.0879", "+0.16 %", "up"),
        ("1.9558", "1.9558", "0.00 %", "same"),
        ("100", "100.004", "0.00 %", "same"),
        ("100", "100.005", "+0.01 %", "up"),
        ("17200", "17145.23", "−0.32 %", "down"),
    ])
    func changesAreSignedPerCentsToTwoDecimals(_ previous: String, _ value: String, _ text: String, _ direction: String) {
        let change = PageFormat.change(from: Decimal(string: previous)!, to: Decimal(string: value)!)
        #expect(change.text == text)
        #expect(change.direction == direction)
    }

    @Test func sizesDurationsAndCounts() {
        #expect(PageFormat.size(1) == "1 byte")
        #expect(PageFormat.size(932) == "932 bytes")
        #expect(PageFormat.size(2096) == "2.0 KiB")
        #expect(PageFormat.size(64 * 1024 * 1024) == "64.0 MiB")
        #expect(PageFormat.duration(seconds: 90) == "90 s")
        #expect(PageFormat.duration(seconds: 900) == "15 min")
        #expect(PageFormat.duration(seconds: 3600) == "1 h")
        #expect(PageFormat.duration(seconds: 172_800) == "2 d")
        #expect(PageFormat.count(10_000) == "10,000")
        #expect(PageFormat.count(1, "day") == "1 day")
        #expect(PageFormat.count(1234, "day") == "1,234 days")
        #expect(PageFormat.time(Date(timeIntervalSince1970: 1_795_000_000))
            == #"<time datetime="2026-11-18T11:06:40Z" data-age>2026-11-18 11:06:40 UTC</time>"#)
    }

    @Test(arguments: [
        (1.0862, 1.0942, [1.085, 1.0875, 1.09, 1.0925, 1.095], "1.0850"),
        (17_145.23, 17_400, [17_100, 17_200, 17_300, 17_400], "17100"),
        (1.9558, 1.9558, [1.93, 1.94, 1.95, 1.96, 1.97, 1.98], "1.93"),
    ])
    func theValueAxisHasRoundTicksAroundTheData(_ low: Double, _ high: Double, _ ticks: [Double], _ firstLabel: String) {
        let scale = ValueScale(low: low, high: high)
        #expect(scale.low <= low && scale.high >= high)
        #expect(zip(scale.ticks, ticks).allSatisfy { abs($0 - $1) < 1e-9 } && scale.ticks.count == ticks.count, "\(scale.ticks)")
        #expect(scale.label(scale.low) == firstLabel)
    }
}
