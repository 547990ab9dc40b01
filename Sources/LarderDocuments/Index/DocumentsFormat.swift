/// How `--documents-url` indexes are read (SPEC §5).
public enum DocumentsFormat: String, Sendable, CaseIterable {
    case auto, xml, json
}
