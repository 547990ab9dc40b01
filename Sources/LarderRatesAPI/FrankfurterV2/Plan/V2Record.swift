public import LarderRates

/// One row of a `/v2/rates` answer, its numbers already written as Frankfurter writes them.
public struct V2Record: Sendable, Equatable {
    /// A provider's part, as `expand=providers` lists it.
    public struct Provider: Sendable, Equatable {
        public let key: String
        public let date: RateDate
        public let rate: String
        public let excluded: Bool
    }

    public let date: RateDate
    public let base: String
    public let quote: String
    /// The JSON (and CSV) text of the rate: `1.0823`, `1.0`, `17654`, `5.7e-05`.
    public let rate: String
    /// Present with `expand=providers` on a row providers published (a peg's synthesized row has none).
    public let providers: [Provider]?

    /// `{"date":"…","base":"…","quote":"…","rate":…}`, with `"providers":[…]` when present (Frankfurter's key order).
    public func json(into out: inout [UInt8]) {
        out += Array("{\"date\":\"\(date)\",\"base\":\"\(base)\",\"quote\":\"\(quote)\",\"rate\":\(rate)".utf8)
        if let providers {
            out += Array(",\"providers\":[".utf8)
            for (index, provider) in providers.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += Array("{\"key\":\"\(provider.key)\",\"date\":\"\(provider.date)\",\"rate\":\(provider.rate)".utf8)
                if provider.excluded { out += Array(",\"excluded\":true".utf8) }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The CSV header of an answer, with the providers column when they are expanded.
    public static func csvHeader(expanded: Bool) -> String {
        expanded ? "date,base,quote,rate,providers\n" : "date,base,quote,rate\n"
    }

    /// One CSV line: `2024-01-02,EUR,USD,1.0823`, then `ECB:1.0823` (`*` marks an excluded one, `|` separates them).
    public func csv(expanded: Bool, into out: inout [UInt8]) {
        out += Array("\(date),\(base),\(quote),\(rate)".utf8)
        if expanded {
            out.append(UInt8(ascii: ","))
            if let providers {
                let field = providers.map { "\($0.key):\($0.rate)" + ($0.excluded ? "*" : "") }.joined(separator: "|")
                out += Array(field.utf8)
            }
        }
        out.append(UInt8(ascii: "\n"))
    }
}
