public import GRDB

/// Which cache a row of the shared `items` and `resources` tables belongs to: a typed name, so a
/// store call cannot name a resource that does not exist.
public enum StoredResource: String, Sendable, Codable, DatabaseValueConvertible {
    case rates
    case documents
}
