import Foundation
import LarderHTTP

/// `GET /*path`: the folder's files with `ETag`, `Last-Modified` and 304s, misbehaving as the faults say.
struct FileRoutes {
    let files: FileStore
    let faults: FaultTable
    let log: RequestLog

    func register(on router: inout Router) {
        router.add(.get, "/*path", FaultedHandler.make(faults: faults, log: log, path: { "/" + ($0.parameters["path"] ?? "") }) {
            request, fault in answer(request, path: request.parameters["path"] ?? "", fault: fault)
        })
    }

    private func answer(_ request: Request, path: String, fault: Fault?) -> Response {
        if let fault, let mebibytes = fault.gzipBombMib {
            return bomb(fault, mebibytes: mebibytes)
        }
        if let fault, fault.status != nil || fault.body != nil {
            return Self.injected(fault)
        }
        guard let file = files[path] else {
            return HTTPError.notFound("no file /\(path)").response
        }
        var headers: HTTPHeaders = [
            "ETag": file.etag,
            "Last-Modified": HTTPDate.format(secondsSince1970: file.lastModified),
        ]
        // A truncation fault wins over a 304: it is there to make this fetch fail.
        if fault?.truncateAt == nil,
           ConditionalRequest.isNotModified(request.headers, etag: file.etag, lastModified: file.lastModified) {
            return Response(status: .notModified, headers: Self.adding(fault, to: headers))
        }
        headers.add("Content-Type", file.contentType)
        headers = Self.adding(fault, to: headers)
        if let cut = fault?.truncateAt {
            return Response(headers: headers, body: .stream(Self.truncated(file.bytes, after: cut)))
        }
        return Response(headers: headers, body: .bytes(file.bytes))
    }

    static func injected(_ fault: Fault) -> Response {
        let status = HTTPStatus(fault.status ?? 200)
        let body = fault.body ?? "{\"error\":\"injected fault \(status.rawValue)\"}"
        let type = fault.contentType ?? (fault.body == nil ? "application/json" : "application/octet-stream")
        let headers = Self.adding(fault, to: ["Content-Type": type, "Cache-Control": "no-store"])
        return Response(status: status, headers: headers, body: .string(body))
    }

    /// A small gzip body that inflates to `mebibytes` MiB of zeros.
    private func bomb(_ fault: Fault, mebibytes: Int) -> Response {
        let size = Fault.clampedGzipBombMib(mebibytes)
        let headers: HTTPHeaders = [
            "Content-Type": fault.contentType ?? "application/octet-stream",
            "Content-Encoding": "gzip",
            "Cache-Control": "no-store",
        ]
        return Response(
            status: HTTPStatus(fault.status ?? 200), headers: Self.adding(fault, to: headers),
            body: .bytes(GzipBomb.bytes(mebibytes: size))
        )
    }

    /// The fault's header fields set over `headers`.
    private static func adding(_ fault: Fault?, to headers: HTTPHeaders) -> HTTPHeaders {
        var headers = headers
        for (name, value) in (fault?.headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.set(name, value)
        }
        return headers
    }

    /// Declares the whole length, sends `after` bytes, then cuts the connection.
    static func truncated(_ bytes: SharedBytes, after limit: Int) -> StreamBody {
        let all = bytes.array
        return StreamBody(length: UInt64(all.count)) { offset, buffer in
            let start = Int(offset)
            let end = min(limit, all.count)
            guard start < end else { return .abort }
            let count = min(buffer.count, end - start)
            all.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + count]))
            }
            return .wrote(count)
        }
    }
}
