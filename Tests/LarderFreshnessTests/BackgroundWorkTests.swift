import LarderFreshness
import LarderTesting
import Synchronization
import Testing

/// Background work as a graceful stop sees it: jobs run as children of `run()`, which returns only
/// once they ended; none starts after `stop()`; cancelling `run()` cancels them.
@Suite("Background work")
struct BackgroundWorkTests {
    @Test func runEndsAfterStopOnceTheRunningJobsEnded() async throws {
        let work = BackgroundWork()
        let gate = Gate()
        let finished = Atomic<Int>(0)
        // Submitted before `run()`: waits for it.
        #expect(work.submit {
            await gate.wait()
            finished.add(1, ordering: .relaxed)
        })
        let ran = Atomic<Bool>(false)
        let runner = Task {
            await work.run()
            ran.store(true, ordering: .releasing)
        }
        #expect(try await eventually { gate.calls.load(ordering: .relaxed) == 1 })
        work.stop()
        #expect(!work.submit { finished.add(10, ordering: .relaxed) }, "no job starts after the stop")
        let ranEarly = ran.load(ordering: .acquiring)
        #expect(!ranEarly, "a job still runs")
        gate.open()
        await runner.value
        #expect(finished.load(ordering: .relaxed) == 1)
    }

    @Test func cancellingRunCancelsTheJobs() async throws {
        let work = BackgroundWork()
        let started = Atomic<Bool>(false)
        let cancelled = Atomic<Bool>(false)
        work.submit {
            started.store(true, ordering: .releasing)
            // Far past the test's limits: only the cancellation ends it.
            try? await Task.sleep(for: .seconds(600))
            cancelled.store(Task.isCancelled, ordering: .releasing)
        }
        let runner = Task { await work.run() }
        #expect(try await eventually { started.load(ordering: .acquiring) })
        runner.cancel()
        await runner.value
        let wasCancelled = cancelled.load(ordering: .acquiring)
        #expect(wasCancelled)
    }
}
