/// An HTTP status code; libmicrohttpd writes the reason phrase.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public init(_ code: Int) {
        self.rawValue = code
    }

    public var description: String { String(rawValue) }

    public static let ok = HTTPStatus(200)
    public static let noContent = HTTPStatus(204)
    public static let partialContent = HTTPStatus(206)
    public static let notModified = HTTPStatus(304)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let methodNotAllowed = HTTPStatus(405)
    public static let payloadTooLarge = HTTPStatus(413)
    public static let uriTooLong = HTTPStatus(414)
    public static let rangeNotSatisfiable = HTTPStatus(416)
    public static let unprocessableContent = HTTPStatus(422)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    public static let internalServerError = HTTPStatus(500)
    public static let notImplemented = HTTPStatus(501)
    public static let badGateway = HTTPStatus(502)
    public static let serviceUnavailable = HTTPStatus(503)
    public static let gatewayTimeout = HTTPStatus(504)
}
