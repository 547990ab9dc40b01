import Glibc
import Logging

/// Raises the open-file limit to its hard maximum, as nginx does: every connection is a descriptor.
enum FileDescriptorLimit {
    static func raise(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            logger.warning("could not raise the open-file limit; many connections may be refused")
        }
    }
}
