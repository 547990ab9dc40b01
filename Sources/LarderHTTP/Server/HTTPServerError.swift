/// Why the server could not start.
public enum HTTPServerError: Error, CustomStringConvertible, Sendable {
    case cannotResolve(host: String, reason: String)
    case cannotListen(host: String, port: Int, reason: String)
    case alreadyStarted

    public var description: String {
        switch self {
        case .cannotResolve(let host, let reason): "cannot resolve host '\(host)': \(reason)"
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .alreadyStarted: "the server is already running"
        }
    }
}
