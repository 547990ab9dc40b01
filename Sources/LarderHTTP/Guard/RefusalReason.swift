/// Why the server refused a request before any handler ran (SPEC §6), as `/metrics` labels it.
public enum RefusalReason: String, Sendable, CaseIterable {
    /// The `Host` is not in the allowlist (DNS rebinding).
    case hostNotAllowed = "host_not_allowed"
    /// A `POST` from a page on another origin or site.
    case crossSiteRequest = "cross_site_request"
}
