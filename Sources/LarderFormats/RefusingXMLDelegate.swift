public import Foundation
#if canImport(FoundationXML)
public import FoundationXML
#endif

/// The `XMLParser` delegate every XML reader builds on: it screens the body, refuses what no format
/// here allows, and keeps the first refusal, stopping the parser there.
///
/// Refused in every format: whatever `XMLScreen` refuses, then (should any slip past it) entity and
/// DTD declarations and references to entities other than XML's predefined ones; and any error
/// libxml2 reports, even one it recovers from. A subclass adds its format's rules by overriding the
/// element and text callbacks, which do nothing here. They are declared here, not left to the
/// protocol's defaults, because on Linux XMLParser would otherwise never call a subclass's version.
open class RefusingXMLDelegate: NSObject, XMLParserDelegate {
    /// Put before every message, as the format's errors begin (`ecb: `).
    private let prefix: String
    /// The first refusal, whole (`ecb: line 3: entity declarations are refused`).
    private var refusal: String?
    /// Set by any error libxml2 reports, including those it then recovers from.
    private var sawParseError = false

    /// `messagePrefix` starts every message this delegate makes (`ecb: `, `index: xml: `).
    public init(messagePrefix: String) {
        prefix = messagePrefix
        super.init()
    }

    /// Whether the document was refused: the parser has stopped, and later callbacks should do nothing.
    public final var isRefused: Bool { refusal != nil }

    /// Screens `body`, then parses it with this delegate; throws the first refusal, else what made the
    /// XML malformed. Whether the document was complete (its root element closed) is the caller's
    /// to check: libxml2 through XMLParser reports success for a document cut short.
    public final func read(_ body: [UInt8], processingNamespaces: Bool) throws(FormatError) {
        do {
            try XMLScreen.check(body)
        } catch {
            throw FormatError(prefix + error.message)
        }
        let parser = XMLParser(data: Data(body))
        parser.shouldProcessNamespaces = processingNamespaces
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        let finished = parser.parse()
        // The delegate's own refusal is the most precise message; it also aborted the parser.
        if let refusal { throw FormatError(refusal) }
        // XMLParser's answer alone proves nothing: on Linux it recovers from errors (mismatched tags
        // among them) and still reports success, so an error seen on the way counts as well.
        if !finished || parser.parserError != nil || sawParseError {
            // On Linux the error carries only libxml2's number, not its text; the position helps more.
            let code = parser.parserError.map { " \(($0 as NSError).code)" } ?? ""
            throw FormatError(
                "\(prefix)line \(parser.lineNumber), column \(parser.columnNumber): malformed XML (XMLParser error\(code))")
        }
    }

    /// Refuses the document at the parser's current line.
    public final func fail(_ parser: XMLParser, _ message: String) {
        refuse(parser, message: "\(prefix)line \(parser.lineNumber): \(message)")
    }

    /// Keeps the first refusal, a whole message (prefix included), and stops the parser.
    public final func refuse(_ parser: XMLParser, message: String) {
        guard refusal == nil else { return }
        refusal = message
        parser.abortParsing()
    }

    // MARK: - The format's own rules: nothing here

    open func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                     qualifiedName: String?, attributes: [String: String] = [:]) {}

    open func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {}

    open func parser(_ parser: XMLParser, foundCharacters string: String) {}

    open func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {}

    open func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {}

    // MARK: - Refused in every format

    public final func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        sawParseError = true
        // The first error refuses the document: nothing after it is read, and Foundation's XMLParser
        // leaks each error it reports (Fuzz/lsan.supp), so stopping here bounds that per body.
        parser.abortParsing()
    }

    // Declarations are screened out before parsing; these catch anything that slipped through.

    public final func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, "entity declarations are refused")
    }

    public final func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?,
                             systemID: String?) {
        fail(parser, "entity declarations are refused")
    }

    public final func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?,
                             systemID: String?, notationName: String?) {
        fail(parser, "entity declarations are refused")
    }

    public final func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        fail(parser, "DTD declarations are refused")
    }

    public final func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?,
                             systemID: String?) {
        fail(parser, "DTD declarations are refused")
    }

    public final func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(parser, "entity reference '&\(ByteText.excerpt(name));' is refused (only XML's predefined entities are allowed)")
        return nil
    }
}
