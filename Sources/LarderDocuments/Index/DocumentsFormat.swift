/// How `--documents-url` indexes are read (SPEC §5).
public enum DocumentsFormat: String, Sendable, CaseIterable {
    case auto, xml, json
}

/// When the documents index goes stale (SPEC §4.1, §4.14): `ttl`, or `follow` the upstream's own `max-age`
/// (a replica of a Larder primary), between 1 s and 60 s.
public enum DocumentsSchedule: String, Sendable, CaseIterable {
    case ttl, follow
}
