/// Builds ECB eurofxref documents for tests: `ECB.document([("2026-11-20", ECB.rates)])`.
public enum ECB {
    public static let rates = [("USD", "1.0862"), ("JPY", "162.41"), ("GBP", "0.84370"), ("CHF", "0.9400"), ("HUF", "310.70")]

    public static func document(_ days: [(String, [(String, String)])]) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <gesmes:subject>Reference rates</gesmes:subject>
            <Cube>

            """
        for (date, rates) in days {
            xml += "<Cube time='\(date)'>\n"
            for (code, rate) in rates { xml += "<Cube currency='\(code)' rate='\(rate)'/>\n" }
            xml += "</Cube>\n"
        }
        return xml + "</Cube>\n</gesmes:Envelope>\n"
    }
}
