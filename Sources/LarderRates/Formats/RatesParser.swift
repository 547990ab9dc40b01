public import Foundation
import LarderFormats

/// Reads an upstream rates body (SPEC §5) into rate sets: all or nothing, at least one set or an error.
public enum RatesParser {
    /// Parses `body` as `format` (`.auto` detects it); `fetchedAt` dates the pipe format, which carries no date.
    /// `allowingNoDays` accepts a well-formed answer holding no day (an incremental request's
    /// "nothing changed"), giving empty `sets`; otherwise that is refused as "no rates".
    public static func parse(
        _ body: [UInt8], format: RatesFormat, fetchedAt: Date, allowingNoDays: Bool = false
    ) throws(RatesFormatError) -> ParsedRates {
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
        case .ecbSDMX: sets = try ECBSDMXParser.parse(body)
        case .frankfurter: sets = try FrankfurterParser.parse(body)
        }
        // Every parser but the two ranged ones promises this already; the check keeps the promise of this API in one place.
        guard !sets.isEmpty || allowingNoDays else { throw RatesFormatError("\(resolved.rawValue): no rates") }
        return ParsedRates(sets: sets, format: resolved)
    }

    /// The format `.auto` reads `body` as: after an optional UTF-8 BOM and whitespace,
    /// `<` means ECB XML; `{` means JSON, Frankfurter's time series when it has a top-level
    /// `start_date` or `end_date`; a first line starting `KEY,` or `FREQ,` the ECB data API's CSV;
    /// anything else the pipe format.
    public static func detectedFormat(of body: [UInt8]) -> RatesFormat {
        let start = ByteText.skipByteOrderMarkAndWhitespace(body)
        guard start < body.endIndex else { return .pipe }
        switch body[start] {
        case UInt8(ascii: "<"): return .ecb
        case UInt8(ascii: "{"): return isTimeSeries(body) ? .frankfurter : .json
        default:
            let head = body[start...].prefix(5)
            return head.starts(with: Array("KEY,".utf8)) || head.starts(with: Array("FREQ,".utf8)) ? .ecbSDMX : .pipe
        }
    }

    /// A JSON object with a top-level `start_date` or `end_date` (a body that does not read is left
    /// to the JSON parser, whose message names the problem).
    private static func isTimeSeries(_ body: [UInt8]) -> Bool {
        guard case .object(let fields)? = try? JSONReader.read(body) else { return false }
        return fields["start_date"] != nil || fields["end_date"] != nil
    }
}
