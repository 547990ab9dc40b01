import LarderRates

/// `rows.csv` of the Frankfurter set read byte by byte: a full-size set is some 350 MB, which
/// splitting a `String` into lines and fields would take the better part of a minute to read.
enum FrankfurterCSV {
    /// Calls `body` with each row after the header line that has five fields and a valid date, in order.
    static func forEachRow(_ bytes: [UInt8], _ body: (FrankfurterSet.Row) -> Void) {
        bytes.withUnsafeBufferPointer { buffer in
            var lineStart = 0
            var header = true
            while lineStart < buffer.count {
                var lineEnd = lineStart
                while lineEnd < buffer.count, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                if header {
                    header = false
                    continue
                }
                var end = lineEnd
                if end > lineStart, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if let row = row(UnsafeBufferPointer(rebasing: buffer[lineStart..<end])) { body(row) }
            }
        }
    }

    private static func row(_ line: UnsafeBufferPointer<UInt8>) -> FrankfurterSet.Row? {
        var fields: [String] = []
        fields.reserveCapacity(5)
        var fieldStart = 0
        for index in 0...line.count where index == line.count || line[index] == UInt8(ascii: ",") {
            guard fields.count < 5 else { return nil }
            fields.append(String(decoding: UnsafeBufferPointer(rebasing: line[fieldStart..<index]), as: UTF8.self))
            fieldStart = index + 1
        }
        guard fields.count == 5, let date = RateDate(fields[1]) else { return nil }
        return FrankfurterSet.Row(provider: fields[0], date: date, base: fields[2], quote: fields[3], rate: fields[4])
    }
}
