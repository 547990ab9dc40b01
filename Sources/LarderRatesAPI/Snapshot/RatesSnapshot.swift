public import Foundation
import LarderHTTP
public import LarderRates
import LarderServing
import Synchronization

/// Counts the snapshots made (`RatesSnapshot.generation`).
private let snapshotGenerations = Atomic<Int>(0)

/// The stored rates as served: the newest day (with the feed's names) and the whole history, the
/// default answers rendered once, and every other answer rendered on first request and kept until
/// the next change.
public final class RatesSnapshot: Sendable {
    /// The newest day.
    public let set: RateSet
    /// Every stored day, the newest included.
    public let history: RatesHistory
    /// The default `/rates` (and `/latest`) answer.
    let latest: PreparedAnswer
    let currencies: PreparedAnswer
    public let storedAt: Date
    let answers = AnswerCache()
    /// What Frankfurter v2's routes derive from this snapshot, built on first use.
    let v2: V2SnapshotState
    /// Unique to this snapshot in the process: what a reader keeps to tell a later snapshot from
    /// this one without keeping this one (and its answers) alive.
    public let generation = snapshotGenerations.add(1, ordering: .relaxed).newValue

    /// A Frankfurter v2 mirror's rows, which v2 answers from when present (else the history, as the ECB's).
    public let mirror: V2Mirror?

    public init(latest set: RateSet, storedAt: Date, history: RatesHistory, mirror: V2Mirror? = nil) {
        self.set = set
        self.storedAt = storedAt
        self.history = history
        self.mirror = mirror
        v2 = mirror.map(V2SnapshotState.init)
            ?? V2SnapshotState(history, provider: "ECB")
        latest = PreparedAnswer(Representation(bytes: RatesJSON.rates(for: set), lastModified: storedAt))
        currencies = PreparedAnswer(Representation(bytes: RatesJSON.currencies(for: set), lastModified: storedAt))
    }

    /// The decoded query items as one string after `prefix`: equal items give equal answers. The
    /// separators are control characters, which decoded names and values never hold, so no two
    /// queries share a key. Written once at its size (on every cross-rates request): appended piece
    /// by piece, a key past 15 bytes was reallocated as it grew.
    static func queryKey(_ query: QueryItems, after prefix: String = "") -> String {
        var count = prefix.utf8.count
        for item in query { count += item.name.utf8.count + item.value.utf8.count + 2 }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            func put(_ text: String) {
                // One copy of the string's contiguous bytes: a byte-by-byte walk cost ~30 instructions a byte.
                var text = text
                text.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[index..<index + bytes.count]).update(fromContentsOf: bytes)
                    index += bytes.count
                }
            }
            func put(_ byte: UInt8) {
                buffer[index] = byte
                index += 1
            }
            put(prefix)
            for item in query {
                put(item.name)
                put(1)
                put(item.value)
                put(2)
            }
            return index
        }
    }
}
