import Foundation
import LarderFreshness
import Synchronization
import Testing

/// SPEC §4.12 as `UpstreamFailover` applies it for every resource: in order, each once, health
/// recorded, the store's failure stopping the round, and one rule for the error when none delivers.
@Suite("UpstreamFailover: one way to ask several upstreams")
struct UpstreamFailoverTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let unreachable = RefreshError(.unreachable, "connection refused")
    static let failing = RefreshError(.upstreamError, "HTTP 503")

    static func candidates(_ count: Int) -> (UpstreamSet, [UpstreamFailover.Candidate]) {
        let set = UpstreamSet(labels: (0..<count).map { "u\($0)" }, formats: Array(repeating: "auto", count: count))
        return (set, set.candidates(Array(0..<count)))
    }

    @Test func asksInOrderUntilOneDeliversAndRecordsEachHealth() async {
        let (set, candidates) = Self.candidates(3)
        let asked = Mutex<[Int]>([])
        let outcome: UpstreamFailover.Outcome<String> = await UpstreamFailover(resource: "test", logger: nil)
            .ask(candidates, at: Self.now) { position throws(RefreshError) in
                asked.withLock { $0.append(position) }
                if position == 0 { throw Self.unreachable }
                return .delivered("from \(position)", served: "day \(position)")
            }
        guard case .delivered(let value, let position) = outcome else { Issue.record("\(outcome)"); return }
        #expect(value == "from 1" && position == 1)
        #expect(asked.withLock { $0 } == [0, 1], "the third is never asked")
        let reports = set.reports(at: Self.now)
        #expect(reports.map(\.report.state) == [.open, .closed, .closed])
        #expect(reports[0].report.lastError == Self.unreachable)
        #expect(reports[1].report.served == "day 1" && reports[1].report.lastSuccess == Self.now)
        #expect(reports[2].report.lastAttempt == nil)
    }

    @Test func whenEveryOneFailsTheFirstAskedNamesTheKindAndEachReasonIsGiven() async {
        let (_, candidates) = Self.candidates(2)
        let outcome: UpstreamFailover.Outcome<String> = await UpstreamFailover(resource: "test", logger: nil)
            .ask(candidates, at: Self.now) { position throws(RefreshError) in
                throw position == 0 ? Self.unreachable : Self.failing
            }
        guard case .failed(let error) = outcome else { Issue.record("\(outcome)"); return }
        #expect(error.kind == .unreachable)
        #expect(error.message == "every upstream failed: u0: connection refused; u1: HTTP 503")
        #expect(UpstreamFailover.combined([("u1", Self.failing)]) == Self.failing, "one failure as it is")
    }

    @Test func theStoreFailingStopsTheRoundAndMovesNoHealth() async {
        let (set, candidates) = Self.candidates(2)
        let outcome: UpstreamFailover.Outcome<String> = await UpstreamFailover(resource: "test", logger: nil)
            .ask(candidates, at: Self.now) { position throws(RefreshError) in
                #expect(position == 0, "no upstream is asked after the store failed")
                throw RefreshError(.store, "disk full")
            }
        guard case .failed(let error) = outcome else { Issue.record("\(outcome)"); return }
        #expect(error.kind == .store)
        #expect(set.reports(at: Self.now).map(\.report.state) == [.closed, .closed])
    }

    @Test func anAnswerThatReplacesNothingEndsDeclinedNotFailed() async {
        let (set, candidates) = Self.candidates(2)
        let outcome: UpstreamFailover.Outcome<String> = await UpstreamFailover(resource: "test", logger: nil)
            .ask(candidates, at: Self.now) { position throws(RefreshError) in
                if position == 0 { return .declined(RefreshError(.invalidPayload, "older than the held index")) }
                throw Self.failing
            }
        guard case .declined = outcome else { Issue.record("\(outcome)"); return }
        #expect(set.reports(at: Self.now).map(\.report.state) == [.open, .open])
    }
}
