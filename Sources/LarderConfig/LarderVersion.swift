/// The version `larder --version` prints (followed by the libmicrohttpd it runs on), the listening line
/// shows and upstream requests send as `User-Agent`.
///
/// The one source of it: `sample-upstream --version` reads it too, and `VersionAgreementTests` checks
/// that the Docker files, `openapi.yaml` and the READMEs name the same.
public enum LarderVersion {
    public static let current = "0.1.0"
}
