import Foundation
import LarderStore
import LarderTesting
import Testing


/// Opens a store in `directory`, commits 2026-11-20 from `upstreamURL`, and closes it.
func storeOneDay(in directory: String, upstreamURL: String) throws {
    let store = try Store(directory: directory, logger: quietLogger)
    try store.prepare(resource: .rates, upstreamURL: upstreamURL)
    try store.commitRates([sampleSet("2026-11-20")], item: feedItem(1))
}

func sampleSet(_ date: String, usd: String = "1.0862", storedAt: Double = 1_790_000_000) -> RateSetRecord {
    RateSetRecord(
        date: date, base: "EUR", createdAt: nil, updatedAt: Date(timeIntervalSince1970: storedAt - 100),
        storedAt: Date(timeIntervalSince1970: storedAt),
        rates: [.init(code: "JPY", name: nil, value: "162.41"), .init(code: "USD", name: "US dollar", value: usd)])
}

func feedItem(_ fetchedAt: Double, etag: String? = "\"v1\"") -> ItemRecord {
    ItemRecord(resource: .rates, key: "feed", fetchedAt: Date(timeIntervalSince1970: fetchedAt), etag: etag)
}

@Suite("Store: migrations, format version, upstream URL, rate sets")
struct StoreTests {
    @Test func ratesRoundTripWithPublishedDigits() async throws {
        try await withTemporaryDirectory("larder-store") { directory in
            let store = try Store(directory: directory, logger: quietLogger)
            try await store.commitRates([sampleSet("2026-11-19", usd: "1.0800"), sampleSet("2026-11-20", usd: "310.70")],
                                        item: feedItem(1_790_000_000))
            let latest = try #require(try store.latestRateSet())
            #expect(latest.date == "2026-11-20")
            #expect(latest.rates.map(\.value) == ["162.41", "310.70"])
            #expect(latest.rates.last?.name == "US dollar")
            #expect(try await store.rateSet(onOrBefore: "2026-11-19")?.rates.last?.value == "1.0800")
            #expect(try await store.rateSet(onOrBefore: "2026-11-18") == nil)
            #expect(try await store.rateSet(onOrBefore: "2027-01-01")?.date == "2026-11-20")
            #expect(try await store.item(resource: .rates, key: "feed")?.etag == "\"v1\"")
            #expect(try store.integrityCheck() == "ok")
        }
    }

    @Test func aReplacedDayIsReplacedWhole() throws {
        try withTemporaryDirectory("larder-store") { directory in
            let store = try Store(directory: directory, logger: quietLogger)
            try store.commitRates([sampleSet("2026-11-20")], item: feedItem(1))
            var replacement = sampleSet("2026-11-20", usd: "1.0900")
            replacement.rates.removeFirst()
            try store.commitRates([replacement], item: feedItem(2, etag: "\"v2\""))
            let latest = try #require(try store.latestRateSet())
            #expect(latest.rates.map(\.code) == ["USD"])
            #expect(latest.rates.first?.value == "1.0900")
            #expect(try store.item(resource: .rates, key: "feed")?.fetchedAt == Date(timeIntervalSince1970: 2))
        }
    }

    @Test func touchMovesOnlyFetchedAtAndValidators() throws {
        try withTemporaryDirectory("larder-store") { directory in
            let store = try Store(directory: directory, logger: quietLogger)
            try store.commitRates([sampleSet("2026-11-20")], item: feedItem(1))
            try store.touch(resource: .rates, key: "feed", fetchedAt: Date(timeIntervalSince1970: 5), etag: nil, lastModified: nil)
            let item = try #require(try store.item(resource: .rates, key: "feed"))
            #expect(item.fetchedAt == Date(timeIntervalSince1970: 5))
            #expect(item.etag == "\"v1\"")
            #expect(try store.latestRateSet() == sampleSet("2026-11-20"))
        }
    }

    @Test func dataSurvivesReopening() throws {
        try withTemporaryDirectory("larder-store") { directory in
            try storeOneDay(in: directory, upstreamURL: "http://127.0.0.1:1/rates.xml")
            let reopened = try Store(directory: directory, logger: quietLogger)
            #expect(try reopened.prepare(resource: .rates, upstreamURL: "http://127.0.0.1:1/rates.xml") == false)
            #expect(try reopened.latestRateSet()?.date == "2026-11-20")
        }
    }

    @Test func aChangedUpstreamURLKeepsTheDataUntilTheNewUpstreamsCopyReplacesIt() throws {
        try withTemporaryDirectory("larder-store") { directory in
            let store = try Store(directory: directory, logger: quietLogger)
            #expect(try store.prepare(resource: .rates, upstreamURL: "http://a.example/rates.xml") == false)
            try store.commitRates([sampleSet("2026-11-19"), sampleSet("2026-11-20")], item: feedItem(1))
            // SPEC §4.9: a changed URL is reported, and nothing is cleared…
            #expect(try store.prepare(resource: .rates, upstreamURL: "http://b.example/rates.xml") == true)
            #expect(try store.rateSetCount() == 2)
            #expect(try store.item(resource: .rates, key: "feed") != nil)
            // …and still reported at the next start, until the new upstream's copy is committed,
            #expect(try store.prepare(resource: .rates, upstreamURL: "http://b.example/rates.xml") == true)
            // which replaces every old day in the same transaction.
            try store.commitRates([sampleSet("2026-11-18")], item: feedItem(2), adopting: "http://b.example/rates.xml")
            #expect(try store.rateDays().map(\.date) == ["2026-11-18"])
            #expect(try store.prepare(resource: .rates, upstreamURL: "http://b.example/rates.xml") == false)
        }
    }

    @Test func aFormatVersionBumpClearsTheCache() throws {
        try withTemporaryDirectory("larder-store") { directory in
            try storeOneDay(in: directory, upstreamURL: "http://a.example/rates.xml")
            do {
                let same = try Store(directory: directory, logger: quietLogger)
                #expect(try same.rateSetCount() == 1)
            }
            let bumped = try Store(directory: directory, formatVersion: Store.formatVersion + 1, logger: quietLogger)
            #expect(try bumped.rateSetCount() == 0)
            #expect(try bumped.item(resource: .rates, key: "feed") == nil)
            // The URL record went too, so the next prepare is a first start, not a change.
            #expect(try bumped.prepare(resource: .rates, upstreamURL: "http://a.example/rates.xml") == false)
        }
    }

    @Test func anUnwritableDirectoryIsAClearError() throws {
        #expect(throws: StoreError.self) {
            _ = try Store(directory: "/proc/larder-cannot-be-here", logger: quietLogger)
        }
    }
}
