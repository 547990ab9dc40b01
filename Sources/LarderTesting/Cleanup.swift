/// Runs `body`, then `cleanup` whether `body` returned or threw: the async `defer` Swift lacks,
/// so every `with…` helper tears down on every exit path the same way.
public func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        await cleanup()
        throw error
    }
    await cleanup()
    return result
}
