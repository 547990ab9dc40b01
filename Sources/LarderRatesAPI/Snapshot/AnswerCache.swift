import LarderHTTP
import LarderServing
import Synchronization

/// Answers of one snapshot rendered once per distinct request (a conversion, a past day, a range)
/// and kept until the data changes; bounded by count and by bytes, so a client inventing queries
/// costs rendering time, not memory.
final class AnswerCache: Sendable {
    static let countLimit = 512
    static let byteLimit = 32 * 1024 * 1024

    private struct Kept {
        var answers: [String: PreparedAnswer] = [:]
        var bytes = 0
    }

    private let kept = Mutex(Kept())

    func answer(_ key: String) -> PreparedAnswer? {
        kept.withLock { $0.answers[key] }
    }

    /// Keeps `answer` for `key` while there is room (the first one kept wins a race); returns the one kept.
    func keep(_ key: String, _ answer: PreparedAnswer) -> PreparedAnswer {
        let size = answer.representation.body.count
        return kept.withLock { kept in
            if let first = kept.answers[key] { return first }
            if kept.answers.count < Self.countLimit, kept.bytes + size <= Self.byteLimit {
                kept.answers[key] = answer
                kept.bytes += size
            }
            return answer
        }
    }
}
