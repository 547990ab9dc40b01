import LarderHTTP
import LarderRates

extension FrankfurterV1Error {
    /// Frankfurter v1's error answer: `{"message":"…"}` with its status, never cached.
    var response: Response {
        let status: HTTPStatus = self == .notFound ? .notFound : .unprocessableContent
        return Response(
            status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .bytes(SharedBytes(Array("{\"message\":\"\(message)\"}\n".utf8))))
    }
}
