import Glibc

/// The monotonic clock as plain nanoseconds: what a request's latency needs, read without the
/// `Duration` arithmetic of `ContinuousClock` (two reads per request on the hot path).
enum MonotonicNanoseconds {
    static var now: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
