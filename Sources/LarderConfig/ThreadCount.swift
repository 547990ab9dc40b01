import Foundation

/// How many HTTP server threads, each its own epoll loop, serve (`--threads`): a number, or `auto`
/// (the default), one per usable core, at least one and at most `autoCap`. Every core, as nginx's
/// `worker_processes auto`: the loops share the port (SO_REUSEPORT), so the kernel spreads the
/// connections evenly and an idle connection costs no loop anything; a loop with nothing to do
/// sleeps in its wait and leaves its core to the refreshes and suspended handlers
/// (docs/architecture.md, "Threads").
public enum ThreadCount: Sendable, Equatable {
    case auto
    case fixed(Int)

    /// The most threads `auto` picks: a bound on the memory and descriptors a very large machine
    /// would give the loops (a daemon, a listening socket and an epoll set each), not a measured optimum.
    public static let autoCap = 64

    /// The thread count on this machine: `auto` counts the cores this process may run on.
    public func resolved() -> Int {
        resolved(cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The thread count for a machine with `cores` usable cores.
    public func resolved(cores: Int) -> Int {
        switch self {
        case .auto: min(max(cores, 1), Self.autoCap)
        case .fixed(let count): count
        }
    }
}
