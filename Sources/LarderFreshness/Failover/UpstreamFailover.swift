public import Foundation
public import Logging

/// How a resource asks its upstreams (SPEC §4.12), the rates' refresh, the documents' index and each
/// document's download alike: in order, each at most once, until one delivers. An upstream with a
/// health has it recorded (attempt, success, failure: the breaker); Larder's own store failing stops
/// the round and moves no health, being no upstream's fault. When none delivers, one rule names the
/// error (`combined`).
public struct UpstreamFailover: Sendable {
    /// What one upstream's attempt came to, short of an error.
    public enum Answer<Value: Sendable>: Sendable {
        /// Taken; `served` is what `/status` shows the upstream served (nil: unchanged).
        case delivered(Value, served: String?)
        /// An answer that replaces nothing (a documents index older than the one held): it counts
        /// against the upstream's health, and the next is asked; when no upstream delivers, the round
        /// ends `declined` rather than failed.
        case declined(RefreshError)
        /// Taken, but without a publication the schedule says is due (SPEC §4.12): no failure (it
        /// answered), yet the next is asked. When none after it delivers, the round delivers the last
        /// value taken this way (an attempt may fold the earlier ones into its value).
        case behind(Value, served: String?)
    }

    /// How the round ended.
    public enum Outcome<Value: Sendable>: Sendable {
        /// The value of the upstream at `position` in the order asked.
        case delivered(Value, position: Int)
        /// No upstream delivered, and at least one answered with something that replaces nothing.
        case declined
        case failed(RefreshError)
    }

    /// One upstream to ask: its name in logs and errors, and its health when it has one.
    public struct Candidate: Sendable {
        public var label: String
        public var health: UpstreamHealth?
        /// Asked only when every candidate before it failed: one that answered (behind, or with
        /// something that replaces nothing) ends the round before it (SPEC §4.12, `;fallback`).
        public var fallback: Bool

        public init(label: String, health: UpstreamHealth?, fallback: Bool = false) {
            self.label = label
            self.health = health
            self.fallback = fallback
        }
    }

    /// The resource's name in log lines (`rates`, `documents`).
    public let resource: String
    /// Warned of each failure that the next upstream follows; nil: failures are only returned.
    public let logger: Logger?

    public init(resource: String, logger: Logger?) {
        self.resource = resource
        self.logger = logger
    }

    /// Asks `candidates` in order with `attempt` (given the position) until one delivers.
    public func ask<Value: Sendable>(
        _ candidates: [Candidate], at now: Date,
        _ attempt: (_ position: Int) async throws(RefreshError) -> Answer<Value>
    ) async -> Outcome<Value> {
        var failures: [(label: String, error: RefreshError)] = []
        var declined = false
        var behind: (value: Value, position: Int)?
        for (position, candidate) in candidates.enumerated() {
            // An upstream before it answered: the tier above is up, the origin is not asked.
            if candidate.fallback, declined || behind != nil { break }
            candidate.health?.attempting(at: now)
            do {
                switch try await attempt(position) {
                case .delivered(let value, let served):
                    candidate.health?.succeeded(at: now, served: served)
                    return .delivered(value, position: position)
                case .declined(let error):
                    candidate.health?.failed(at: now, error: error)
                    declined = true
                case .behind(let value, let served):
                    candidate.health?.answeredBehind(at: now, served: served)
                    behind = (value, position)
                    if position + 1 < candidates.count {
                        logger?.notice("\(resource): upstream \(candidate.label) lacks the publication due; asking the next")
                    }
                }
            } catch where error.kind == .store {
                return .failed(error)
            } catch {
                candidate.health?.failed(at: now, error: error)
                failures.append((candidate.label, error))
                if position + 1 < candidates.count {
                    logger?.warning("\(resource): upstream \(candidate.label) failed (\(error.message)); asking the next")
                }
            }
        }
        if let behind { return .delivered(behind.value, position: behind.position) }
        return declined ? .declined : .failed(Self.combined(failures))
    }

    /// The one rule for the error of a round where no upstream delivered: a single failure as it is;
    /// several, the kind of the first one asked (the most preferred upstream still available: the one
    /// an operator repairs first, and what `Cache-Status` and the metrics name) with every upstream's
    /// reason in the message, in the order asked.
    public static func combined(_ failures: [(label: String, error: RefreshError)]) -> RefreshError {
        guard let first = failures.first else { return RefreshError(.unreachable, "no upstream to ask") }
        guard failures.count > 1 else { return first.error }
        let each = failures.map { "\($0.label): \($0.error.message)" }.joined(separator: "; ")
        return RefreshError(first.error.kind, "every upstream failed: \(each)")
    }
}
