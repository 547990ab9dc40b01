import LarderHTTP
import LarderRates
import Synchronization

/// A long range's answer written chunk by chunk as the socket drains, so the whole history streams
/// in memory flat in its size (one chunk's bytes at a time, never the whole body).
final class V2RatesStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var sent = 0
        var chunk = 0
        var walk = V2RatesPlan.Walk()
        var records = 0
        var finished = false
    }

    private let plan: V2RatesPlan
    private let chunks: [ClosedRange<Int>]
    private let format: V2RatesFormat
    private let v2: V2SnapshotState
    private let state = Mutex(State())

    init(plan: V2RatesPlan, format: V2RatesFormat, v2: V2SnapshotState) {
        self.plan = plan
        chunks = plan.chunks
        self.format = format
        self.v2 = v2
        state.withLock { $0.pending = Array(format.head(range: true, expanded: plan.expandProviders, empty: false).utf8) }
    }

    var body: StreamBody {
        StreamBody(length: nil) { [self] _, buffer in read(into: buffer) }
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamBody.Step {
        state.withLock { state in
            while state.sent == state.pending.count {
                if state.finished { return .end }
                state.pending.removeAll(keepingCapacity: true)
                state.sent = 0
                if state.chunk < chunks.count {
                    let chunk = chunks[state.chunk]
                    state.chunk += 1
                    var out: [UInt8] = []
                    var count = state.records
                    plan.each(chunk, v2.sources, walk: &state.walk) { record in
                        format.append(record, index: count, expanded: plan.expandProviders, into: &out)
                        count += 1
                    }
                    state.records = count
                    state.pending = out
                } else {
                    state.pending = Array(format.tail.utf8)
                    state.finished = true
                }
            }
            let count = min(buffer.count, state.pending.count - state.sent)
            state.pending.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + state.sent, byteCount: count)
            }
            state.sent += count
            return .wrote(count)
        }
    }
}
