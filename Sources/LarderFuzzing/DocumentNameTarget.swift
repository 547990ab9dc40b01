import LarderDocuments
import LarderHTTP

extension FuzzTarget {
    /// Document names as a path segment spells them: decoded once as the server decodes, a name the
    /// name rule passes is one inert path component (no `/`, `\`, NUL, `%` or dot segment), ASCII,
    /// within the length limit, and folds to a valid name.
    static let documentName = FuzzTarget("document-name") { input throws(PropertyViolation) in
        let raw = text(input)
        if DocumentName.isValid(raw) {
            try checkInertName(raw)
        }
        guard let decoded = PercentDecoding.decode(Substring(raw), plusIsSpace: false) else { return }
        if DocumentName.isValid(decoded) {
            try checkInertName(decoded)
        }
    }
}
