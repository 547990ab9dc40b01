import Foundation
import LarderRates
import LarderFreshness
import LarderStore
import Logging

/// The orientation probe of one refresh (`FrankfurterOrientationProbe`): each provider with a currency
/// not yet judged is asked over its last days, 2 providers at a time, and each verdict is kept among
/// the provider's finished windows, so a restart does not ask again.
struct FrankfurterProbeRun: Sendable {
    typealias Probe = FrankfurterOrientationProbe
    let attempt: FrankfurterMirrorAttempt
    let until: RateDate
    let now: Date

    /// Every provider's currencies with how each is stored: the kept verdicts, and the new ones.
    func orientations(
        _ providers: [FrankfurterMirrorPlan.Provider], finished: [String: Set<String>]
    ) async throws -> [String: [String: Probe.Stored]] {
        var orientations = Dictionary(uniqueKeysWithValues: providers.map { ($0.key, Probe.kept(finished[$0.key] ?? [])) })
        let unjudged = providers.filter { provider in provider.foreign.contains { orientations[provider.key]?[$0] == nil } }
        try await withThrowingTaskGroup(of: (key: String, stored: [String: Probe.Stored]).self) { group in
            var pending = unjudged[...]
            func next() {
                guard let provider = pending.popFirst() else { return }
                let known = orientations[provider.key] ?? [:]
                group.addTask { (provider.key, try await probe(provider, known: known)) }
            }
            for _ in 0..<FrankfurterMirrorAttempt.parallel { next() }
            while let result = try await group.next() {
                orientations[result.key, default: [:]].merge(result.stored) { _, new in new }
                next()
            }
        }
        return orientations
    }

    /// One provider's unjudged currencies: x for all of them in one request, y for each x leaves open.
    private func probe(_ provider: FrankfurterMirrorPlan.Provider, known: [String: Probe.Stored]) async throws -> [String: Probe.Stored] {
        var end = provider.end
        var x = try await ask("v2/rates?providers=\(provider.key)&base=\(provider.pivot)&\(range(provider, to: end))", provider: provider.key)
        let days = Set(x.values.flatMap(\.keys))
        // The listed last day can hold no real rows (one row dated years ahead upstream, or this machine's
        // clock ahead): the upstream's latest answer, on its own clock, shows where its rows end.
        if days.count < 2, let latest = try? await ask("v2/rates?providers=\(provider.key)&base=\(provider.pivot)", provider: provider.key),
           let newest = latest.values.flatMap(\.keys).max(), newest < end, !days.contains(newest) {
            end = newest
            x = try await ask("v2/rates?providers=\(provider.key)&base=\(provider.pivot)&\(range(provider, to: end))", provider: provider.key)
        }
        let window = range(provider, to: end)
        var proven: [String: Probe.Stored] = [:]
        var ambiguous: [String] = []
        for code in provider.foreign where known[code] == nil {
            let pivotBased = x[provider.pivot + code] ?? [:]
            var verdict = Probe.judge(pivotBased: pivotBased)
            // A pegged base with providers= answers []: no y to compare with.
            if verdict == .ambiguous, !pivotBased.isEmpty, CurrencyPeg.of(code) == nil {
                let y = try await ask("v2/rates?providers=\(provider.key)&base=\(code)&quotes=\(provider.pivot)&\(window)", provider: provider.key)
                verdict = Probe.judge(pivotBased: pivotBased, pivotQuoted: y[code + provider.pivot] ?? [:])
            }
            switch verdict {
            case .proven(let way): proven[code] = way
            case .ambiguous: ambiguous.append(code)
            }
        }
        // Round trips of few-digit rates are often exact both ways: such a currency follows the way the
        // provider's proven ones are stored (an adapter stores its currencies alike), else (foreign, PIVOT),
        // as most of Frankfurter's adapters store them. A pegged one stays (PIVOT, FOREIGN): its base is [].
        let decided = Array(known.values) + Array(proven.values)
        let usual: Probe.Stored = decided.filter { $0 == .pivotBase }.count > decided.filter { $0 == .pivotQuote }.count
            ? .pivotBase : .pivotQuote
        var stored = proven
        for code in ambiguous { stored[code] = CurrencyPeg.of(code) != nil ? .pivotBase : usual }
        if !ambiguous.isEmpty {
            attempt.sync.logger.notice(
                "rates: \(attempt.label)'s \(provider.key) answers for \(ambiguous.joined(separator: ", ")) agree within rounding both ways over \(window): taken as stored like its other currencies (\(usual == .pivotBase ? "(\(provider.pivot), foreign)" : "(foreign, \(provider.pivot))"))")
        }
        for (code, way) in stored { try await attempt.mark(provider.key, window: Probe.key(code, way), now: now) }
        return stored
    }

    /// The probe's days: the `days` up to `end`, within the provider's span.
    private func range(_ provider: FrankfurterMirrorPlan.Provider, to end: RateDate) -> String {
        "from=\(max(provider.start, end.adding(days: 1 - Probe.days) ?? provider.start))&to=\(end)"
    }

    /// One probe request's rows, by base and quote joined (`EURUSD`), then by day.
    private func ask(_ target: String, provider: String) async throws -> [String: [RateDate: String]] {
        let progress = attempt.sync.mirrorProgress
        progress.plan(1)
        let body = try await attempt.get(target)
        let rows: [FrankfurterRowRecord]
        do throws(RatesFormatError) {
            rows = try FrankfurterMirrorAttempt.rows(body, provider: provider, until: until)
        } catch {
            throw RefreshError(.invalidPayload, "refused \(target): \(error.message)")
        }
        progress.answered(rowsAdded: 0)
        var pairs: [String: [RateDate: String]] = [:]
        for row in rows {
            if let day = RateDate(row.date) { pairs[row.base + row.quote, default: [:]][day] = row.rate }
        }
        return pairs
    }
}
