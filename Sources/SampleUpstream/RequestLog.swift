import Synchronization

/// How many requests each served path got, and with which statuses (tests count upstream traffic by it).
final class RequestLog: Sendable {
    struct PathCounts: Codable, Sendable {
        var requests = 0
        var statuses: [String: Int] = [:]
    }

    struct Snapshot: Codable, Sendable {
        var total = 0
        var paths: [String: PathCounts] = [:]
    }

    private let snapshot = Mutex(Snapshot())

    func record(path: String, status: Int) {
        snapshot.withLock { snapshot in
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
