import LarderRates
@testable import LarderRatesAPI
import Testing

/// The pieces of Frankfurter v2's arithmetic that are easy to get subtly wrong: Ruby's way of
/// writing a double, SQLite's week numbers, Ruby's month shift (each expectation is what Ruby 3.1
/// and SQLite answer for the same input).
@Suite("Rates: Frankfurter v2 arithmetic")
struct V2ArithmeticTests {
    @Test(arguments: [
        (1.0, "1.0"), (0.0001, "0.0001"), (0.00001, "1.0e-05"), (5.7e-05, "5.7e-05"), (1e15, "1.0e+15"),
        (123456789012345.0, "123456789012345.0"), (1234567890123456.0, "1.234567890123456e+15"),
        (123.456, "123.456"), (0.8143, "0.8143"), (1e-7, "1.0e-07"), (2.5e-10, "2.5e-10"), (0.00012, "0.00012"),
    ])
    func doublesAreWrittenAsRubyWritesThem(value: Double, text: String) {
        #expect(RubyFloatText.text(value) == text)
    }

    @Test(arguments: [
        ("2014-04-01", "2014-04-02"), ("2024-01-01", "2024-01-08"), ("2024-12-30", "2025-01-06"),
        ("2025-01-01", "2025-01-01"), ("2025-01-06", "2025-01-08"), ("2022-07-08", "2022-07-09"),
        ("2023-01-01", "2023-01-01"),
    ])
    func weeksAreBucketedAsFrankfurtersSQLiteDoes(day: String, bucket: String) throws {
        let date = try #require(RateDate(day))
        #expect(RateDate(dayNumber: V2Dates.weekBucket(date.dayNumber))?.description == bucket)
    }

    @Test func monthsShiftAsRubysDateDoes() throws {
        let january = try #require(RateDate("2014-01-31")).dayNumber
        #expect(RateDate(dayNumber: V2Dates.addingMonths(january, 1))?.description == "2014-02-28")
        let leap = try #require(RateDate("2016-02-29")).dayNumber
        #expect(RateDate(dayNumber: V2Dates.addingMonths(leap, 12))?.description == "2017-02-28")
        #expect(RateDate(dayNumber: V2Dates.monthBucket(january))?.description == "2014-01-01")
    }

    /// Ruby's `format` rounds half to even near a tie, where printf rounds the exact double (1.38255 lies
    /// just below its tie: C writes 1.3825, Ruby and so Frankfurter 1.3826).
    @Test(arguments: [
        (1.38255, 4, "1.3826"), (0.45, 1, "0.4"), (0.35, 1, "0.4"), (0.15, 1, "0.2"), (2.675, 2, "2.68"),
        (1.005, 2, "1.00"), (0.05, 1, "0.1"), (0.123455, 5, "0.12346"), (1.00005, 4, "1.0000"), (80.125, 2, "80.12"),
        (0.125, 2, "0.12"), (9.99995, 4, "10.0000"), (0.999995, 5, "1.00000"), (99.995, 2, "100.00"),
    ] as [(Double, Int, String)])
    func fixedDigitsAreRubys(value: Double, decimals: Int, text: String) {
        #expect(RubyFixedFormat.string(value, decimals: decimals) == text)
    }

    @Test func roundedNumbersAreIntegersAboveFiveThousand() {
        #expect(V2Emitter.rounded(15822.52) == "15823")
        #expect(V2Emitter.rounded(655.957) == "655.96")
        #expect(V2Emitter.rounded(1.0 / 15963.0) == "6.3e-05")
    }
}
