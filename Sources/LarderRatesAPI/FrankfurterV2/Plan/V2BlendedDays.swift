import Synchronization

/// Frankfurter's materialized blend (`blended_rates`), what it answers every plain query from: for
/// each stored day, the pivot-based blend of that day's carried-forward snapshot, pegs anchored,
/// keeping only the rows dated that day. Built day by day on demand, the last few kept.
public final class V2BlendedDays: V2RowSource {
    private static let keptDays = 32

    let raw: any V2RowSource
    private let blender: V2Blender
    private let recent = Mutex<[Int: [V2Observation]]>([:])

    /// `provider` names rows that name none (a one-provider feed's).
    public init(_ raw: any V2RowSource, provider: String) {
        self.raw = raw
        // Every kept row is dated its own anchor, so its weight is 1 whatever today is.
        blender = V2Blender(provider: provider, today: Int.max)
    }

    public var count: Int { raw.count }

    public func day(at index: Int) -> Int { raw.day(at: index) }

    public func rows(at index: Int) -> [V2Observation] {
        if let kept = recent.withLock({ $0[index] }) { return kept }
        let day = raw.day(at: index)
        let blended = blender.blend(raw.carriedForward(to: day), base: V2Blender.pivot, withPegs: true)
        let rows = blended.filter { $0.day == day }.map {
            V2Observation(day: day, base: V2Blender.pivot, quote: $0.quote, rate: $0.rate)
        }
        recent.withLock { recent in
            if recent.count >= Self.keptDays { recent.removeAll(keepingCapacity: true) }
            recent[index] = rows
        }
        return rows
    }
}
