/// The rule for document names (SPEC §5, §6): names become file names in the mirror, so only a small,
/// inert ASCII alphabet passes.
public enum DocumentName {
    /// Longest accepted name, in bytes (and characters: names are ASCII).
    public static let maxLength = 128

    /// The suffix of the mirror's files still being downloaded; no listed name may contain it, so a
    /// document can never be mistaken for, or collide with, another one's partial download.
    public static let temporarySuffix = ".larder-partial"

    /// True when `name` matches `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$` and is neither `.`, `..` nor
    /// contains `temporarySuffix` in any case.
    ///
    /// Checked byte by byte on UTF-8, never by `Character`, so no Unicode look-alike (`ａ.txt`,
    /// `a․txt`), combining mark or CR LF pair can pass as ASCII. The alphabet leaves out `/`, `\`,
    /// NUL, controls and `%`, so a name is a single path component that no decoding changes.
    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= maxLength, isAlphanumeric(first) else { return false }
        guard bytes.dropFirst().allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".")
            || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else { return false }
        // Unreachable through the first-byte rule, but these two must never name a file; say so here.
        guard name != ".", name != ".." else { return false }
        // Any case: on a case-insensitive file system `a.Larder-Partial` is `a`'s partial download.
        return !caseFolded(name).contains(temporarySuffix)
    }

    /// The key under which names collide: ASCII lowercase (valid names are ASCII only).
    public static func caseFolded(_ name: String) -> String {
        String(decoding: name.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 },
               as: UTF8.self)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
