import Foundation

/// Runs blocking or CPU-heavy work (sockets, a server's start-up, a parse of 100,000 entries) on its
/// own thread, so it never starves Swift's cooperative pool: one thread per core, which every
/// suspending handler, refresh and `await` of every suite running in this process needs.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}
