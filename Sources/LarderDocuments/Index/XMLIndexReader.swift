import Foundation
import LarderFormats
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an XML index (`<documents version="1">` of `<document …/>`) with FoundationXML's parser,
/// after `XMLScreen` has refused every DOCTYPE and entity declaration (so billion laughs never parse).
enum XMLIndexReader {
    static func read(_ body: [UInt8]) throws(DocumentIndexError) -> RawDocumentIndex {
        do {
            try XMLScreen.check(body)
        } catch {
            throw .index("xml: \(error.message)")
        }
        let delegate = XMLIndexDelegate()
        let parser = XMLParser(data: Data(body))
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        let finished = parser.parse()
        // The delegate's own refusal is the most precise message; it also aborted the parser.
        if let problem = delegate.problem { throw problem }
        // XMLParser's answer alone proves nothing: on Linux it reports success for a truncated
        // document and recovers from mismatched tags. Completeness needs all four of these.
        if !finished || parser.parserError != nil || delegate.sawParseError {
            // On Linux the error carries only libxml2's number, not its text; the position helps more.
            let code = parser.parserError.map { " \(($0 as NSError).code)" } ?? ""
            throw .index("xml: line \(parser.lineNumber), column \(parser.columnNumber): malformed XML (XMLParser error\(code))")
        }
        guard delegate.sawRootEnd, delegate.open.isEmpty else {
            throw .index("xml: the document ends before </documents> (truncated?)")
        }
        return delegate.index
    }
}
