import Glibc

/// The `Host` names the server answers (SPEC §2 `--allowed-hosts`, §6): the defence against DNS
/// rebinding, where a page on a name its owner points at 127.0.0.1 would otherwise read a local
/// server as same-origin. Django's `ALLOWED_HOSTS`, Transmission's `rpc-host-whitelist`.
///
/// Built once; `allows` runs on every request and compares bytes, allocating nothing.
public struct HostAllowlist: Sendable, Equatable {
    /// One entry of the list.
    public enum Rule: Sendable, Equatable {
        /// `*`: any Host.
        case any
        /// `ip-literals`: any IPv4 literal or bracketed IPv6 literal, on any port (a rebinding page
        /// is on a name; a page on an IP literal is on the server's own address).
        case ipLiterals
        /// `name`, `name:port`, `[v6]`, `[v6]:port`: exactly that name (lowercase, no trailing dot);
        /// on any port when `port` is nil.
        case name(String, port: Int?)
        /// `.name`, `.name:port`: the name and every name under it.
        case domain(String, port: Int?)
    }

    /// The entries, as given.
    public let rules: [Rule]
    private let allowsAny: Bool
    private let allowsIPLiterals: Bool
    private let names: [Name]

    /// A name rule as bytes, for the hot path.
    private struct Name: Sendable, Equatable {
        let bytes: [UInt8]
        let port: Int?
        let subdomains: Bool

        /// The name, case-insensitively (the rule is lowercase), or, for a domain rule, a name under it.
        func matches(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            if name.count == bytes.count { return Self.equalFolding(name[...], bytes) }
            guard subdomains, name.count > bytes.count,
                  name[name.count - bytes.count - 1] == UInt8(ascii: ".") else { return false }
            return Self.equalFolding(name[(name.count - bytes.count)...], bytes)
        }

        private static func equalFolding(_ given: Slice<UnsafeBufferPointer<UInt8>>, _ lower: [UInt8]) -> Bool {
            var index = lower.startIndex
            for byte in given {
                let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                guard folded == lower[index] else { return false }
                index += 1
            }
            return true
        }
    }

    public init(_ rules: [Rule]) {
        self.rules = rules
        allowsAny = rules.contains(.any)
        allowsIPLiterals = rules.contains(.ipLiterals)
        names = rules.compactMap { rule in
            switch rule {
            case .any, .ipLiterals: nil
            case .name(let name, let port): Name(bytes: Array(name.utf8), port: port, subdomains: false)
            case .domain(let name, let port): Name(bytes: Array(name.utf8), port: port, subdomains: true)
            }
        }
    }

    /// `*`: every Host (the default when bound to an address other than loopback).
    public static let any = HostAllowlist([.any])

    /// `localhost`, `127.0.0.1`, `[::1]` and any IP literal, each on any port: the default on loopback.
    public static let loopback = HostAllowlist([
        .name("localhost", port: nil), .name("127.0.0.1", port: nil), .name("[::1]", port: nil), .ipLiterals,
    ])

    /// Whether a request whose `Host` field is `host`, read as `field`, may be answered.
    /// Case-insensitive; a trailing dot is ignored; an empty Host (no authority) is allowed like a missing one.
    func allows(_ host: UnsafeBufferPointer<UInt8>, _ field: HostField) -> Bool {
        if allowsAny || host.isEmpty { return true }
        // A trailing dot names the same host (`localhost.`); a bracketed literal has none.
        var end = field.nameEnd
        if end > 1, host[end - 1] == UInt8(ascii: ".") { end -= 1 }
        let name = UnsafeBufferPointer(rebasing: host[0..<end])
        // The names first: an exact name is a length check and a few bytes, cheaper than reading a literal.
        // By index into the buffer: iterating the array copied each rule, retaining and releasing its bytes.
        let named = names.withUnsafeBufferPointer { rules in
            rules.contains { ($0.port == nil || $0.port == field.port) && $0.matches(name) }
        }
        return named || allowsIPLiterals && Self.isIPLiteral(name)
    }

    /// A dotted-quad IPv4 address, or a bracketed IPv6 literal (hex digits, colons, an embedded IPv4).
    static func isIPLiteral(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first else { return false }
        if first == UInt8(ascii: "[") {
            guard name.count > 3, name[name.count - 1] == UInt8(ascii: "]") else { return false }
            var colons = 0
            for byte in name[1..<(name.count - 1)] {
                switch byte {
                case UInt8(ascii: ":"): colons += 1
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                     UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "."):
                    continue
                default: return false
                }
            }
            return colons >= 2
        }
        var parts = 0
        var digits = 0
        var value = 0
        for byte in name {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                parts += 1
                (digits, value) = (0, 0)
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 {
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard value <= 255 else { return false }
            } else {
                return false
            }
        }
        return parts == 3 && digits > 0
    }
}
