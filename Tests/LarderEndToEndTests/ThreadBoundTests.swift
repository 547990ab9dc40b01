import Foundation
import LarderTesting
import Synchronization
import Testing

@Suite("A burst of blocking work runs on a fixed number of threads", .serialized)
struct ThreadBoundTests {
    static let documentCount = 2_000
    /// Client connections at once, each asking for its share of the documents in turn (keep-alive).
    static let connections = 64
    static let refreshes = 5
    /// The server's epoll loops, fixed so the bound does not depend on `--threads auto`.
    static let loops = 2

    /// 2,000 requests for documents listed but never downloaded (each one a lookup, a download, a
    /// durable commit: store and file work) and 5 syncs at once: the real binary's thread count stays
    /// under the documented bound (`ThreadBound`), and every answer has the right bytes.
    @Test(.timeLimit(.minutes(4)))
    func coldDocumentsAndRefreshesStayUnderTheThreadBound() async throws {
        try await withTemporaryDirectory("larder-thread-bound") { root in
            // On threads of their own: the burst's clients block, and the test's awaits must not wait behind them.
            let burst = try await onThread { () throws -> Burst in
                let documents = try writeDocuments(count: Self.documentCount, into: root + "/upstream/docs")
                let upstream = try ChildProcess("sample-upstream", ["--root", root + "/upstream", "--port", "0"])
                defer { upstream.signal(SIGKILL) }
                let upstreamPort = try upstream.waitForListening()
                // The first sync lists every document but downloads none: each request below fetches its own.
                let control = try TestConnection(port: upstreamPort)
                for name in documents.keys {
                    let fault = try control.request("PUT", "/_control/faults", body: Array(#"{"path":"/docs/\#(name)","status":503}"#.utf8))
                    guard fault.status < 300 else { throw TestConnectionError("the upstream refused a fault: \(fault.status)") }
                }
                let larder = try ChildProcess("larder", [
                    "serve", "--port", "0", "--cache-dir", root + "/cache", "--threads", String(Self.loops),
                    "--documents-url", "http://127.0.0.1:\(upstreamPort)/docs/index.json",
                ])
                defer { larder.signal(SIGKILL) }
                let port = try larder.waitForListening()
                let synced = try eventuallyBlocking(timeout: .seconds(120), every: .milliseconds(50)) {
                    let documentsStatus = try documentsStatus(port: port)
                    let counts = documentsStatus["counts"] as? [String: Any]
                    let sync = documentsStatus["sync"] as? [String: Any]
                    return counts?["failed"] as? Int == Self.documentCount && sync?["running"] as? Bool == false
                        && documentsStatus["refreshing"] as? Bool == false
                }
                guard synced else { throw TestConnectionError("the first sync did not list every document undownloaded") }
                guard try control.request("DELETE", "/_control/faults").status < 300 else {
                    throw TestConnectionError("the upstream kept its faults")
                }

                let sampler = ThreadSampler(pid: larder.pid)
                let before = sampler.sample()
                let names = documents.keys.sorted()
                let clients = (0..<Self.connections).map { client in
                    Background {
                        let connection = try TestConnection(port: port, timeout: .seconds(60))
                        var wrong: [String] = []
                        for name in stride(from: client, to: names.count, by: Self.connections).map({ names[$0] }) {
                            let answer = try connection.request("GET", "/documents/" + name)
                            if answer.status != 200 || answer.body != documents[name] { wrong.append("\(name): \(answer.status)") }
                        }
                        return wrong
                    }
                }
                let refreshes = (0..<Self.refreshes).map { _ in
                    Background { try TestConnection(port: port, timeout: .seconds(120)).request("POST", "/documents/refresh").status }
                }
                let wrong = clients.flatMap { $0.wait() ?? ["a client failed"] }
                let refreshed = refreshes.map { $0.wait() }
                let peak = sampler.stop()
                return Burst(before: before, peak: peak.count, names: peak.names, wrong: wrong, refreshed: refreshed)
            }
            let bound = ThreadBound.documented(loops: Self.loops, cores: ProcessInfo.processInfo.activeProcessorCount)
            print("thread bound: \(burst.before) threads before the burst, \(burst.peak) at most during it \(burst.names.sorted { $0.key < $1.key }), bound \(bound)")
            #expect(burst.wrong.isEmpty, "\(burst.wrong.count) wrong answers, first \(burst.wrong.prefix(5))")
            #expect(burst.refreshed == Array(repeating: 200, count: Self.refreshes))
            #expect(burst.peak > 0, "the sampler read the process's threads")
            #expect(burst.peak <= bound, "at most \(bound) threads, saw \(burst.peak): \(burst.names)")
            // GRDB's queues left on their default targets take overcommit threads, one per busy queue and more.
            let overcommit = burst.names.filter { $0.key.hasSuffix(".overcommit") }.values.reduce(0, +)
            #expect(overcommit <= ThreadBound.overcommit, "at most \(ThreadBound.overcommit) overcommit threads, saw \(overcommit)")
        }
    }

    /// What the burst saw: threads before it and at most during it, the wrong answers, the refreshes' statuses.
    struct Burst: Sendable {
        var before: Int
        var peak: Int
        /// How many threads had each name at the peak.
        var names: [String: Int]
        var wrong: [String]
        var refreshed: [Int?]
    }
}

/// The process's thread bound, for `--threads loops` on `cores` cores, as
/// docs/architecture.md#nothing-blocks-swifts-cooperative-pool states it.
enum ThreadBound {
    /// libdispatch's overcommit threads: its manager, the signal sources' and timers' queues.
    static let dispatchOwn = 4
    /// The store's writer and readers (`Store.maximumReaderCount`), each on a serial queue targeting the store's queue.
    static let storeConnections = 1 + 5
    /// The overcommit threads: libdispatch's own and GRDB's one queue left on its default target (its readers' wait).
    static let overcommit = dispatchOwn + 1

    static func documented(loops: Int, cores: Int) -> Int {
        let main = 1
        let blockingPool = max(8, 2 * cores)  // BlockingPool.defaultThreads: files, parses, renders
        let eventLoops = cores  // AsyncHTTPClient on NIO's singleton group
        let dispatchWorkers = 2 * cores  // Swift's cooperative pool (libdispatch's on Linux), grown while a worker blocks
        let grdb = storeConnections  // the store's queue's workers: one per connection at work at most
        return main + loops + blockingPool + eventLoops + dispatchWorkers + overcommit + grdb
    }
}

/// `count` documents of 1–4 KiB, each its own bytes, and their JSON index; returns each name's bytes.
private func writeDocuments(count: Int, into folder: String) throws -> [String: [UInt8]] {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var documents: [String: [UInt8]] = [:]
    var entries: [String] = []
    for index in 0..<count {
        let name = "doc-\(index).txt"
        let bytes = Array(String(repeating: "document \(index)\n", count: 64 + index % 200).utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
        documents[name] = bytes
        entries.append(#"{"name":"\#(name)","size":\#(bytes.count)}"#)
    }
    try (#"{"version":1,"documents":["# + entries.joined(separator: ",") + "]}")
        .write(toFile: folder + "/index.json", atomically: true, encoding: .utf8)
    return documents
}

/// `/status`'s documents entry.
private func documentsStatus(port: Int) throws -> [String: Any] {
    let status = try TestConnection.fetch(port: port, "/status")
    let resources = status.json?["resources"] as? [String: Any]
    return resources?["documents"] as? [String: Any] ?? [:]
}

/// Reads `Threads:` of `/proc/<pid>/status` every 2 ms on a thread of its own, keeping the largest
/// and the threads' names at that moment.
private final class ThreadSampler: Sendable {
    private let pid: pid_t
    private let peak = Mutex<(count: Int, names: [String: Int])>((0, [:]))
    private let running = Atomic<Bool>(true)
    private let stopped = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        self.pid = pid
        Thread { [self] in
            while running.load(ordering: .acquiring) {
                let count = sample()
                if count > peak.withLock({ $0.count }) {
                    let names = self.names()
                    peak.withLock { $0 = (count, names) }
                }
                usleep(2_000)
            }
            stopped.signal()
        }.start()
    }

    /// How many threads have each name now (`/proc/<pid>/task/*/comm`).
    private func names() -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var names: [String: Int] = [:]
        for task in tasks {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "?"
            names[name.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += 1
        }
        return names
    }

    /// The process's threads now (0 when unreadable).
    func sample() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }) else { return 0 }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }

    /// Stops sampling; the most threads seen, and how many had each name then.
    func stop() -> (count: Int, names: [String: Int]) {
        running.store(false, ordering: .releasing)
        stopped.wait()
        return peak.withLock { $0 }
    }
}

/// Work on a thread of its own; `wait()` gives its result (nil when it threw).
private final class Background<T: Sendable>: Sendable {
    private let result = Mutex<T?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () throws -> T) {
        Thread { [self] in
            let value = try? work()
            result.withLock { $0 = value }
            done.signal()
        }.start()
    }

    func wait() -> T? {
        done.wait()
        return result.withLock { $0 }
    }
}
