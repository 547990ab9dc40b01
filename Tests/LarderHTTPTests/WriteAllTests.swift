import Foundation
import LarderHTTP
import Testing

/// `WriteAll.write` puts every byte where it was asked, and says why when it cannot.
@Suite("Writing a whole buffer to a descriptor")
struct WriteAllTests {
    static let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    @Test func writesEveryByteAtTheEndOrAtAnOffset() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("larder-writeall-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor); unlink(path) }
        #expect(Self.bytes.withUnsafeBytes { WriteAll.write($0, to: descriptor) } == nil)
        #expect(Self.bytes.prefix(10).withUnsafeBytes { WriteAll.write($0, to: descriptor) } == nil)
        // At an offset: the bytes there are replaced, the file's position and the rest stay.
        let patch: [UInt8] = [1, 2, 3, 4]
        #expect(patch.withUnsafeBytes { WriteAll.write($0, to: descriptor, at: 100) } == nil)
        let read = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var expected = Self.bytes + Self.bytes.prefix(10)
        expected.replaceSubrange(100..<104, with: patch)
        #expect(read == expected)
    }

    @Test func aFullDeviceOrAReadOnlyDescriptorIsAnError() throws {
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        #expect(Self.bytes.withUnsafeBytes { WriteAll.write($0, to: full) } == ENOSPC)
        let readOnly = open("/dev/null", O_RDONLY)
        try #require(readOnly >= 0)
        defer { close(readOnly) }
        let code = Self.bytes.withUnsafeBytes { WriteAll.write($0, to: readOnly) }
        #expect(code == EBADF)
        #expect(WriteAll.reason(EBADF) == String(cString: strerror(EBADF)))
    }
}
