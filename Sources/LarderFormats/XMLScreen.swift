import Foundation

/// Checks an XML body's bytes before any parser sees it, so hostile constructs never reach libxml2.
///
/// Refused: NUL bytes (which also rules out UTF-16/32, where the byte checks below would be blind), a
/// first non-blank byte other than `<`, an encoding other than UTF-8/ASCII/Latin-1 (another could
/// hide markup from these checks), every `<!` construct except comments and CDATA: DOCTYPE,
/// ENTITY, ELEMENT, ATTLIST, and every processing instruction but a leading `<?xml …?>` declaration.
/// No upstream format here needs a DTD; entities are the billion-laughs and external-entity
/// attacks; and Foundation's XMLParser crashes on a processing instruction without data (`<?x?>`,
/// found by `make fuzz`), so none reaches it.
public enum XMLScreen {
    /// Returns when `body` may be handed to an XML parser; otherwise throws the first problem found.
    public static func check(_ body: [UInt8]) throws(FormatError) {
        guard !body.contains(0) else { throw FormatError("NUL byte in the XML") }
        let start = ByteText.skipByteOrderMarkAndWhitespace(body)
        guard start < body.endIndex, body[start] == UInt8(ascii: "<") else {
            throw FormatError("the body is not XML (it does not start with '<')")
        }
        var index = start
        while let open = body[index...].firstIndex(of: UInt8(ascii: "<")) {
            let rest = body[(open + 1)...]
            if rest.first == UInt8(ascii: "!"), !rest.starts(with: Array("!--".utf8)),
               !rest.starts(with: Array("![CDATA[".utf8)) {
                throw FormatError("DOCTYPE and other declarations (<!…>) are refused")
            }
            if rest.first == UInt8(ascii: "?"), !(open == start && isDeclaration(rest)) {
                throw FormatError("processing instructions are refused (<?…?>; only a leading XML declaration is allowed)")
            }
            index = open + 1
        }
        try checkEncoding(body[start...])
    }

    /// `?xml` and a blank: the XML declaration (`<?xml-stylesheet` and `<?xmlfoo` are instructions).
    private static func isDeclaration(_ rest: ArraySlice<UInt8>) -> Bool {
        rest.starts(with: Array("?xml".utf8)) && rest.dropFirst(4).first.map(ByteText.isWhitespace) == true
    }

    /// Reads `encoding="…"` from a leading `<?xml …?>` declaration, if there is one. A declaration
    /// never closed is refused: libxml2 reads its encoding all the same, and crashed on one naming
    /// `ISO-8859-8` (found by `make fuzz`), so what it names must be judged whether or not `?>` comes.
    private static func checkEncoding(_ body: ArraySlice<UInt8>) throws(FormatError) {
        guard body.starts(with: Array("<?xml".utf8)) else { return }
        guard let end = body.indices.dropLast().first(where: { body[$0] == UInt8(ascii: "?") && body[$0 + 1] == UInt8(ascii: ">") })
        else { throw FormatError("the XML declaration is not closed with '?>'") }
        let declaration = String(decoding: body[..<end], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return }
        let value = declaration[range.upperBound...]
            .drop(while: { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" || $0 == "\t" })
            .prefix(while: { $0 != "\"" && $0 != "'" })
        let accepted: Set<Substring> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"]
        guard accepted.contains(value) else {
            throw FormatError("XML encoding '\(ByteText.excerpt(value))' is not accepted (UTF-8 only)")
        }
    }
}
