import LarderFormats

/// The European Central Bank reference rates XML (`eurofxref-daily.xml`, `-hist-90d.xml`, `-hist.xml`):
/// every `<Cube time=…>` day becomes one EUR-based set, dated and updated at the start of that day.
enum ECBParser {
    static let envelopeNamespace = "http://www.gesmes.org/xml/2002-08-01"
    static let cubeNamespace = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"
    static let base = "EUR"

    /// All the days of the document, or the reason the whole body is refused.
    static func parse(_ body: [UInt8]) throws(RatesFormatError) -> [RateSet] {
        let reader = ECBDocumentReader()
        do {
            try reader.read(body, processingNamespaces: true)
        } catch {
            throw RatesFormatError(error.message)
        }
        // libxml2 through XMLParser reports success for a document cut short, so completeness is
        // proven only by having seen the root element close.
        guard reader.sawEnvelopeEnd else {
            throw RatesFormatError("ecb: the document ends before </gesmes:Envelope> (truncated?)")
        }
        guard !reader.days.isEmpty else { throw RatesFormatError("ecb: no day of rates (no <Cube time=…>)") }
        return reader.days
    }
}
