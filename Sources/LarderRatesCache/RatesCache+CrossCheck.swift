extension RatesCache {
    /// The last cross-check of a new publication against the other upstreams; nil with one upstream
    /// or before the first check (SPEC §4.12).
    public var crossCheckReport: CrossCheckReport? { crossCheck?.report }

    /// True while a cross-check runs in the background.
    public var isCrossChecking: Bool { crossCheck?.isRunning ?? false }
}
