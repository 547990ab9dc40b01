public import Foundation

/// What the last rates cross-check found (SPEC §4.12), as `/status`, the status page and the logs show it.
public struct CrossCheckReport: Sendable, Equatable {
    /// How the check, or one upstream's part in it, ended.
    public enum Outcome: String, Sendable, CaseIterable {
        /// The upstream that delivered the day (not asked again).
        case served
        case agreed
        case disagreed
        /// No answer for the day (an error, a refused payload, or the day absent): not a disagreement.
        case unavailable
        /// One upstream's answer ends before the day checked: it is behind (not a disagreement either).
        case behind
    }

    /// One upstream of the check: its label (the URL without credentials) and how it answered.
    public struct Asked: Sendable, Equatable {
        public let label: String
        public let format: String
        public let outcome: Outcome
        /// Why it was unavailable, or behind.
        public let error: String?
        /// Behind: the newest day it holds.
        public var newestDay: String?
    }

    /// One currency on which the upstreams disagreed.
    public struct Disagreement: Sendable, Equatable {
        public let currency: String
        /// Each answering upstream's published value, in the order of `upstreams`.
        public let values: [(label: String, value: String)]
        /// The value served after the check.
        public let kept: String
        /// The upstreams outvoted by a majority; empty when no majority decided (two upstreams split).
        public let odd: [String]

        public static func == (lhs: Disagreement, rhs: Disagreement) -> Bool {
            lhs.currency == rhs.currency && lhs.kept == rhs.kept && lhs.odd == rhs.odd
                && lhs.values.map(\.label) == rhs.values.map(\.label) && lhs.values.map(\.value) == rhs.values.map(\.value)
        }
    }

    /// The day checked.
    public let date: String
    public let checkedAt: Date
    /// `agreed`, `disagreed`, or `unavailable` when no other upstream answered.
    public let outcome: Outcome
    /// The served upstream first, then each one asked.
    public let upstreams: [Asked]
    /// By currency code.
    public let disagreements: [Disagreement]
    /// True when a majority replaced served values, so the stored day was rewritten.
    public let rewritten: Bool

    /// Every upstream whose newest day is older than the day checked, in the order of `upstreams`.
    public var behindUpstreams: [Asked] {
        upstreams.filter { $0.outcome == .behind }
    }

    /// Every upstream outvoted on at least one currency, in the order of `upstreams`.
    public var oddUpstreams: [String] {
        let odd = Set(disagreements.flatMap(\.odd))
        return upstreams.map(\.label).filter(odd.contains)
    }
}
