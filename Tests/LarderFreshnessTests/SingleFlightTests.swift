import Foundation
import LarderFreshness
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
        let results = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<200 {
                group.addTask { await flight.run("rates") { await gate.wait(); return 42 } }
            }
            while !flight.isRunning("rates") { await Task.yield() }
            try? await Task.sleep(for: .milliseconds(50))
            gate.open()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 200)
        #expect(results.allSatisfy { $0 == 42 })
        #expect(gate.calls.load(ordering: .relaxed) == 1)
        #expect(!flight.isRunning("rates"))
    }

    @Test func aCancelledWaiterLeavesTheRunGoing() async {
        let flight = SingleFlight<Int, String>()
        let gate = Gate()
        let waiter = Task { await flight.run(1) { await gate.wait(); return "done" } }
        while !flight.isRunning(1) { await Task.yield() }
        waiter.cancel()
        #expect(await waiter.value == nil)
        #expect(flight.isRunning(1))
        let second = Task { await flight.run(1) { "a second run must not start" } }
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
        let first = Task { await flight.run(1) { await gate.wait(); return 3 } }
        while !flight.isRunning(1) { await Task.yield() }
        let joined = Task { await flight.run(1, startIf: { false }) { 4 } }
        try? await Task.sleep(for: .milliseconds(20))
        gate.open()
        #expect(await first.value == 3)
        #expect(await joined.value == 3, "a run in flight is joined whatever startIf says")
    }
}
