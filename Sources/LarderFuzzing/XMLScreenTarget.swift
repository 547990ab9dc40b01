import LarderFormats

extension FuzzTarget {
    /// The XML screen, with libxml2 (through `XMLParser`) as the judge: a body the screen passes
    /// holds no NUL, no `<!` but comments and CDATA, no `<?` but a leading declaration, and libxml2 finds no DTD, entity or notation
    /// declaration in it, whatever encoding or spelling tries to hide one.
    static let xmlScreen = FuzzTarget("xml-screen") { input throws(PropertyViolation) in
        do {
            try XMLScreen.check(input)
        } catch {
            return
        }
        try expect(!input.contains(0), "a NUL byte passed the screen")
        var index = input.startIndex
        while let open = input[index...].firstIndex(of: UInt8(ascii: "<")) {
            let rest = input[(open + 1)...]
            if rest.first == UInt8(ascii: "?") {
                try expect(rest.starts(with: Array("?xml".utf8)) && input[..<open].allSatisfy { ByteText.isWhitespace($0) || $0 >= 0x80 },
                           "a processing instruction passed the screen at byte \(open)")
            }
            if rest.first == UInt8(ascii: "!") {
                try expect(rest.starts(with: Array("!--".utf8)) || rest.starts(with: Array("![CDATA[".utf8)),
                           "a declaration passed the screen at byte \(open)")
            }
            index = open + 1
        }
        if input.starts(with: Array("<?xml".utf8)) {
            try expect(input.indices.dropLast().contains { input[$0] == UInt8(ascii: "?") && input[$0 + 1] == UInt8(ascii: ">") },
                       "an XML declaration never closed passed the screen")
        }
        do throws(FormatError) {
            try RefusingXMLDelegate(messagePrefix: "").read(input, processingNamespaces: true)
        } catch {
            try expect(!error.message.contains("declarations are refused"), "libxml2 found what the screen passed: \(error.message)")
        }
    }
}
