import LarderFormats

/// Reads an XML index (`<documents version="1">` of `<document …/>`) with FoundationXML's parser,
/// after `XMLScreen` has refused every DOCTYPE and entity declaration (so billion laughs never parse).
enum XMLIndexReader {
    static func read(_ body: [UInt8]) throws(DocumentIndexError) -> RawDocumentIndex {
        let delegate = XMLIndexDelegate()
        do {
            try delegate.read(body, processingNamespaces: false)
        } catch {
            throw DocumentIndexError(error.message)
        }
        // Complete only once the root element has closed: XMLParser on Linux reports success for a
        // truncated document.
        guard delegate.sawRootEnd, delegate.open.isEmpty else {
            throw .index("xml: the document ends before </documents> (truncated?)")
        }
        return delegate.index
    }
}
