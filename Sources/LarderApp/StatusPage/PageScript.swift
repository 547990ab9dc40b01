/// The status page's only script, inline and allowed by its hash (`PagePolicy`). It adds to a page
/// that reads fine without it: live ages after each time, updates every few seconds (it fetches
/// the page again, conditionally, and replaces only the regions that changed), the base and chart
/// selector without a reload, and the Refresh buttons. It writes text with `textContent` only, and
/// keeps the admin token in the password field alone: never in storage, a cookie or a URL.
enum PageScript {
    /// `Resources/page.js`, embedded in the binary at build time (`Package.swift`'s `.embedInCode`), so
    /// the binary needs no resource bundle beside it wherever it is copied.
    static let text = String(decoding: PackageResources.page_js, as: UTF8.self)
}
