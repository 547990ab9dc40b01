public import Foundation

/// One currency's rate against a set's base, with its name when the feed gives one.
public struct CurrencyRate: Sendable, Hashable {
    /// An ISO 4217-shaped code: three uppercase ASCII letters.
    public let code: String
    public let name: String?
    public let value: PublishedDecimal

    public init(code: String, name: String? = nil, value: PublishedDecimal) {
        self.code = code
        self.name = name
        self.value = value
    }

    /// True for three uppercase ASCII letters.
    public static func isValidCode(_ code: some StringProtocol) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}

/// The rates of one day against one base, as an upstream published them.
public struct RateSet: Sendable, Hashable {
    public let date: RateDate
    /// The currency every rate is quoted against (1 base = rate units of the currency).
    public let base: String
    /// Sorted by code; the base itself is never listed.
    public let rates: [CurrencyRate]
    /// The upstream's timestamps where the feed has them (SPEC §4.2).
    public let createdAt: Date?
    public let updatedAt: Date?

    /// Sorts the rates by code and drops the base's own entry (OXR lists `"USD": 1` in a USD set).
    public init(date: RateDate, base: String, rates: [CurrencyRate], createdAt: Date? = nil, updatedAt: Date? = nil) {
        self.date = date
        self.base = base
        self.rates = rates.filter { $0.code != base }.sorted { $0.code < $1.code }
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The rate of `code` against the base; 1 for the base itself.
    public func rate(of code: String) -> Decimal? {
        if code == base { return 1 }
        return rates.first { $0.code == code }?.value.value
    }

    /// True when both sets carry the same day, base and published rates (timestamps aside).
    public func hasSameRates(as other: RateSet) -> Bool {
        date == other.date && base == other.base && rates == other.rates
    }
}

/// What a rates payload held: one or more days, oldest first, in the format it was read as.
public struct ParsedRates: Sendable {
    public let sets: [RateSet]
    /// The format the body was read as (what `auto` detected).
    public let format: RatesFormat

    public init(sets: [RateSet], format: RatesFormat = .auto) {
        self.sets = sets.sorted { $0.date < $1.date }
        self.format = format
    }

    /// The newest day of the payload.
    public var latest: RateSet? { sets.last }
}

/// Why a rates payload was refused; the whole payload is dropped and the cache keeps what it had.
public struct RatesFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
