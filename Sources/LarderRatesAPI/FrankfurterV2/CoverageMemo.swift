import Synchronization

/// The currency coverage of the newest snapshot, read on first need and kept until the next one:
/// every metadata answer of a snapshot shares one pass over the history.
final class CoverageMemo: Sendable {
    private let kept = Mutex<(generation: Int, coverage: CurrencyCoverage)?>(nil)

    func coverage(of snapshot: RatesSnapshot) -> CurrencyCoverage {
        if let kept = kept.withLock({ $0 }), kept.generation == snapshot.generation { return kept.coverage }
        let coverage = CurrencyCoverage(snapshot.history)
        kept.withLock { $0 = (snapshot.generation, coverage) }
        return coverage
    }
}
