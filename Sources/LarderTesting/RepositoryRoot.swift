public import Foundation

/// The repository's root (the folder of Package.swift), found from this file's path, so a test reads
/// the repository's own files (Examples/, Fuzz/, Docker/, docs) from any working directory.
public let repositoryRoot: URL = URL(filePath: #filePath)
    .deletingLastPathComponent()  // Sources/LarderTesting
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()

/// `../shared/fixtures/<kind>` beside the repository: real upstream data, not part of it, maybe absent.
public func sharedFixtures(_ kind: String) -> URL {
    repositoryRoot.appending(path: "../shared/fixtures/\(kind)").standardized
}
