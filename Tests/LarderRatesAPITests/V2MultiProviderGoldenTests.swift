import Foundation
import LarderHTTP
import LarderRates
@testable import LarderRatesAPI
import Testing

/// The v2 engine over many providers against the real Frankfurter: Examples/upstream/frankfurter/rows.csv
/// as Frankfurter stores them (every provider's own rows), each golden `/v2/rates` query
/// (Tests/Fixtures/frankfurter-golden, captured with today 2026-11-28) planned, blended and written as the
/// route writes it, compared with Frankfurter's body: JSON as values, CSV and NDJSON as text.
@Suite("Frankfurter v2 over many providers: the blend against the real Frankfurter's answers")
struct V2MultiProviderGoldenTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let golden = root.appending(path: "Tests/Fixtures/frankfurter-golden")
    static let today = RateDate("2026-11-28")!

    struct Entry: Decodable {
        let path: String
        let accept: String
        let status: Int
        let body_file: String
    }

    /// The sample's rows by day, each day's in the order Frankfurter's loader inserted them (provider by
    /// provider as providers.json lists them, each in its file order): the order its blend sums in.
    struct SampleRows: V2RowSource {
        let days: [Int]
        let byDay: [[V2Observation]]

        init() throws {
            let folder = V2MultiProviderGoldenTests.root.appending(path: "Examples/upstream/frankfurter")
            let providers = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appending(path: "providers.json")))
                as? [[String: Any]] ?? []
            let order = providers.compactMap { $0["key"] as? String }
            var rows: [V2Observation] = []
            for line in try String(contentsOf: folder.appending(path: "rows.csv"), encoding: .utf8).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: ",").map(String.init)
                guard fields.count == 5, let day = RateDate(fields[1])?.dayNumber, let rate = Double(fields[4]) else { continue }
                rows.append(V2Observation(provider: fields[0], day: day, base: fields[2], quote: fields[3], rate: rate))
            }
            let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            let loaded = rows.enumerated().sorted { ((rank[$0.element.provider] ?? 99), $0.offset) < ((rank[$1.element.provider] ?? 99), $1.offset) }
                .map(\.element)
            let grouped = Dictionary(grouping: loaded, by: \.day)
            days = grouped.keys.sorted()
            byDay = days.map { grouped[$0]! }
        }

        var count: Int { days.count }
        func day(at index: Int) -> Int { days[index] }
        func rows(at index: Int) -> [V2Observation] { byDay[index] }
    }

    /// What the route answers for `path` (`/v2/rates…`) and `accept`: status and body.
    static func answer(_ path: String, accept: String, state: V2SnapshotState) -> (Int, [UInt8]) {
        let components = URLComponents(string: path)!
        let items = (components.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        let format: V2RatesFormat = components.path.hasSuffix(".csv") || V2RatesFormat.prefersCSV(accept) ? .csv
            : accept.contains("application/x-ndjson") ? .ndjson : .json
        do throws(V2Error) {
            let query = try V2RatesQuery(items, isKnown: V2SnapshotState.isKnown)
            let plan = try query.plan(provider: "", on: ServingDay(today: today, isOffline: false))
            var records: [UInt8] = []
            var count = 0
            plan.each(state.sources) { record in
                format.append(record, index: count, expanded: plan.expandProviders, into: &records)
                count += 1
            }
            let body = Array(format.head(range: plan.isRange, expanded: plan.expandProviders, empty: count == 0).utf8)
                + records + Array(format.tail.utf8)
            return (200, body)
        } catch {
            return (error.status.rawValue, error.body)
        }
    }

    static func equal(_ ours: [UInt8], _ theirs: Data, format json: Bool) -> Bool {
        guard json else { return Data(ours) == theirs }
        let a = try? JSONSerialization.jsonObject(with: Data(ours), options: [.fragmentsAllowed])
        let b = try? JSONSerialization.jsonObject(with: theirs, options: [.fragmentsAllowed])
        guard let a, let b else { return false }
        return same(a, b)
    }

    /// JSON values alike: objects by member, arrays in order, numbers as doubles.
    static func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        case let (a as [Any], b as [Any]):
            return a.count == b.count && zip(a, b).allSatisfy(same)
        case let (a as String, b as String):
            return a == b
        case let (a as NSNumber, b as NSNumber):
            return a.doubleValue == b.doubleValue
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }

    /// What a metadata route answers for `path`, the mirror's providers described as the upstream described them.
    static func metadata(_ path: String, catalog: V2MirrorCatalog) -> (Int, [UInt8]) {
        let components = URLComponents(string: path)!
        let query = components.queryItems ?? []
        func last(_ name: String) -> String? { query.last { $0.name == name }?.value }
        let segments = components.path.split(separator: "/").map(String.init)
        if segments == ["v2", "providers"] { return (200, catalog.providers(today: today)) }
        if segments.count >= 2, segments[1] == "currencies" {
            return (200, catalog.currencies(scope: last("scope"), providers: last("providers"), today: today))
        }
        if segments.count >= 3, segments[1] == "currency", let body = catalog.currency(segments[2].uppercased()) {
            return (200, body)
        }
        return (404, V2Error.notFound.body)
    }

    @Test func theMetadataRoutesAnswerAsFrankfurterDid() throws {
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.golden.appending(path: "manifest.json")))
            .filter { entry in ["/v2/providers", "/v2/currencies", "/v2/currency/"].contains { (prefix: String) in entry.path.hasPrefix(prefix) } }
        let described = try entries.first { $0.path == "/v2/providers" }.map {
            try JSONDecoder().decode([V2ProviderInfo].self, from: Data(contentsOf: Self.golden.appending(path: $0.body_file)))
        } ?? []
        let catalog = V2MirrorCatalog(coverage: ProviderCoverage(try SampleRows()), providers: described)
        var differences: [String] = []
        for entry in entries {
            let (status, ours) = Self.metadata(entry.path, catalog: catalog)
            // The one name the capture's money gem (Debian's 7.1.1) words otherwise than Frankfurter's own
            // 7.0.2, whose table Larder carries (shared/reference/frankfurter/currency_iso.json).
            let body = Array(String(decoding: ours, as: UTF8.self).replacingOccurrences(
                of: "Netherlands Antillean Gulden", with: "Netherlands Antillean Guilder").utf8)
            let expected = try Data(contentsOf: Self.golden.appending(path: entry.body_file))
            if status != entry.status || !Self.equal(body, expected, format: true) {
                differences.append("\(entry.path): \(status) vs \(entry.status); \(String(decoding: body.prefix(300), as: UTF8.self))")
            }
        }
        print("v2 multi-provider metadata: \(entries.count - differences.count)/\(entries.count) equal")
        for difference in differences { print("  ≠ " + difference) }
        #expect(entries.count >= 10)
        #expect(differences.isEmpty, "\(differences.count) of \(entries.count) answers differ from Frankfurter's")
    }

    /// What the sample does not hold: Ruby's compensated sum (ten 0.1s are 1.0, not 0.9999999999999999),
    /// and `reconcile` (two routes of one provider to one quote on one day become their mean).
    @Test func sumsAreCompensatedAndAProvidersTwoRoutesAreReconciled() {
        #expect(RubySum.of(Array(repeating: 0.1, count: 10)) == 1.0)
        #expect(Array(repeating: 0.1, count: 10).reduce(0, +) != 1.0)
        let day = RateDate("2026-11-20")!.dayNumber
        let rows = [
            V2Observation(provider: "X", day: day, base: "USD", quote: "EUR", rate: 0.8),
            V2Observation(provider: "X", day: day, base: "GBP", quote: "EUR", rate: 1.2),
            V2Observation(provider: "X", day: day, base: "USD", quote: "GBP", rate: 0.7),
        ]
        let rebased = V2Blender(provider: "", today: day).rebased(rows)
        // GBP per USD directly (0.7), and through EUR (0.8 / 1.2, Frankfurter's first bridge): one row at the mean.
        #expect(rebased.filter { $0.quote == "GBP" }.map(\.rate) == [(0.8 / 1.2 + 0.7) / 2])
        #expect(rebased.filter { $0.quote == "EUR" }.map(\.rate) == [0.8])
        #expect(rebased.count == 2)
    }

    @Test func everyRatesQueryBlendsAsFrankfurterDid() throws {
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.golden.appending(path: "manifest.json")))
            .filter { $0.path.hasPrefix("/v2/rates") }
        let state = V2SnapshotState(rows: try SampleRows(), providers: [], lastModified: .distantPast)
        var equal = 0
        var differences: [String] = []
        for entry in entries {
            let (status, body) = Self.answer(entry.path, accept: entry.accept, state: state)
            let expected = try Data(contentsOf: Self.golden.appending(path: entry.body_file))
            let isJSON = !entry.path.hasPrefix("/v2/rates.csv") && !entry.accept.contains("csv") && !entry.accept.contains("ndjson")
            if status == entry.status, Self.equal(body, expected, format: isJSON) {
                equal += 1
            } else {
                differences.append("\(entry.path) [\(entry.accept)]: \(status) vs \(entry.status); \(String(decoding: body.prefix(300), as: UTF8.self)) | \(String(decoding: expected.prefix(300), as: UTF8.self))")
            }
        }
        print("v2 multi-provider golden: \(equal)/\(entries.count) equal")
        for difference in differences { print("  ≠ " + difference) }
        #expect(differences.isEmpty, "\(differences.count) of \(entries.count) answers differ from Frankfurter's")
    }
}
