import Foundation
import LarderRates

/// Writes days of rates as the ECB data API's `format=csvdata` answer for `EXR/D..EUR.SP00.A`:
/// its header, then one row per currency and day, series by series (currency, then day), with the
/// attribute columns the ECB fills for a reference rate.
enum SDMXCSV {
    static let header = "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE,OBS_STATUS,OBS_CONF,"
        + "OBS_PRE_BREAK,OBS_COM,TIME_FORMAT,BREAKS,COLLECTION,COMPILING_ORG,DISS_ORG,DOM_SER_IDS,PUBL_ECB,PUBL_MU,"
        + "PUBL_PUBLIC,UNIT_INDEX_BASE,COMPILATION,COVERAGE,DECIMALS,NAT_TITLE,SOURCE_AGENCY,SOURCE_PUB,TITLE,TITLE_COMPL,UNIT,UNIT_MULT"

    static func write(_ days: [(RateDate, [String: String])]) -> [UInt8] {
        var rows: [(String, RateDate, String)] = []
        for (date, rates) in days {
            for (code, value) in rates { rows.append((code, date, value)) }
        }
        rows.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var out = header + "\r\n"
        for (code, date, value) in rows {
            let decimals = value.split(separator: ".").dropFirst().first?.count ?? 0
            out += "EXR.D.\(code).EUR.SP00.A,D,\(code),EUR,SP00,A,\(date),\(value),A,F,,,P1D,,A,,,,,,,,,,\(decimals),,4F0,,"
                + "\(code)/Euro,\"ECB reference exchange rate, \(code)/Euro, 2:15 pm (C.E.T.)\",\(code),0\r\n"
        }
        return Array(out.utf8)
    }
}
