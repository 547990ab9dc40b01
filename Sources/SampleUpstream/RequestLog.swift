import Synchronization

/// How many requests each served path got, with which statuses, and how many are being answered
/// now (tests count upstream traffic by it, and see a fetch hang without waiting a fixed time).
final class RequestLog: Sendable {
    struct PathCounts: Codable, Sendable {
        /// Requests answered.
        var requests = 0
        var statuses: [String: Int] = [:]
        /// Requests received and not answered yet (held by a delay fault, say).
        var inFlight = 0
        /// The most requests held at once since the last reset (how many a client keeps in flight).
        var maxInFlight = 0

        enum CodingKeys: String, CodingKey {
            case requests, statuses, inFlight = "in_flight", maxInFlight = "max_in_flight"
        }
    }

    struct Snapshot: Codable, Sendable {
        var total = 0
        var paths: [String: PathCounts] = [:]
    }

    private let snapshot = Mutex(Snapshot())

    func received(path: String) {
        snapshot.withLock { snapshot in
            snapshot.paths[path, default: PathCounts()].inFlight += 1
            let counts = snapshot.paths[path]!
            snapshot.paths[path]!.maxInFlight = max(counts.maxInFlight, counts.inFlight)
        }
    }

    func record(path: String, status: Int) {
        snapshot.withLock { snapshot in
            // Never below zero: a reset may have come between receiving and answering.
            snapshot.paths[path, default: PathCounts()].inFlight = max(0, snapshot.paths[path, default: PathCounts()].inFlight - 1)
            snapshot.total += 1
            snapshot.paths[path, default: PathCounts()].requests += 1
            snapshot.paths[path, default: PathCounts()].statuses[String(status), default: 0] += 1
        }
    }

    var current: Snapshot {
        snapshot.withLock { $0 }
    }

    func reset() {
        snapshot.withLock { $0 = Snapshot() }
    }
}
