import LarderTesting
import Testing

@Suite("Sample upstream: header and gzip-bomb faults")
struct FaultExtensionTests {
    @Test func setsHeadersOnAnInjectedStatus() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"/loop","status":302,"headers":{"Location":"/loop"}}"#)
            let response = try await onThread { try TestConnection.fetch(port: port, "/loop") }
            #expect(response.status == 302)
            #expect(response.header("Location") == "/loop")
        }
    }

    @Test func setsHeadersOnAServedFileReplacingItsOwn() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"/rates/rates.txt","headers":{"Content-Type":"text/csv","X-Fault":"yes"},"times":1}"#)
            let response = try await onThread { try TestConnection.fetch(port: port, "/rates/rates.txt") }
            #expect(response.status == 200)
            #expect(response.header("X-Fault") == "yes")
            #expect(response.header("Content-Type") == "text/csv")
            #expect(response.headers.filter { $0.name.lowercased() == "content-type" }.count == 1)
            #expect(response.text.contains("USD|"))
        }
    }

    @Test func listsTheNewFieldsInSnakeCase() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"/b","gzip_bomb_mib":2,"headers":{"X-A":"1"}}"#)
            let listed = try await onThread { try TestConnection.fetch(port: port, "/_control/faults") }
            #expect(listed.text.contains(#""gzip_bomb_mib":2"#))
            #expect(listed.text.contains(#""headers":{"X-A":"1"}"#))
        }
    }

    @Test func servesASmallGzipStreamThatDeclaresHundredsOfMebibytes() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"/bomb","gzip_bomb_mib":300}"#)
            let response = try await onThread { try TestConnection.fetch(port: port, "/bomb") }
            let body = response.body
            #expect(response.status == 200)
            #expect(response.header("Content-Encoding") == "gzip")
            // Magic, deflate, no flags; then the first DEFLATE bits: final block, fixed Huffman.
            #expect(Array(body.prefix(4)) == [0x1f, 0x8b, 8, 0])
            #expect(body.count > 10 && body[10] & 0b111 == 0b011)
            #expect(body.count < 3_000_000, "300 MiB of zeros should take about 2 MB")
            #expect(littleEndian(body.suffix(4)) == UInt32(truncatingIfNeeded: 300 << 20))
        }
    }

    @Test func writesTheCRCOfTheZeros() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"/small","gzip_bomb_mib":1,"times":1}"#)
            let response = try await onThread { try TestConnection.fetch(port: port, "/small") }
            let trailer = Array(response.body.suffix(8))
            #expect(littleEndian(trailer.prefix(4)) == bytewiseCRC32(zeros: 1 << 20))
            #expect(littleEndian(trailer.suffix(4)) == 1 << 20)
        }
    }

    @Test func answersTheBombWithTheFaultsStatusAndType() async throws {
        try await withSampleUpstream { upstream in
            let port = upstream.port
            try await upstream.fault(#"{"path":"/b","gzip_bomb_mib":1,"status":203,"content_type":"application/xml"}"#)
            let response = try await onThread { try TestConnection.fetch(port: port, "/b") }
            #expect(response.status == 203)
            #expect(response.header("Content-Type") == "application/xml")
            #expect(response.header("Content-Encoding") == "gzip")
        }
    }
}

private func littleEndian(_ bytes: some Collection<UInt8>) -> UInt32 {
    bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
}

/// The textbook byte-at-a-time CRC-32, to check the sample upstream's closed-form one.
private func bytewiseCRC32(zeros count: Int) -> UInt32 {
    let table = (0..<256).map { index -> UInt32 in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    var crc: UInt32 = 0xffff_ffff
    for _ in 0..<count {
        crc = table[Int(crc & 0xff)] ^ (crc >> 8)
    }
    return ~crc
}
