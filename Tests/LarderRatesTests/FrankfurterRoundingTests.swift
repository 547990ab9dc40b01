import LarderRates
import Testing

@Suite("Frankfurter's rounding by magnitude")
struct FrankfurterRoundingTests {
    /// Each expected text is what Frankfurter's own Roundable#round printed for the value (Ruby 3.1),
    /// so a rule that drifts from it (a threshold, half-up instead of printf's half-even) fails here.
    @Test(arguments: [
        (0.814299, "0.8143"), (160.125, "160.12"), (5000.5, "5001"), (12345.678, "12346"), (80.005, "80.0"),
        (80.0, "80.0"), (20.00049, "20.0"), (1.23456, "1.2346"), (1.0, "1.0"), (0.00012345, "0.00012"),
        (0.0001, "0.0001"), (1.234567e-05, "1.2e-05"), (1.0e-07, "0.0"), (10.823, "10.823"),
        (7.4592 / 1.0823, "6.892"), (1 / 1.0823, "0.92396"), (100 * 1.0823, "108.23"), (25.0625, "25.062"),
    ])
    func roundsAsFrankfurter(value: Double, expected: String) throws {
        let text = FrankfurterRounding.roundedText(value)
        // Equal as JSON numbers: Ruby writes 1.2e-05 as "1.2e-05" too, and 1.0 as "1.0".
        #expect(Double(text) == Double(expected))
        #expect(text == expected)
    }
}
