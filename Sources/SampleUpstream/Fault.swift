import Synchronization

/// A misbehaviour the sample upstream is told to show for a path, over `PUT /_control/faults`.
///
/// JSON: `{"path":"/rates/daily.xml","status":503,"delay_ms":2000,"truncate_at":100,
/// "body":"<html>oops</html>","content_type":"text/html","headers":{"Location":"/elsewhere"},
/// "gzip_bomb_mib":300,"times":1}`; every field but `path` is optional, and `path` `*` matches
/// every served path. A redirect loop is `{"path":"/x","status":302,"headers":{"Location":"/x"}}`.
public struct Fault: Codable, Sendable, Equatable {
    public var path: String
    /// Answer this status instead of the file.
    public var status: Int?
    /// Wait this long before answering (a hang, when longer than the client's timeout).
    public var delayMs: Int?
    /// Declare the file's full length but cut the connection after this many bytes.
    public var truncateAt: Int?
    /// Answer these bytes instead of the file (garbage, an HTML error page, a wrong shape).
    public var body: String?
    public var contentType: String?
    /// Header fields set on the answer, whatever it is (file, injected body or bomb), replacing
    /// fields of the same name: `Location` for redirects, `Content-Encoding`, `Retry-After`.
    public var headers: [String: String]?
    /// Answer with `Content-Encoding: gzip` and a small body that inflates to this many MiB of zeros.
    public var gzipBombMib: Int?
    /// Apply to this many requests, then disappear; forever when absent.
    public var times: Int?

    public init(
        path: String, status: Int? = nil, delayMs: Int? = nil, truncateAt: Int? = nil,
        body: String? = nil, contentType: String? = nil, headers: [String: String]? = nil,
        gzipBombMib: Int? = nil, times: Int? = nil
    ) {
        self.path = path
        self.status = status
        self.delayMs = delayMs
        self.truncateAt = truncateAt
        self.body = body
        self.contentType = contentType
        self.headers = headers
        self.gzipBombMib = gzipBombMib
        self.times = times
    }

    /// The largest bomb served (about 27 MB compressed), so a typo cannot exhaust the test machine.
    public static let maxGzipBombMib = 4096

    /// The size a bomb of `mebibytes` MiB is served at: within 0...maxGzipBombMib.
    static func clampedGzipBombMib(_ mebibytes: Int) -> Int {
        min(max(mebibytes, 0), maxGzipBombMib)
    }
}

/// The faults in force; each request takes (and uses up) the first one matching its path.
final class FaultTable: Sendable {
    private let faults = Mutex<[Fault]>([])

    func add(_ fault: Fault) {
        faults.withLock { $0.append(fault) }
    }

    func removeAll() {
        faults.withLock { $0.removeAll() }
    }

    var all: [Fault] {
        faults.withLock { $0 }
    }

    func take(for path: String) -> Fault? {
        faults.withLock { faults in
            guard let index = faults.firstIndex(where: { $0.path == "*" || $0.path == path }) else { return nil }
            let fault = faults[index]
            if let times = fault.times {
                if times <= 1 { faults.remove(at: index) } else { faults[index].times = times - 1 }
            }
            return fault
        }
    }
}
