import LarderRates
@testable import LarderRatesCache
import Testing

/// The majority rule of the rates cross-check (SPEC §4.12), on values alone.
@Suite("CrossCheckVote: which value a currency keeps")
struct CrossCheckVoteTests {
    static func values(_ texts: [String?]) -> [PublishedDecimal?] {
        texts.map { $0.flatMap { PublishedDecimal($0) } }
    }

    @Test func equalPublishedDigitsAgreeWhateverTheirTrailingZeros() {
        #expect(CrossCheckVote.decide(Self.values(["1.0820", "1.082", "1.08200"])) == nil)
        #expect(CrossCheckVote.decide(Self.values(["310.70", "310.7"])) == nil)
    }

    @Test func anUpstreamWithoutTheCurrencyDoesNotVote() {
        #expect(CrossCheckVote.decide(Self.values(["1.0862", nil, "1.0862"])) == nil)
        let split = CrossCheckVote.decide(Self.values(["1.0862", nil, "1.0900"]))
        #expect(split == CrossCheckVote(kept: PublishedDecimal("1.0862")!, decided: false, odd: []), "one against one: no majority")
    }

    @Test func twoUpstreamsThatDisagreeKeepTheServedValue() {
        let vote = CrossCheckVote.decide(Self.values(["1.0862", "1.0900"]))
        #expect(vote?.kept.text == "1.0862")
        #expect(vote?.decided == false)
        #expect(vote?.servedLost == false)
        #expect(vote?.odd == [])
    }

    @Test func aMajorityOutvotesTheServedValue() {
        let vote = CrossCheckVote.decide(Self.values(["1.0800", "1.0862", "1.08620"]))
        #expect(vote?.kept.text == "1.0862", "the first majority upstream's digits")
        #expect(vote?.decided == true)
        #expect(vote?.servedLost == true)
        #expect(vote?.odd == [0])
    }

    @Test func aMajorityWithTheServedValueNamesTheOddOther() {
        let vote = CrossCheckVote.decide(Self.values(["1.0862", "1.0862", "1.0900", "1.0862"]))
        #expect(vote?.kept.text == "1.0862")
        #expect(vote?.servedLost == false)
        #expect(vote?.odd == [2])
    }

    @Test(arguments: [
        ["1.0862", "1.0900", "1.0800"],
        ["1.0862", "1.0862", "1.0900", "1.0900"],
    ])
    func withoutAStrictMajorityTheServedValueStays(_ texts: [String]) {
        let vote = CrossCheckVote.decide(Self.values(texts))
        #expect(vote?.kept.text == "1.0862")
        #expect(vote?.decided == false)
        #expect(vote?.odd == [])
    }
}
