import Foundation
import Synchronization

/// How far the running sync's downloads are, for `/status` and the log's progress lines.
public final class SyncProgress: Sendable {
    /// The figures at one instant.
    public struct Snapshot: Sendable, Equatable {
        public var running = false
        /// Downloads this sync decided on.
        public var total = 0
        /// Downloads finished, failed ones included.
        public var done = 0
        public var failed = 0
        /// Bytes of the documents downloaded so far.
        public var bytes = 0

        public init(running: Bool = false, total: Int = 0, done: Int = 0, failed: Int = 0, bytes: Int = 0) {
            self.running = running
            self.total = total
            self.done = done
            self.failed = failed
            self.bytes = bytes
        }
    }

    private let figures = Mutex(Snapshot())

    var snapshot: Snapshot { figures.withLock { $0 } }

    func start(total: Int) {
        figures.withLock { $0 = Snapshot(running: true, total: total) }
    }

    func finished(bytes: Int, failed: Bool) {
        figures.withLock { figures in
            figures.done += 1
            figures.bytes += bytes
            if failed { figures.failed += 1 }
        }
    }

    func stop() {
        figures.withLock { $0.running = false }
    }
}
