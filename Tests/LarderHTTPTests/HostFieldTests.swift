@testable import LarderHTTP
import Testing

/// The one-pass reading of a `Host` value that both the 400 (not a host) and the allowlist use.
@Suite("Host field: RFC 3986 host [\":\" port] in one pass")
struct HostFieldTests {
    /// `value` read: nil when it is no host, else where its name ends and its port.
    private static func read(_ value: String) -> (nameEnd: Int, port: Int?)? {
        var bytes = Array(value.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            HostField(UnsafeBufferPointer(buffer)).map { ($0.nameEnd, $0.port) }
        }
    }

    @Test(arguments: [
        ("", 0, nil), ("localhost", 9, nil), ("127.0.0.1:8080", 9, 8080), ("a.example.:80", 10, 80),
        ("[::1]", 5, nil), ("[::1]:443", 5, 443), ("[fd00::7]:0", 9, 0), ("a%41:65535", 4, 65535),
        // An empty, too long or too large port is a host still, with a port no rule names.
        ("a:", 1, -1), ("a:65536", 1, -1), ("a:123456", 1, -1), ("a:99999999999999999999999", 1, -1),
    ] as [(String, Int, Int?)])
    func readsAHostAndItsPort(value: String, nameEnd: Int, port: Int?) throws {
        let read = try #require(Self.read(value), "\(value)")
        #expect(read.nameEnd == nameEnd && read.port == port, "\(value): \(read)")
    }

    @Test(arguments: ["a b", "a/b", "a:8o", "[]", "[::1", "[::1]x", "[::1]:x", "a@b", "a:1:2", "[a]b]", "é.example", "[::g/]"])
    func refusesWhatIsNoHost(value: String) {
        #expect(Self.read(value) == nil, "\(value)")
    }
}

extension HostFieldTests {
    @Test func theRegNameMasksHoldExactlyRFC3986sBytes() {
        // unreserved, "%" (of pct-encoded), sub-delims.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=".utf8)
        for byte in UInt8(0)...UInt8(127) {
            let mask = byte < 64 ? HostField.lowBytes >> UInt64(byte) : HostField.highBytes >> UInt64(byte - 64)
            #expect((mask & 1 != 0) == allowed.contains(byte), "byte \(byte)")
        }
    }
}
