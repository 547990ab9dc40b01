import Foundation
import Glibc
import LarderFormats
import LarderHTTP
import Logging
import Synchronization

/// What the whole-pipeline targets share: reading an input's scene (the instant, the settings
/// words, the requests, the upstream bodies), running async code to the end from libFuzzer's
/// thread, a scratch directory per input, and the checks every answer must pass.
enum Pipeline {
    /// Log lines are not what is checked.
    static let logger = Logger(label: "larder.fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The instant a line names: RFC 3339, or seconds since 1970; kept within years a clock can
    /// read (1970 to 9999), `fallback` otherwise.
    static func instant(_ line: String, fallback: Date) -> Date {
        let text = line.trimmingCharacters(in: .whitespaces)
        let chosen = RFC3339.instant(text) ?? Double(text).flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
        guard let chosen else { return fallback }
        return min(max(chosen, Date(timeIntervalSince1970: 0)), Date(timeIntervalSince1970: 253_402_041_600))
    }

    /// One input's scene: its first line the instant, its second the settings words, its third the
    /// request targets; the lines after them are the target's own.
    struct Scene {
        let now: Date
        let words: [String]
        let requests: [Request]
        let rest: [String]

        init(_ input: [UInt8], lines: Int, requests fallback: [String]) {
            let lines = parts(input, lines)
            now = Pipeline.instant(lines[0], fallback: Date(timeIntervalSince1970: 1_795_708_800))
            words = lines[1].split(separator: " ").map(String.init)
            requests = Pipeline.requests(lines[2], fallback: fallback)
            rest = Array(lines.dropFirst(3))
        }

        /// The whole seconds the settings word at `position` says, within `range`; `fallback` otherwise.
        func seconds(_ position: Int, in range: ClosedRange<Int>, fallback: Int) -> Int {
            guard words.indices.contains(position), let value = Int(words[position]) else { return fallback }
            return min(max(value, range.lowerBound), range.upperBound)
        }
    }

    /// Answers each request through `router` and checks what every answer keeps at `now`: its
    /// headers and status, an error's shape, the status page's HTML. `ok` is given every other 200.
    static func serve(
        _ requests: [Request], _ router: Router, now: Date,
        ok: (Request, Response, [UInt8], String) throws(PropertyViolation) -> Void
    ) throws(PropertyViolation) {
        for request in requests {
            let response = wait { await router.answer(request) }
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let what = "GET \(request.rawPath)\(query.isEmpty ? "" : "?" + query)"
            try checkHeaders(response, now: now, what)
            guard let body = try bytes(of: response) else { continue }
            if (response.fields["Content-Type"] ?? "").hasPrefix("text/html") {
                try StatusPageCheck.check(body, what)
            } else if response.status.rawValue >= 400 {
                if let json = try readJSON(response, body, what) { try checkError(json, what) }
            } else if response.status.rawValue == 200 {
                try ok(request, response, body, what)
            }
        }
    }

    /// The bodies after the third line: split at lines of `===` (at most `count`).
    static func bodies(_ rest: String, _ count: Int) -> [[UInt8]] {
        rest.components(separatedBy: "\n===\n").prefix(count).map { Array($0.utf8) }
    }

    /// Runs `operation` to its end on Swift concurrency and waits for it here.
    static func wait<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
        let result = Handover<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await operation()
            result.value.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.value.withLock { $0! }
    }

    /// A fresh directory for one input's store and files, removed after `body`.
    static func withScratch<T>(_ body: (String) throws(PropertyViolation) -> T) throws(PropertyViolation) -> T {
        let path = NSTemporaryDirectory() + "larder-fuzz-" + UUID().uuidString.prefix(12)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw PropertyViolation(message: "cannot create a scratch directory: \(error)")
        }
        return try body(path)
    }

    /// One request of the third line: `path?query`, with `#gzip`, `#html` (a browser's `Accept`),
    /// `#range=SPEC`, `#ims=HTTP-DATE` or `#inm=ETAG` for a request header (percent-encoded). Nil for a target the server would refuse
    /// before routing.
    static func request(_ target: Substring) -> Request? {
        let pieces = target.split(separator: "#", omittingEmptySubsequences: false)
        let location = pieces[0]
        var headers = HTTPHeaders()
        for option in pieces.dropFirst() {
            let named = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = named.count > 1 ? PercentDecoding.decode(named[1], plusIsSpace: false) ?? "" : ""
            switch named[0] {
            case "gzip": headers.add("Accept-Encoding", "gzip")
            case "html": headers.add("Accept", "text/html")
            case "range": headers.add("Range", value)
            case "ims": headers.add("If-Modified-Since", value)
            case "inm": headers.add("If-None-Match", value)
            default: break
            }
        }
        let path = location.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let segments = RequestReader.decodeSegments(String(path[0])) else { return nil }
        var query: [QueryItems.Item] = []
        if path.count > 1 {
            for field in path[1].split(separator: "&") {
                let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = PercentDecoding.decode(pair[0], plusIsSpace: true),
                      let value = PercentDecoding.decode(pair.count > 1 ? pair[1] : "", plusIsSpace: true)
                else { return nil }
                query.append((name: name, value: value))
            }
        }
        return Request(method: .get, rawPath: String(path[0]), segments: segments, query: QueryItems(query), headers: headers)
    }

    /// The requests of the third line (at most 16), or `fallback`'s when it names none.
    static func requests(_ line: String, fallback: [String]) -> [Request] {
        var targets = line.split(separator: " ").prefix(16)
        if targets.isEmpty { targets = ArraySlice(fallback.map { Substring($0) }) }
        return targets.compactMap(request)
    }

    /// The bytes a response sends (a file region read and closed, as the server would); nil for a
    /// stream, which no route here answers with.
    static func bytes(of response: Response) throws(PropertyViolation) -> [UInt8]? {
        switch response.body {
        case .empty:
            return []
        case .bytes(let bytes):
            return bytes.array
        case .slice(let bytes, let offset, let length):
            try expect(offset >= 0 && length >= 0 && offset + length <= bytes.count,
                       "a slice of \(length) bytes at \(offset) of \(bytes.count)")
            return Array(bytes.array[offset..<(offset + length)])
        case .file(let region):
            // Closed by its owner when the response is dropped, as the server's would be.
            var bytes = [UInt8](repeating: 0, count: Int(region.length))
            let read = bytes.withUnsafeMutableBytes { pread(region.file.descriptor, $0.baseAddress, $0.count, off_t(region.offset)) }
            try expect(read == Int(region.length), "a file region of \(region.length) bytes read \(read)")
            return bytes
        case .stream:
            return nil
        }
    }

    /// SPEC §3's header promises at `now`, the instant a real server's `Date` would say: dates that
    /// parse, `Last-Modified` not after `Date`, `Expires` not before it while `max-age` is positive,
    /// `Age` and `max-age` whole and not negative; and no server error but the documented ones.
    static func checkHeaders(_ response: Response, now: Date, _ what: String) throws(PropertyViolation) {
        let status = response.status.rawValue
        try expect(status < 500 || [502, 503, 504].contains(status), "\(what): status \(status)")
        let fields = response.fields
        let date = Int(floor(now.timeIntervalSince1970))
        if let text = fields["Last-Modified"] {
            guard let seconds = HTTPDate.parse(text) else { throw PropertyViolation(message: "\(what): Last-Modified \(text)") }
            try expect(seconds <= date, "\(what): Last-Modified \(text) after Date \(HTTPDate.format(secondsSince1970: date))")
        }
        var maxAge: Int?
        if let control = fields["Cache-Control"] {
            for directive in control.split(separator: ",") {
                let part = directive.trimmingCharacters(in: .whitespaces)
                guard part.hasPrefix("max-age=") else { continue }
                guard let value = Int(part.dropFirst(8)), value >= 0 else {
                    throw PropertyViolation(message: "\(what): Cache-Control \(control)")
                }
                maxAge = value
            }
        }
        if let text = fields["Expires"] {
            guard let seconds = HTTPDate.parse(text) else { throw PropertyViolation(message: "\(what): Expires \(text)") }
            if let maxAge, maxAge > 0 {
                try expect(seconds >= date, "\(what): Expires \(text) before Date \(HTTPDate.format(secondsSince1970: date)) with max-age=\(maxAge)")
            }
        }
        if let age = fields["Age"] {
            try expect(Int(age).map { $0 >= 0 } ?? false, "\(what): Age \(age)")
        }
    }

    /// The body as JSON when the answer says it is JSON (identity, whole); nil otherwise.
    static func readJSON(_ response: Response, _ body: [UInt8], _ what: String) throws(PropertyViolation) -> JSONValue? {
        let fields = response.fields
        guard (fields["Content-Type"] ?? "").contains("json"), fields["Content-Encoding"] == nil,
              response.status.rawValue != 206, response.status.rawValue != 304, !body.isEmpty else { return nil }
        do {
            return try JSONReader.read(body)
        } catch {
            throw PropertyViolation(message: "\(what): the JSON body does not read: \(error)\n\(String(decoding: body.prefix(400), as: UTF8.self))")
        }
    }

    /// An error answer's documented shapes: Larder's `{"error":{"code","message"}}`, or Frankfurter's `{"message"}`.
    static func checkError(_ value: JSONValue, _ what: String) throws(PropertyViolation) {
        guard case .object(let members) = value else { throw PropertyViolation(message: "\(what): error body is \(value.kind)") }
        if case .object(let error) = members["error"], case .string = error["message"], case .string = error["code"] { return }
        if case .string = members["message"] { return }
        throw PropertyViolation(message: "\(what): error body of neither shape: \(members.keys.sorted())")
    }
}

/// A value handed from a task to the thread waiting for it.
private final class Handover<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}
