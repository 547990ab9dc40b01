import Foundation

/// How many libmicrohttpd threads serve HTTP (`--threads`): a number, or `auto` (the default), one
/// per usable core but one, at least one and at most `autoCap`: the core left over runs the refreshes,
/// the suspended handlers and the kernel's share of the network (README, "Threads").
public enum ThreadCount: Sendable, Equatable {
    case auto
    case fixed(Int)

    /// The most threads `auto` picks. Each thread polls its own share of the connections, so past a
    /// handful of cores a request costs more in the kernel and in memory bandwidth than in the
    /// thread's own loop (README, "Threads").
    public static let autoCap = 8

    /// The thread count on this machine: `auto` counts the cores this process may run on.
    public func resolved() -> Int {
        resolved(cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The thread count for a machine with `cores` usable cores.
    public func resolved(cores: Int) -> Int {
        switch self {
        case .auto: min(max(cores - 1, 1), Self.autoCap)
        case .fixed(let count): count
        }
    }
}
