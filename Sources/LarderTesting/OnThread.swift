import Foundation

/// Runs blocking socket work on its own thread, so it never starves Swift's cooperative pool
/// (which the server's suspending handlers need in order to answer).
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}
