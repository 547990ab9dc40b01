public import Foundation
import LarderFormats

/// Reads an upstream rates body (SPEC §5) into rate sets: all or nothing, at least one set or an error.
public enum RatesParser {
    /// Parses `body` as `format` (`.auto` detects it); `fetchedAt` dates the pipe format, which carries no date.
    public static func parse(_ body: [UInt8], format: RatesFormat, fetchedAt: Date) throws(RatesFormatError) -> ParsedRates {
        let resolved = format == .auto ? detectedFormat(of: body) : format
        // An empty 200 answer is the commonest broken upstream; say so plainly instead of "no rates".
        guard ByteText.skipByteOrderMarkAndWhitespace(body) < body.endIndex else {
            throw RatesFormatError("\(resolved.rawValue): empty body")
        }
        let sets: [RateSet]
        switch resolved {
        case .ecb: sets = try ECBParser.parse(body)
        case .json: sets = try JSONRatesParser.parse(body)
        case .pipe, .auto: sets = try PipeParser.parse(body, date: RateDate(containing: fetchedAt))
        case .ecbSDMX, .frankfurter: throw RatesFormatError("\(resolved.rawValue): not read yet")
        }
        // Every parser promises this already; the check keeps the promise of this API in one place.
        guard !sets.isEmpty else { throw RatesFormatError("\(resolved.rawValue): no rates") }
        return ParsedRates(sets: sets, format: resolved)
    }

    /// The format `.auto` reads `body` as: after an optional UTF-8 BOM and whitespace,
    /// `<` means ECB XML, `{` means JSON, anything else the pipe format.
    public static func detectedFormat(of body: [UInt8]) -> RatesFormat {
        let start = ByteText.skipByteOrderMarkAndWhitespace(body)
        guard start < body.endIndex else { return .pipe }
        switch body[start] {
        case UInt8(ascii: "<"): return .ecb
        case UInt8(ascii: "{"): return .json
        default: return .pipe
        }
    }
}
