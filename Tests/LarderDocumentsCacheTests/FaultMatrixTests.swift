import Foundation
import LarderFreshness
import LarderTesting
import Testing

/// What a fault is aimed at: the rates feed, the documents index, or one document.
enum FaultTarget: String, Sendable, CaseIterable {
    case rates, index, document

    var path: String {
        switch self {
        case .rates: DocumentsFeed.ratesPath
        case .index: DocumentsFeed.indexPath
        case .document: "/docs/a.txt"
        }
    }

    /// The `/metrics` resource label and the `/status` resource of the target.
    var resource: String { self == .rates ? "rates" : self == .index ? "documents" : "document" }
}

/// One misbehaviour of the upstream, as a sample-upstream fault (or a data change) on the target's path.
struct UpstreamFault: Sendable, CustomStringConvertible {
    let name: String
    /// A fault for `PUT /_control/faults`, with `PATH` standing for the target's path; nil for a data change.
    let fault: String?
    /// True when the fault is "older data": accepted as contact, refused as a regression.
    var regression = false
    /// True when nothing listens where the target is fetched from.
    var connectionRefused = false

    var description: String { name }

    static let all: [UpstreamFault] = [
        UpstreamFault(name: "connection refused", fault: nil, connectionRefused: true),
        UpstreamFault(name: "hang longer than the timeout", fault: #"{"path":"PATH","delay_ms":3000}"#),
        UpstreamFault(name: "500", fault: #"{"path":"PATH","status":500}"#),
        UpstreamFault(name: "503", fault: #"{"path":"PATH","status":503}"#),
        UpstreamFault(name: "404", fault: #"{"path":"PATH","status":404}"#),
        UpstreamFault(name: "body cut short of Content-Length", fault: #"{"path":"PATH","truncate_at":3}"#),
        UpstreamFault(name: "body over the cap", fault: #"{"path":"PATH","gzip_bomb_mib":70}"#),
        UpstreamFault(name: "gzip bomb", fault: #"{"path":"PATH","gzip_bomb_mib":600}"#),
        UpstreamFault(name: "redirect loop", fault: #"{"path":"PATH","status":302,"headers":{"Location":"PATH"}}"#),
        UpstreamFault(name: "redirect to file://", fault: #"{"path":"PATH","status":302,"headers":{"Location":"file:///etc/passwd"}}"#),
        UpstreamFault(name: "redirect to ftp://", fault: #"{"path":"PATH","status":301,"headers":{"Location":"ftp://127.0.0.1/x"}}"#),
        UpstreamFault(name: "200 with the wrong shape", fault: #"{"path":"PATH","body":"<html><body>Maintenance</body></html>","content_type":"text/html"}"#),
        UpstreamFault(name: "data older than the cached copy", fault: nil, regression: true),
    ]
}

@Suite("Fault matrix: whatever the upstream does, the cached copy is served unchanged", .serialized)
struct FaultMatrixTests {
    static let cases: [(FaultTarget, UpstreamFault)] = FaultTarget.allCases.flatMap { target in
        UpstreamFault.all.map { (target, $0) }
    }

    @Test(arguments: cases)
    func theCachedCopyIsServedUnchanged(target: FaultTarget, fault: UpstreamFault) async throws {
        try await withDocuments(sampleDocuments, rates: true, upstreamTimeout: .seconds(1)) { larder, upstream in
            try await check(fault, on: target, larder, upstream)
        }
    }

    private func check(_ fault: UpstreamFault, on target: FaultTarget, _ larder: TestLarder, _ upstream: SampleUpstreamControl) async throws {
        #expect(try await larder.waitForSync())
        let before = try await snapshot(larder)

        try await provoke(fault, on: target, upstream)
        larder.clock.advance(by: 101)
        let (refresh, growth) = try await MemoryProbe.peakGrowth {
            try await larder.post(target == .rates ? "/rates/refresh" : "/documents/refresh")
        }
        let started = ContinuousClock.now
        let after = try await snapshot(larder)
        let elapsed = ContinuousClock.now - started
        let status = try await larder.get("/status").json?["resources"] as? [String: [String: Any]]
        let metrics = try await larder.get("/metrics").text
        let requestsBefore = try await upstreamAttempts(on: target, fault, larder, upstream)
        for _ in 0..<5 { _ = try await larder.get(target == .rates ? "/rates" : "/documents/b.txt") }
        let requestsAfter = try await upstreamAttempts(on: target, fault, larder, upstream)

        // A document fault comes with a valid newer index, whose listing may change; the bytes may not.
        let compared = target == .document ? [0, 2] : [0, 1, 2]
        for index in compared {
            #expect(after[index] == before[index], "\(target) / \(fault): cached answer \(index) changed")
        }
        // A bound against waiting on the upstream (its timeouts are 5 s and more), not a speed target: loaded CI machines took 1.08 s.
        #expect(elapsed < .seconds(4), "\(target) / \(fault): three cached answers took \(elapsed)")
        // Bombs inflate to 600 MiB; the caps (64 MiB each by default) bound what is held. Other suites share the process.
        #expect(growth < 300 << 20, "\(target) / \(fault): resident memory grew by \(growth >> 20) MiB")
        if fault.regression {
            #expect(refresh.status == 200)
            // 1, or 2 when the scheduler (woken by the clock) refused it just before the POST.
            let refused = counter(in: metrics, "larder_upstream_regressions_refused_total{resource=\"\(target.resource)\"}")
            #expect((1...2).contains(refused), "\(target): \(refused) regressions refused")
            return
        }
        switch target {
        case .rates, .index:
            let resource = status?[target == .rates ? "rates" : "documents"]
            #expect(refresh.status == 502, "\(target) / \(fault)")
            #expect(resource?["last_error"] is [String: Any], "the error shows in /status")
            // 1, or 2 when the scheduler (woken by the clock) tried just before the POST.
            #expect((resource?["consecutive_failures"] as? Int ?? 0) >= 1)
            #expect(resource?["next_refresh"] is String, "a retry is scheduled (backing off)")
            #expect(requestsAfter == requestsBefore, "requests during the backoff do not reach the upstream")
        case .document:
            #expect(refresh.status == 200 && refresh.json?["failed"] as? Int == 1, "\(fault): \(refresh.text)")
            let counts = status?["documents"]?["counts"] as? [String: Any]
            #expect(counts?["failed"] as? Int == 1, "the failed download shows in /status")
        }
        let failedFetches = ["error", "refused"].contains { outcome in
            // Every outcome's series is exported from the start (at 0): the count must have moved.
            counter(in: metrics, "larder_upstream_fetches_total{resource=\"\(target.resource)\",outcome=\"\(outcome)\"}") > 0
        }
        #expect(failedFetches, "the failure shows in /metrics")
    }

    /// The three cached answers the fault must not change.
    private func snapshot(_ larder: TestLarder) async throws -> [[UInt8]] {
        [
            try await larder.get("/rates").body,
            try await larder.get("/documents").body,
            try await larder.get("/documents/a.txt").body,
        ]
    }

    /// Upstream requests for the target so far: as the upstream counted them, or, when nothing
    /// listens, as Larder's failed fetches in `/metrics`.
    private func upstreamAttempts(
        on target: FaultTarget, _ fault: UpstreamFault, _ larder: TestLarder, _ upstream: SampleUpstreamControl
    ) async throws -> Int {
        guard fault.connectionRefused else {
            // Received, not only answered: a gzip bomb's answer takes a while to build under load, and an
            // attempt the clock's wake-up started would otherwise be counted only after the first sample.
            let count = try await upstream.requests(target.path)
            return count.total + count.inFlight
        }
        let metrics = try await larder.get("/metrics").text
        return counter(in: metrics, "larder_upstream_fetches_total{resource=\"\(target.resource)\",outcome=\"error\"}")
    }

    /// The value of one series in a `/metrics` text, 0 when it is absent.
    private func counter(in metrics: String, _ series: String) -> Int {
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { Int(Double($0.dropFirst(series.count + 1)) ?? -1) } ?? 0
    }

    /// Installs the fault; a document fault also makes that document due (a newer `updated_at`).
    private func provoke(_ fault: UpstreamFault, on target: FaultTarget, _ upstream: SampleUpstreamControl) async throws {
        if let json = fault.fault {
            try await upstream.fault(json.replacingOccurrences(of: "PATH", with: target.path))
        }
        if fault.connectionRefused {
            switch target {
            case .rates, .index:
                await upstream.stop()
            case .document:
                // A newer index sends a.txt to a port nothing listens on.
                var moved = sampleDocuments
                moved[0].updatedAt = "2026-11-15T00:00:00Z"
                moved[0].url = "http://127.0.0.1:\(try freePort())/a.txt"
                try await upstream.publish(moved)
            }
            return
        }
        switch (target, fault.regression) {
        case (.rates, true):
            try await upstream.put(target.path, #"""
                <?xml version="1.0" encoding="UTF-8"?>
                <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
                <Cube><Cube time='2026-11-02'><Cube currency='USD' rate='1.0000'/></Cube></Cube></gesmes:Envelope>
                """#)
        case (.index, true), (.document, true):
            var older = sampleDocuments
            older[0].updatedAt = "2026-10-15T00:00:00Z"
            if target == .index {
                // An index generated before the held one.
                let index = DocumentsFeed.index(older).replacingOccurrences(of: "2026-11-20T12:00:00Z", with: "2026-11-19T12:00:00Z")
                try await upstream.publish(older, index: index)
            } else {
                try await upstream.publish(older)
            }
        case (.document, false):
            var newer = sampleDocuments
            newer[0].updatedAt = "2026-11-15T00:00:00Z"
            try await upstream.publish(newer)
        default:
            break
        }
    }
}
