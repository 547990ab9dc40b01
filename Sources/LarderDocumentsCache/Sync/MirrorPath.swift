import Foundation

/// A document's place on another mirror (SPEC §4.12): its URL relative to the index URL it was
/// resolved against (RFC 3986 §5 in reverse), resolved against the other mirror's index URL.
enum MirrorPath {
    /// `document` on the mirror whose index is `mirrorIndex`; nil when `document` is not on its
    /// index's origin (scheme, credentials, host and port), since it has no relative path then.
    static func url(of document: URL, listedIn index: URL, onMirror mirrorIndex: URL) -> URL? {
        guard let reference = relativeReference(to: document, from: index) else { return nil }
        return URL(string: reference, relativeTo: mirrorIndex)?.absoluteURL
    }

    /// The relative reference that resolves against `base` to `target`, or nil across origins.
    static func relativeReference(to target: URL, from base: URL) -> String? {
        guard let targetParts = URLComponents(url: target, resolvingAgainstBaseURL: true),
              let baseParts = URLComponents(url: base, resolvingAgainstBaseURL: true),
              targetParts.scheme?.lowercased() == baseParts.scheme?.lowercased(),
              targetParts.host?.lowercased() == baseParts.host?.lowercased(),
              targetParts.port == baseParts.port,
              targetParts.percentEncodedUser == baseParts.percentEncodedUser,
              targetParts.percentEncodedPassword == baseParts.percentEncodedPassword
        else { return nil }
        // The base's directory segments (what follows its last "/" is replaced on resolution).
        var baseDirectory = baseParts.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        baseDirectory.removeLast()
        let targetSegments = targetParts.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let targetDirectory = Array(targetSegments.dropLast())
        var common = 0
        while common < baseDirectory.count, common < targetDirectory.count, baseDirectory[common] == targetDirectory[common] {
            common += 1
        }
        var segments = Array(repeating: "..", count: baseDirectory.count - common)
        segments += targetSegments[common...]
        var reference = segments.joined(separator: "/")
        // A first segment holding ":" would read as a scheme; an empty one as the base itself.
        if reference.isEmpty || segments[0].contains(":") { reference = "./" + reference }
        if let query = targetParts.percentEncodedQuery { reference += "?" + query }
        return reference
    }
}
