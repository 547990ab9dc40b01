import Crypto
import LarderFormats
import LarderHTTP
import Synchronization

/// Writes a download to its temporary file while hashing it, so the bytes are read once and never held in memory.
final class HashingFileSink: Sendable {
    private struct State {
        var hasher = SHA256()
        var count = 0
    }

    let descriptor: Int32
    private let state = Mutex(State())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ chunk: [UInt8]) throws {
        if let code = chunk.withUnsafeBytes({ WriteAll.write($0, to: descriptor) }) {
            throw MirrorError("cannot write a download: \(WriteAll.reason(code))")
        }
        state.withLock { state in
            state.hasher.update(data: chunk)
            state.count += chunk.count
        }
    }

    /// The byte count and the lowercase hex SHA-256 of everything written.
    func finish() -> (count: Int, sha256: String) {
        state.withLock { state in
            let digest = state.hasher.finalize()
            return (state.count, Hex.string(digest))
        }
    }
}
