import LarderHTTP
import Testing

@Suite("Accept-Encoding: when gzip is the answer")
struct AcceptEncodingTests {
    @Test("a field value", arguments: [
        ("gzip", true), ("GZIP", true), ("x-gzip", true), ("X-Gzip", true), ("*", true),
        ("gzip, deflate, br, zstd", true), ("deflate, gzip;q=1.0", true), (" gzip ; q=0.5 ", true), ("gzip;Q=0.001", true),
        ("", false), ("identity", false), ("deflate, br", false), ("gzipx", false), ("gzip x", false),
        // A refusal, however spelled, and wherever it comes.
        ("gzip;q=0", false), ("gzip;q=0.000", false), ("gzip;q=0.", false), ("*;q=0", false), ("gzip, gzip;q=0", false),
        ("x-gzip;q=0, gzip", false), ("*, gzip;q=0", false),
        // Identity preferred, or a tie that goes to gzip.
        ("gzip;q=0.5, identity", false), ("gzip;q=0.5, *", false), ("identity;q=0.5, gzip;q=0.5", true),
        ("gzip;q=0.1", true), ("*;q=0.5", true), ("identity;q=0", false), ("identity;q=0, *", true),
        // Malformed weights count as refusals.
        ("gzip;q=2", false), ("gzip;q=1.5", false), ("gzip;q=0.0001", false), ("gzip;", false), ("gzip;level=9", false),
        ("gzip;q = 0.5", false), ("gzip;q=0.5;q=1", true), ("gzip;q=abc, *", false),
        (",, gzip ,", true), ("\tgzip\t", true),
    ])
    func value(_ value: String, _ gzip: Bool) {
        #expect(AcceptEncoding.prefersGzip(value) == gzip)
    }

    @Test func noFieldMeansIdentityAndSeveralFieldsAreOneList() {
        #expect(!AcceptEncoding.prefersGzip(HTTPHeaders()))
        #expect(AcceptEncoding.prefersGzip(["accept-encoding": "gzip"]))
        #expect(!AcceptEncoding.prefersGzip(["Accept-Encoding": ""]))
        let split = HTTPHeaders([(name: "Accept-Encoding", value: "gzip"), (name: "ACCEPT-ENCODING", value: "gzip;q=0")])
        #expect(!AcceptEncoding.prefersGzip(split))
    }
}
