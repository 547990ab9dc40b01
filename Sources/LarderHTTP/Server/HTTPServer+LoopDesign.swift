import Glibc

extension HTTPServer {
    /// How the server's threads wait for and serve connections.
    enum LoopDesign: Sendable, Equatable {
        /// Larder's own epoll loop (`larder_epoll_loop`) per daemon: one daemon, or, with
        /// `reusePort`, one per thread.
        case ownLoop
        /// One daemon per thread, each on its own Larder loop and listening socket, the sockets
        /// sharing the port through SO_REUSEPORT (the kernel spreads new connections).
        case reusePort
        /// libmicrohttpd's own epoll threads (MHD_USE_EPOLL_INTERNAL_THREAD, a pool when more than one),
        /// sharing one listening socket; needs the patched library (scripts/libmicrohttpd.sh).
        case libraryPool
    }

    /// The design for `threads`; LARDER_SERVER_LOOPS (`own`, `reuseport`, `library`) picks one for measuring.
    static func loopDesign(threads: Int) -> LoopDesign {
        let chosen = getenv("LARDER_SERVER_LOOPS").map { String(cString: $0) }
        switch chosen {
        case "library": return .libraryPool
        case "reuseport": return threads > 1 ? .reusePort : .ownLoop
        case "own": return threads > 1 ? .reusePort : .ownLoop
        default: return threads > 1 ? .reusePort : .ownLoop
        }
    }
}
