import Foundation

/// Runs `body` with the path of a new, empty directory under the system's temporary folder
/// (`label` names it for a person looking at /tmp), removed with its contents on every exit path.
public func withTemporaryDirectory<T>(_ label: String = "larder-test", _ body: (String) throws -> T) throws -> T {
    let path = try makeTemporaryDirectory(label)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// The asynchronous form of `withTemporaryDirectory`.
public func withTemporaryDirectory<T>(_ label: String = "larder-test", _ body: (String) async throws -> T) async throws -> T {
    let path = try makeTemporaryDirectory(label)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// A path under the temporary folder that nothing uses yet: for a test that wants a directory Larder creates itself.
public func temporaryPath(_ label: String = "larder-test") -> String {
    NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
}

private func makeTemporaryDirectory(_ label: String) throws -> String {
    let path = temporaryPath(label)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
