import Crypto
import Foundation
import LarderHTTP

/// The status page's security headers: a `Content-Security-Policy` that allows nothing from other
/// origins and no inline code but the page's own script and stylesheet, pinned by their SHA-256.
enum PagePolicy {
    static let contentSecurityPolicy = [
        "default-src 'none'",
        "script-src '\(hash(PageScript.text))'",
        "style-src '\(hash(PageStyle.text))'",
        // The script fetches this page again and POSTs the refreshes, on this origin only.
        "connect-src 'self'",
        // The favicon is `data:,`, so a browser asks for no /favicon.ico (a 404 in the console).
        "img-src 'self' data:",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The fields of the 200 and the 304 alike. No CORS field: the page is for this origin only.
    static let headers: HTTPHeaders = [
        "Content-Security-Policy": contentSecurityPolicy,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        // Revalidated on each load (a 304 while nothing changed): never an old status from the cache.
        "Cache-Control": "no-cache",
        // A program asking for `/` gets Frankfurter's root index instead (`RootIndex`).
        "Vary": "Accept",
    ]

    /// A CSP source for inline text: `sha256-` and the base64 of the digest of its UTF-8 bytes.
    static func hash(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Array(text.utf8))).base64EncodedString()
    }
}
