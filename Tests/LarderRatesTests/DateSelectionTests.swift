import LarderRates
import Testing

@Suite("Rates: the date part of a path — a day, a range, an open range")
struct DateSelectionTests {
    @Test(arguments: [
        ("2026-11-20", DateSelection.day(RateDate("2026-11-20")!)),
        ("2026-11-01..2026-11-20", .range(start: RateDate("2026-11-01")!, end: RateDate("2026-11-20")!)),
        ("2026-11-01..", .range(start: RateDate("2026-11-01")!, end: nil)),
        ("2026-11-20..2026-11-20", .range(start: RateDate("2026-11-20")!, end: RateDate("2026-11-20")!)),
    ])
    func parses(text: String, expected: DateSelection) throws {
        #expect(DateSelection.looksLikeSelection(text))
        #expect(try DateSelection.parse(text) == expected)
    }

    @Test(arguments: ["2026-02-30", "2026-13-01..", "2026-11-20..2026-11-01", "0000-01-01", "2026-11-01..2026-02-30"])
    func refusesDateShapedNonsenseAsAnInvalidDate(text: String) {
        #expect(DateSelection.looksLikeSelection(text))
        do {
            let selection = try DateSelection.parse(text)
            Issue.record("\(text): accepted as \(selection)")
        } catch {
            guard case .invalidDate = error else { Issue.record("\(text): \(error), not an invalid date"); return }
        }
    }

    @Test(arguments: ["nowhere", "2026-1-1", "2026-11-20...", "2026-11-20..x", "20261120", "2026-11-20.", "latest",
                      "2026-11-20..2026-11-2", "２０２６-11-20", ""])
    func otherSegmentsAreNotDates(text: String) {
        #expect(!DateSelection.looksLikeSelection(text))
    }
}
