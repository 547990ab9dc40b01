#if DEBUG
/// The header names a lean route declared, checked on every read of its requests' headers in debug
/// builds (and so in `make test`): a handler that reads a header its route does not declare would
/// see it absent on the lean path and present on the usual one, and answer the two differently.
final class DeclaredHeaders: Sendable {
    let route: String
    let names: [String]

    init(route: String, names: [String]) {
        self.route = route
        self.names = names
    }

    /// Traps when `name` is not declared, naming the route and the header.
    func check(_ name: String) {
        guard !names.contains(where: { $0.caseInsensitiveEquals(name) }) else { return }
        let hint = name.caseInsensitiveEquals(AcceptEncoding.header) ? " (read Request.prefersGzip instead)" : ""
        assertionFailure("""
            the handler of GET \(route) read the header \(name), which its route does not declare: \
            name it in Router.add(_:_:reads:)\(hint); declared: \(names.joined(separator: ", "))
            """)
    }
}
#endif
