import Foundation
import LarderFreshness
import Synchronization

/// The whole-pipeline targets' clock: the instant the input chooses, moved only by the target
/// between steps (a first payload stored a while before the second), never by itself.
final class PipelineClock: FreshnessClock {
    private let instant: Mutex<Date>

    init(_ now: Date) {
        instant = Mutex(now)
    }

    var now: Date { instant.withLock { $0 } }

    func set(_ now: Date) {
        instant.withLock { $0 = now }
    }

    /// Time stands still: a wait for a later instant lasts until it is cancelled (a deadline's race
    /// is won by the work it bounds), or a minute, past libFuzzer's timeout, so a hang is reported.
    func sleep(until deadline: Date) async throws {
        if deadline <= now { return }
        try await Task.sleep(for: .seconds(60))
    }
}
