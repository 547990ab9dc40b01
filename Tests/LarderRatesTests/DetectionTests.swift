import Foundation
import LarderRates
import Testing

@Suite("Format detection and payloads no format accepts")
struct DetectionTests {
    @Test(arguments: [
        (ECB.valid, RatesFormat.ecb),
        ("\u{FEFF}\n  " + ECB.valid, .ecb),
        (JSONBody.frankfurter(), .json),
        ("\u{FEFF} \r\n\t" + JSONBody.frankfurter(), .json),
        ("USD|US dollar|1.0862\n", .pipe),
        ("\n\nUSD|US dollar|1.0862\n", .pipe),
        ("", .pipe),
        (#""EUR""#, .pipe),
        ("[1]", .pipe),
    ])
    func detects(body: String, format: RatesFormat) {
        #expect(RatesParser.detectedFormat(of: Array(body.utf8)) == format)
    }

    @Test(arguments: [
        (ECB.valid, "ecb"), (JSONBody.frankfurter(), "json"), ("USD|US dollar|1.0862\nJPY|Japanese yen|162.41\n", "pipe"),
    ])
    func autoParsesEachFormat(body: String, name: String) throws {
        let automatic = try parse(body, as: .auto)
        let explicit = try parse(body, as: try #require(RatesFormat(rawValue: name)))
        #expect(automatic.sets == explicit.sets)
        #expect(automatic.latest?.text(of: "USD") == "1.0862")
    }

    static let hostile: [(String, [UInt8])] = [
        ("HTML error page", Array("<!DOCTYPE html>\n<html><head><title>Error</title></head><body>Rate limited</body></html>\n".utf8)),
        ("HTML without doctype", Array("<html><body>Maintenance</body></html>".utf8)),
        ("empty", []),
        ("BOM only", [0xEF, 0xBB, 0xBF]),
        ("whitespace", Array(" \r\n\t ".utf8)),
        ("NUL bytes", [0, 0, 0, 0]),
        ("NUL-padded pipe", Array("USD|US dollar|1.0862\n".utf8) + [0]),
        ("invalid UTF-8", [0xFF, 0xFE, 0xFD]),
        ("UTF-16 XML", Array("<?xml version=\"1.0\"?>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
        ("bare JSON string", Array(#""rates""#.utf8)),
        ("bare JSON array", Array(#"[{"USD":1.1}]"#.utf8)),
    ]

    @Test(arguments: hostile, [RatesFormat.auto, .ecb, .json, .pipe])
    func refusesInEveryFormat(payload: (name: String, body: [UInt8]), format: RatesFormat) {
        #expect(refusal(payload.body, as: format) != nil, "\(payload.name) accepted as \(format)")
    }

    @Test func emptyBodyIsNamed() {
        #expect(refusal("", as: .auto) == "pipe: empty body")
        #expect(refusal("\u{FEFF}\n", as: .json) == "json: empty body")
    }
}
