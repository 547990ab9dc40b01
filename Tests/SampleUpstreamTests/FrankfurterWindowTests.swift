import Foundation
import LarderRates
import LarderTesting
import Testing

/// Single-provider `/v2/rates` windows, the queries a mirror's sync asks, against the same answer worked
/// out here the plain way from `rows.csv`: every row of the provider scanned, as the sample upstream did
/// before it indexed each provider's rows by base and quote (for the full-size set of the bench).
@Suite("Sample upstream: Frankfurter v2 windows over the indexed rows")
struct FrankfurterWindowTests {
    struct Row {
        let provider: String
        let date: RateDate
        let base: String
        let quote: String
        let rate: String
    }

    static let rows: [Row] = {
        let text = (try? String(contentsOf: ChildProcess.examplesUpstream.appending(path: "frankfurter/rows.csv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 5, let date = RateDate(fields[1]) else { return nil }
            return Row(provider: fields[0], date: date, base: fields[2], quote: fields[3], rate: fields[4])
        }
    }()

    /// What Frankfurter answers for one provider's window: its rows in `base` (stored, or stored the other
    /// way round and inverted), and for a pair silent on `from` its newest row of the 14 days before.
    static func expected(provider: String, base: String, quote: String?, from: RateDate, to: RateDate) -> String {
        let mine = rows.filter { $0.provider == provider }
        let direct = mine.filter { $0.base == base }
        let held = Set(direct.map { "\($0.date) \($0.quote)" })
        let inverted = mine.filter { $0.quote == base && !held.contains("\($0.date) \($0.base)") }.map {
            Row(provider: provider, date: $0.date, base: base, quote: $0.base, rate: FrankfurterRounding.roundedText(1 / Double($0.rate)!))
        }
        let asked = (direct + inverted).filter { $0.quote != base && (quote == nil || $0.quote == quote) }
        let earliest = from.adding(days: -14)!
        let onFrom = Set(asked.filter { $0.date == from }.map(\.quote))
        let opening = Dictionary(grouping: asked.filter { earliest <= $0.date && $0.date < from && !onFrom.contains($0.quote) }, by: \.quote)
            .values.map { $0.max { $0.date < $1.date }! }
        let chosen = (opening + asked.filter { from <= $0.date && $0.date <= to }).sorted { ($0.date, $0.quote) < ($1.date, $1.quote) }
        return "[" + chosen.map { #"{"date":"\#($0.date)","base":"\#($0.base)","quote":"\#($0.quote)","rate":\#($0.rate)}"# }
            .joined(separator: ",") + "]"
    }

    @Test func everyProvidersWindowsAnswerAsAScanOfItsRows() async throws {
        let providers = Set(Self.rows.map(\.provider)).sorted()
        #expect(providers.count == 8)
        // The whole set, a window opening in RBA's gap and after CBR's last row, single days (a Friday, a Saturday).
        let windows = [("2026-08-03", "2026-11-27"), ("2026-10-16", "2026-11-06"), ("2026-11-10", "2026-11-20"),
                       ("2026-10-14", "2026-10-14"), ("2026-10-17", "2026-10-17")].map { (RateDate($0.0)!, RateDate($0.1)!) }
        try await withSampleUpstream { upstream in
            var asked = 0
            for provider in providers {
                let stored = Self.rows.filter { $0.provider == provider }
                let pivot = Dictionary(grouping: stored.flatMap { [$0.base, $0.quote] }, by: { $0 }).max { $0.value.count < $1.value.count }!.key
                // The pivot as the base (stored or inverted rows), and each other code with the pivot as its quote.
                let bases = [(pivot, String?.none)] + Set(stored.flatMap { [$0.base, $0.quote] }).subtracting([pivot]).sorted()
                    .filter { CurrencyPeg.of($0) == nil }.map { ($0, Optional(pivot)) }
                for (base, quote) in bases {
                    for (from, to) in windows {
                        let target = "/v2/rates?providers=\(provider)&base=\(base)" + (quote.map { "&quotes=\($0)" } ?? "") + "&from=\(from)&to=\(to)"
                        let answer = try await onThread { try TestConnection.fetch(port: upstream.port, target) }
                        #expect(answer.status == 200, "\(target)")
                        #expect(answer.text == Self.expected(provider: provider, base: base, quote: quote, from: from, to: to), "\(target)")
                        asked += 1
                    }
                }
            }
            #expect(asked > 200)
        }
    }
}
