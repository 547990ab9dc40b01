/// The version `larder --version` prints, the listening line shows and upstream requests send as `User-Agent`.
public enum LarderVersion {
    public static let current = "0.1.0"
}
