import Foundation
import LarderFormats
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `XMLParser` delegate behind `XMLIndexReader`: `<documents>` holding only `<document/>`
/// elements, each described by attributes alone. It stops at the first thing it refuses.
///
/// Refused, besides what `IndexShape` refuses: any other element (a different root, an unknown child
/// of `<documents>`, anything inside `<document>`), non-whitespace text or CDATA anywhere (a stray
/// value is a mistake, never data), processing instructions, and declarations. Comments are allowed.
/// Names are plain: a prefixed `x:documents` is just an unknown element.
final class XMLIndexDelegate: NSObject, XMLParserDelegate {
    private(set) var index = RawDocumentIndex()
    private(set) var problem: DocumentIndexError?
    private(set) var sawRootEnd = false
    /// Set by any error libxml2 reports, including those it then recovers from.
    private(set) var sawParseError = false

    /// Every open element, checked against each end tag: XMLParser on Linux recovers from
    /// mismatched tags without reporting them. At most two deep: `<documents>` › `<document>`.
    private(set) var open: [String] = []

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard problem == nil else { return }
        switch open.count {
        case 0:
            guard !sawRootEnd else { return fail(parser, "content after the root element") }
            guard elementName == "documents" else {
                return fail(parser, "the root element is <\(ByteText.excerpt(elementName))>, not <documents>")
            }
            startRoot(parser, attributes: attributes)
        case 1:
            guard elementName == "document" else {
                return fail(parser, "unknown element <\(ByteText.excerpt(elementName))> inside <documents>")
            }
            startDocument(parser, attributes: attributes)
        default:
            return fail(parser, "element <\(ByteText.excerpt(elementName))> inside <document>, which takes attributes only")
        }
        open.append(elementName)
    }

    private func startRoot(_ parser: XMLParser, attributes: [String: String]) {
        index.version = attributes["version"]
        do throws(DocumentIndexError) {
            try IndexShape.checkVersion(index.version)
            // Sorted so that, of several unknown attributes, the same one is always named.
            if let unknown = attributes.keys.sorted().first(where: { !IndexShape.indexFields.contains($0) }) {
                throw .index("unknown attribute '\(ByteText.excerpt(unknown))' on <documents>")
            }
        } catch {
            return refuse(parser, error)
        }
        index.generatedAt = attributes["generated_at"]
    }

    private func startDocument(_ parser: XMLParser, attributes: [String: String]) {
        let position = index.documents.count + 1
        var entry = RawDocumentEntry()
        do throws(DocumentIndexError) {
            try IndexShape.checkCount(position)
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
                guard let field = EntryField(rawValue: key) else {
                    throw IndexShape.unknownField(key, position: position, name: attributes["name"])
                }
                entry[field] = value
            }
        } catch {
            return refuse(parser, error)
        }
        index.documents.append(entry)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard problem == nil else { return }
        guard open.last == elementName else {
            return fail(parser, "end tag </\(ByteText.excerpt(elementName))> does not close the open element")
        }
        open.removeLast()
        if open.isEmpty { sawRootEnd = true }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // XML's own whitespace only (space, tab, CR, LF): indentation between elements.
        guard problem == nil, !string.utf8.allSatisfy(ByteText.isWhitespace) else { return }
        fail(parser, "text content is not part of the index")
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        fail(parser, "CDATA is not part of the index")
    }

    func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
        fail(parser, "processing instructions are refused")
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        sawParseError = true
    }

    // Declarations are screened out before parsing; these catch anything that slipped through.

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, "entity declarations are refused")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, "entity declarations are refused")
    }

    func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?,
                systemID: String?, notationName: String?) {
        fail(parser, "entity declarations are refused")
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        fail(parser, "DTD declarations are refused")
    }

    func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
        fail(parser, "DTD declarations are refused")
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(parser, "entity reference '&\(ByteText.excerpt(name));' is refused (only XML's predefined entities are allowed)")
        return nil
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        refuse(parser, .index("xml: line \(parser.lineNumber): \(message)"))
    }

    /// Keeps the first refusal and stops the parser; later callbacks see `problem` and do nothing.
    private func refuse(_ parser: XMLParser, _ error: DocumentIndexError) {
        guard problem == nil else { return }
        problem = error
        parser.abortParsing()
    }
}
