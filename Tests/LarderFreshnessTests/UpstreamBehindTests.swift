import Foundation
import LarderFreshness
import Synchronization
import Testing

/// SPEC §4.12's lagging upstream as `UpstreamFailover` and `UpstreamOrder` apply it: an answer without
/// the publication due is taken but the next is asked, moves no breaker, and ranks its upstream after
/// the up-to-date ones until it is seen holding the newest day.
@Suite("UpstreamFailover: an upstream behind")
struct UpstreamBehindTests {
    static let now = UpstreamFailoverTests.now

    @Test func aBehindAnswerAsksTheNextAndIsDeliveredWhenNoneAfterItDoes() async {
        let (set, candidates) = UpstreamFailoverTests.candidates(3)
        let asked = Mutex<[Int]>([])
        let outcome: UpstreamFailover.Outcome<String> = await UpstreamFailover(resource: "test", logger: nil)
            .ask(candidates, at: Self.now) { position throws(RefreshError) in
                asked.withLock { $0.append(position) }
                if position == 2 { throw UpstreamFailoverTests.failing }
                return .behind("from \(position)", served: "day \(position)")
            }
        guard case .delivered(let value, let position) = outcome else { Issue.record("\(outcome)"); return }
        #expect(value == "from 1" && position == 1, "the last answer taken")
        #expect(asked.withLock { $0 } == [0, 1, 2])
        let reports = set.reports(at: Self.now).map(\.report)
        #expect(reports.map(\.state) == [.closed, .closed, .open], "behind is no failure")
        #expect(reports.map(\.behind) == [true, true, false])
        #expect(reports.map(\.consecutiveFailures) == [0, 0, 1])
    }

    @Test func aBehindUpstreamIsAskedAfterTheUpToDateOnesUntilItHoldsTheNewestDay() {
        let set = UpstreamSet(labels: ["u0", "u1", "u2"], formats: ["auto", "auto", "auto"])
        set.health[0].answeredBehind(at: Self.now, served: nil)
        #expect(set.order(at: Self.now) == [1, 2, 0])
        // An open breaker still skips, behind or not.
        set.health[1].failed(at: Self.now, error: UpstreamFailoverTests.failing)
        #expect(set.order(at: Self.now) == [2, 0])
        // Seen holding the newest day (a cross-check, say): back in its place.
        set.health[0].holds(newestDay: "2026-11-27", behind: false)
        #expect(set.order(at: Self.now) == [0, 2])
        #expect(set.reports(at: Self.now)[0].report.newestDay == "2026-11-27")
        // So is one that answers up to date.
        set.health[2].answeredBehind(at: Self.now, served: nil)
        #expect(set.order(at: Self.now) == [0, 2])
        set.health[0].answeredBehind(at: Self.now, served: nil)
        #expect(set.order(at: Self.now) == [0, 2], "among the behind, the priority order")
        set.health[0].succeeded(at: Self.now, served: nil)
        #expect(set.order(at: Self.now) == [0, 2])
        #expect(set.reports(at: Self.now).map(\.report.behind) == [false, false, true])
    }
}
