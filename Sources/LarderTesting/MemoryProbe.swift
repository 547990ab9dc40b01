import Foundation
import Synchronization

/// The peak resident memory of this process while some work runs, above what it was before.
///
/// Resets the kernel's high-water mark (`VmHWM`) where allowed and also samples `VmRSS` every few
/// milliseconds, taking the larger of the two, so a short spike is seen either way.
public enum MemoryProbe {
    public static func peakGrowth<T>(during work: () async throws -> T) async rethrows -> (result: T, bytes: Int) {
        let baseline = read("VmRSS")
        let highWaterReset = resetHighWaterMark()
        let sampling = Sampling(baseline)
        Thread {
            while !sampling.done.load(ordering: .relaxed) {
                let now = read("VmRSS")
                if now > sampling.peak.load(ordering: .relaxed) { sampling.peak.store(now, ordering: .relaxed) }
                usleep(2_000)
            }
        }.start()
        let result = try await work()
        sampling.done.store(true, ordering: .relaxed)
        let peak = max(sampling.peak.load(ordering: .relaxed), highWaterReset ? read("VmHWM") : 0)
        return (result, max(0, peak - baseline))
    }

    private final class Sampling: Sendable {
        let peak: Atomic<Int>
        let done = Atomic<Bool>(false)
        init(_ baseline: Int) { peak = Atomic(baseline) }
    }

    /// Writing 5 to `clear_refs` resets `VmHWM` to the current RSS (Linux 4.0 and later).
    private static func resetHighWaterMark() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// A `/proc/self/status` field in bytes.
    public static func read(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }
}
