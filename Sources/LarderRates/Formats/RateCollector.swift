import Foundation
import LarderFormats

/// Gathers the rates of one set, applying the checks every format shares: code shape, plain
/// positive decimal, no duplicate currency. Messages read "<format>: <context>: <problem>".
struct RateCollector {
    /// The format name that starts each message (`ecb`, `pipe`, `json`).
    let format: String
    /// Where the next rate comes from (`2026-11-20`, `line 3`, `"rates"`); the pipe parser moves it per line.
    var context: String
    private(set) var rates: [CurrencyRate] = []
    private var seen: Set<String> = []

    init(format: String, context: String) {
        self.format = format
        self.context = context
    }

    /// Adds one rate, or throws the reason the whole payload must be refused.
    mutating func add(code: String, rate: String, name: String? = nil) throws(RatesFormatError) {
        guard CurrencyRate.isValidCode(code) else {
            throw fail("currency code '\(ByteText.excerpt(code))' is not three uppercase letters")
        }
        guard let value = PublishedDecimal(rate) else {
            throw fail("rate '\(ByteText.excerpt(rate))' for \(code) \(Self.whyNotDecimal(rate))")
        }
        guard seen.insert(code).inserted else {
            throw fail("duplicate currency \(code)")
        }
        rates.append(CurrencyRate(code: code, name: name, value: value))
    }

    /// The finished set. Refuses a set with no rate besides the base, and a base listed at anything
    /// but 1 (OXR lists `"USD": 1`; any other value means the payload contradicts itself).
    func rateSet(date: RateDate, base: String, createdAt: Date? = nil, updatedAt: Date? = nil) throws(RatesFormatError) -> RateSet {
        if let own = rates.first(where: { $0.code == base }), own.value.value != 1 {
            throw fail("the base \(base) is listed at \(own.value.text), not 1")
        }
        guard rates.contains(where: { $0.code != base }) else { throw fail("no rates") }
        return RateSet(date: date, base: base, rates: rates, createdAt: createdAt, updatedAt: updatedAt)
    }

    /// A refusal message carrying this collector's format and current context.
    func fail(_ problem: String) -> RatesFormatError {
        RatesFormatError("\(format): \(context): \(problem)")
    }

    /// Names the commonest ways a published number goes wrong, so an operator sees the cause at once.
    static func whyNotDecimal(_ text: String) -> String {
        if text.contains(",") { return "uses a decimal comma" }
        if text.hasPrefix("-") { return "is negative" }
        if text.contains(where: { $0 == "e" || $0 == "E" }),
           text.allSatisfy({ "0123456789.eE+-".contains($0) }) {
            return "uses exponent notation, which is not accepted"
        }
        if !text.isEmpty, text.allSatisfy({ $0 == "0" || $0 == "." }), text.contains("0") { return "is zero" }
        return "is not a decimal number"
    }
}
