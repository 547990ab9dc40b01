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
        // Where Ruby's format is not printf's: a few ulps from a half, its dtoa rounds the half to even
        // (printf says 85.89, 6.9263, 4.7841, 0.86553).
        (10 * 8.5895, "85.9"), (6.9262500000000005, "6.9262"), (4.7841499999999995, "4.7842"),
        (0.8655250000000001, "0.86552"), (169.65499999999997, "169.66"),
        // …and where it is: further from the half, both are exact.
        (3009.5549999999957, "3009.55"), (0.8657650000000054, "0.86577"), (2.0500000000000143e-05, "2.1e-05"),
    ] as [(Double, String)])
    func roundsAsFrankfurter(value: Double, expected: String) throws {
        let text = FrankfurterRounding.roundedText(value)
        // Equal as JSON numbers: Ruby writes 1.2e-05 as "1.2e-05" too, and 1.0 as "1.0".
        #expect(Double(text) == Double(expected))
        #expect(text == expected)
    }
}
