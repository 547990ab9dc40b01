/// A strict RFC 4180 reader over raw bytes: comma-separated fields, records ending in CRLF or LF,
/// fields in double quotes may hold commas, line breaks and doubled quotes. Refuses invalid UTF-8,
/// a quote inside an unquoted field, text after a closing quote, an unterminated quote, and a record
/// whose field count differs from the header's. Blank lines are skipped.
public enum CSVReader {
    /// Hands each record (the header first) to `visit` with the line it starts on, one at a time so
    /// a long history never sits in memory as strings; stops at the first thing refused. A field
    /// whose column `keeping` declines comes as "" (checked, never decoded): a reader that needs
    /// a few of many columns allocates only those.
    public static func forEachRecord(
        _ body: [UInt8], keeping: (_ column: Int) -> Bool = { _ in true },
        _ visit: (_ record: [String], _ line: Int) throws(FormatError) -> Void
    ) throws(FormatError) {
        let start = ByteText.skipByteOrderMark(body)
        guard String(validating: body[start...], as: UTF8.self) != nil else {
            throw FormatError("the body is not valid UTF-8")
        }
        var columns: Int?
        var record: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var index = start
        var quoted = false
        var wasQuoted = false

        func endField() {
            // The header is always whole: its names say which columns a reader keeps.
            let kept = columns == nil || keeping(record.count)
            record.append(kept ? String(decoding: field, as: UTF8.self) : "")
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRecord() throws(FormatError) {
            endField()
            // A line holding nothing at all is blank, not a record of one empty field.
            if !(record.count == 1 && record[0].isEmpty) {
                if let columns, columns != record.count {
                    throw FormatError("line \(recordLine): \(record.count) field(s) where the header has \(columns)")
                }
                columns = record.count
                try visit(record, recordLine)
            }
            record.removeAll(keepingCapacity: true)
        }

        while index < body.endIndex {
            let byte = body[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < body.endIndex, body[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                        wasQuoted = true
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\n"):
                try endRecord()
                line += 1
                recordLine = line
            case UInt8(ascii: "\r"):
                guard index < body.endIndex, body[index] == UInt8(ascii: "\n") else {
                    throw FormatError("line \(line): a carriage return not followed by a line feed")
                }
            case UInt8(ascii: "\""):
                guard field.isEmpty, !wasQuoted else {
                    throw FormatError("line \(line): a double quote inside an unquoted field")
                }
                quoted = true
            default:
                guard !wasQuoted else { throw FormatError("line \(line): text after a closing double quote") }
                field.append(byte)
            }
        }
        guard !quoted else { throw FormatError("line \(recordLine): a quoted field is never closed (truncated?)") }
        if !field.isEmpty || !record.isEmpty || wasQuoted { try endRecord() }
    }
}
