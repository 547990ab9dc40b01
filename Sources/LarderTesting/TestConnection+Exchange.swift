/// What a server did with bytes sent to it at once (see `TestConnection.exchange`).
public struct RawExchange: Sendable {
    /// The first answer; nil when the server closed without one.
    public let answer: TestResponse?
    /// Whether the server closed the connection after it (within the read timeout).
    public let closed: Bool
    /// An answer after the first: a request the server should never have seen, when the bytes hid one.
    public let more: TestResponse?
}

extension TestConnection {
    /// Sends `bytes` on a fresh connection and records the answer, the close, and anything after.
    /// A server that keeps the connection open costs `timeout` before `closed` is false.
    public static func exchange(port: Int, _ bytes: [UInt8], timeout: Duration = .seconds(3)) throws -> RawExchange {
        let connection = try TestConnection(port: port, timeout: timeout)
        // A server may close mid-send (a head past its memory): what it answered is still read below.
        try? connection.send(bytes)
        let answer = try? connection.readResponse()
        let closed = connection.waitForClose()
        // What came before the close stays buffered, so a second answer is still read here.
        let more = try? connection.readResponse()
        return RawExchange(answer: answer, closed: closed, more: more)
    }
}
