import LarderFormats

/// The ECB data API's CSV (`format=csvdata`) for the EXR dataflow: one row per currency and day,
/// columns named by the header (`KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,
/// OBS_VALUE,…` plus attribute columns, in any order). Only daily reference rates against the euro
/// are taken (`FREQ=D`, `CURRENCY_DENOM=EUR`, and `EXR_TYPE=SP00`, `EXR_SUFFIX=A` where those columns
/// exist); other series are skipped. A row whose `OBS_VALUE` is empty or `NaN` is a missing
/// observation and is skipped. Every day becomes one EUR-based set dated and updated at the start
/// of its `TIME_PERIOD`, as for the ECB XML. A header-only body holds no day (an incremental
/// answer with nothing new).
enum ECBSDMXParser {
    static let base = "EUR"
    /// The columns a body must have to be read at all.
    static let required = ["FREQ", "CURRENCY", "CURRENCY_DENOM", "TIME_PERIOD", "OBS_VALUE"]
    /// Series dimensions that, when present, must name the daily spot reference rate.
    static let selectors = ["FREQ": "D", "CURRENCY_DENOM": base, "EXR_TYPE": "SP00", "EXR_SUFFIX": "A"]

    /// The days of the body, oldest first (none for a header-only body), or the reason the whole body is refused.
    static func parse(_ body: [UInt8]) throws(RatesFormatError) -> [RateSet] {
        var reader = Reader()
        do {
            let kept = { (column: Int) in reader.kept.contains(column) }
            try CSVReader.forEachRecord(body, keeping: kept) { (record, line) throws(FormatError) in
                try reader.take(record, line: line)
            }
        } catch {
            throw RatesFormatError("ecb-sdmx: \(error.message)")
        }
        guard reader.columns != nil else { throw RatesFormatError("ecb-sdmx: no header line") }
        var sets: [RateSet] = []
        for (date, collector) in reader.days.sorted(by: { $0.key < $1.key }) {
            sets.append(try collector.rateSet(date: date, base: base, updatedAt: date.startInstant))
        }
        return sets
    }

    /// The header's columns, then the rows gathered by day.
    private struct Reader {
        var columns: [String: Int]?
        /// The columns read: the required ones and the series selectors; the attributes are skipped.
        var kept: Set<Int> = []
        var selectorColumns: [(index: Int, value: String)] = []
        var days: [RateDate: RateCollector] = [:]

        mutating func take(_ record: [String], line: Int) throws(FormatError) {
            guard let columns else { return try readHeader(record) }
            // The header was read, so every required column has an index and the record its width.
            let field = { (name: String) in record[columns[name] ?? 0] }
            guard selectorColumns.allSatisfy({ record[$0.index] == $0.value }) else { return }
            let value = field("OBS_VALUE")
            if value.isEmpty || value == "NaN" { return }
            let period = field("TIME_PERIOD")
            guard let date = RateDate(period) else {
                throw FormatError("line \(line): TIME_PERIOD '\(ByteText.excerpt(period))' is not a YYYY-MM-DD day")
            }
            var collector = days[date] ?? RateCollector(format: "ecb-sdmx", context: date.description)
            do throws(RatesFormatError) {
                try collector.add(code: field("CURRENCY"), rate: value)
            } catch {
                // The collector's message already starts with the format; keep only the problem.
                throw FormatError("line \(line): " + error.message.dropFirst("ecb-sdmx: ".count))
            }
            days[date] = collector
        }

        private mutating func readHeader(_ names: [String]) throws(FormatError) {
            var indices: [String: Int] = [:]
            for (index, name) in names.enumerated() {
                guard indices.updateValue(index, forKey: name) == nil else {
                    throw FormatError("line 1: the column \(ByteText.excerpt(name)) appears twice")
                }
            }
            let missing = ECBSDMXParser.required.filter { indices[$0] == nil }
            guard missing.isEmpty else {
                throw FormatError("the header lacks \(missing.joined(separator: ", ")) (not the ECB's csvdata?)")
            }
            selectorColumns = ECBSDMXParser.selectors.sorted { $0.key < $1.key }.compactMap { name, value in
                indices[name].map { (index: $0, value: value) }
            }
            columns = indices
            kept = Set((ECBSDMXParser.required + ECBSDMXParser.selectors.keys).compactMap { indices[$0] })
        }
    }
}
