import Foundation
import LarderFreshness
import LarderTesting
import Synchronization
import Testing

/// Counts calls and lets a test hold an operation open until it says so.
final class Gate: Sendable {
    let calls = Atomic<Int>(0)
    private let opened = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let released = Atomic<Bool>(false)

    func wait() async {
        calls.add(1, ordering: .relaxed)
        await withCheckedContinuation { continuation in
            let now = opened.withLock { slot -> Bool in
                if released.load(ordering: .relaxed) { return true }
                slot = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        released.store(true, ordering: .relaxed)
        opened.withLock { $0.take() }?.resume()
    }
}

@Suite("Single flight")
struct SingleFlightTests {
    @Test func concurrentCallersShareOneRun() async {
        let flight = SingleFlight<String, Int>()
        let gate = Gate()
        // Callers take turns on one executor, so once `settle()` returns every one of them has
        // reached the flight: the first started it, the others joined it.
        let inOrder = InOrderExecutor()
        let results = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<200 {
                group.addTask(executorPreference: inOrder) { await flight.run("rates") { await gate.wait(); return 42 } }
            }
            await inOrder.settle()
            #expect(flight.isRunning("rates"))
            gate.open()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 200)
        #expect(results.allSatisfy { $0 == 42 })
        #expect(gate.calls.load(ordering: .relaxed) == 1)
        #expect(!flight.isRunning("rates"))
    }

    @Test func aCancelledWaiterLeavesTheRunGoing() async throws {
        let flight = SingleFlight<Int, String>()
        let gate = Gate()
        let waiter = Task { await flight.run(1) { await gate.wait(); return "done" } }
        #expect(try await eventually { flight.isRunning(1) })
        waiter.cancel()
        #expect(await waiter.value == nil)
        #expect(flight.isRunning(1))
        let inOrder = InOrderExecutor()
        let second = Task(executorPreference: inOrder) { await flight.run(1) { "a second run must not start" } }
        await inOrder.settle()
        gate.open()
        #expect(await second.value == "done")
    }

    @Test func differentKeysRunApart() async {
        let flight = SingleFlight<Int, Int>()
        async let a = flight.run(1) { 1 }
        async let b = flight.run(2) { 2 }
        #expect(await [a, b] == [1, 2])
    }
}

@Suite("Single flight: conditional start")
struct SingleFlightConditionTests {
    @Test func startIfDecidesOnlyWhenNothingIsInFlight() async {
        let flight = SingleFlight<Int, Int>()
        #expect(await flight.run(1, startIf: { false }) { 1 } == nil, "nothing running and told not to start")
        #expect(await flight.run(1, startIf: { true }) { 2 } == 2)
        let gate = Gate()
        // In turns on one executor: after `settle()` the first caller runs and the second has joined it.
        let inOrder = InOrderExecutor()
        let first = Task(executorPreference: inOrder) { await flight.run(1) { await gate.wait(); return 3 } }
        let joined = Task(executorPreference: inOrder) { await flight.run(1, startIf: { false }) { 4 } }
        await inOrder.settle()
        #expect(flight.isRunning(1))
        gate.open()
        #expect(await first.value == 3)
        #expect(await joined.value == 3, "a run in flight is joined whatever startIf says")
    }
}
