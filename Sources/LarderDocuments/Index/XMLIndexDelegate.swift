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
/// Names are plain: a prefixed `x:documents` is just an unknown element. Declarations and entities are
/// refused by `RefusingXMLDelegate`, as for every XML format.
final class XMLIndexDelegate: RefusingXMLDelegate {
    private(set) var index = RawDocumentIndex()
    private(set) var sawRootEnd = false

    /// Every open element, checked against each end tag: XMLParser on Linux recovers from
    /// mismatched tags without reporting them. At most two deep: `<documents>` › `<document>`.
    private(set) var open: [String] = []

    init() {
        super.init(messagePrefix: "index: xml: ")
    }

    override func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                         qualifiedName: String?, attributes: [String: String] = [:]) {
        guard !isRefused else { return }
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

    override func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard !isRefused else { return }
        guard open.last == elementName else {
            return fail(parser, "end tag </\(ByteText.excerpt(elementName))> does not close the open element")
        }
        open.removeLast()
        if open.isEmpty { sawRootEnd = true }
    }

    override func parser(_ parser: XMLParser, foundCharacters string: String) {
        // XML's own whitespace only (space, tab, CR, LF): indentation between elements.
        guard !isRefused, !string.utf8.allSatisfy(ByteText.isWhitespace) else { return }
        fail(parser, "text content is not part of the index")
    }

    override func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        fail(parser, "CDATA is not part of the index")
    }

    override func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
        fail(parser, "processing instructions are refused")
    }

    /// A refusal by the index's rules, whose message is already whole.
    private func refuse(_ parser: XMLParser, _ error: DocumentIndexError) {
        refuse(parser, message: error.message)
    }
}
