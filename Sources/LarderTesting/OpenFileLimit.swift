import Glibc

/// Lifts this process's open-file limit so a test can hold many sockets at once: to 65,536 where
/// allowed (root may raise the hard limit too), else to the hard limit.
public func raiseOpenFileLimit() {
    _ = openFileLimitRaised
}

/// Done once, before the first socket or child process of any test.
let openFileLimitRaised: Void = {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    var wanted = rlimit(rlim_cur: max(limit.rlim_max, 65_536), rlim_max: max(limit.rlim_max, 65_536))
    if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &wanted) != 0 {
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}()
