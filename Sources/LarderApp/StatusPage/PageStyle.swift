/// The status page's only stylesheet, inline and allowed by its hash (`PagePolicy`). Every text colour
/// keeps a contrast of at least 4.5:1 against its background, in the light and the dark scheme; state
/// is never shown by colour alone (each badge is a word).
enum PageStyle {
    /// `Resources/page.css`, embedded in the binary at build time (`Package.swift`'s `.embedInCode`), so
    /// the binary needs no resource bundle beside it wherever it is copied.
    static let text = String(decoding: PackageResources.page_css, as: UTF8.self)
}
