import CLarderHTTP
import Glibc

/// A lean route's header names as one pass over a request's fields reads them (`larder_pick_headers`):
/// C strings and their lengths, made once with the route and never changed, so every loop thread reads them.
package final class HeaderPickNames: @unchecked Sendable {
    let count: Int
    private let names: UnsafeMutablePointer<UnsafePointer<CChar>?>
    private let lengths: UnsafeMutablePointer<Int>

    init(_ list: [String]) {
        precondition(list.count <= Int(LARDER_PICK_MAX), "a lean route reads at most \(LARDER_PICK_MAX) headers")
        count = list.count
        names = .allocate(capacity: max(list.count, 1))
        lengths = .allocate(capacity: max(list.count, 1))
        for (index, name) in list.enumerated() {
            names[index] = UnsafePointer(strdup(name))
            lengths[index] = name.utf8.count
        }
    }

    /// The request's header bytes and the value of each name (nil when absent), in the order given.
    func pick(_ connection: OpaquePointer) -> larder_header_pick {
        var pick = larder_header_pick()
        pick.names = UnsafePointer(names)
        pick.lengths = UnsafePointer(lengths)
        pick.count = count
        larder_pick_headers(connection, &pick)
        return pick
    }

    deinit {
        for index in 0..<count { free(UnsafeMutablePointer(mutating: names[index])) }
        names.deallocate()
        lengths.deallocate()
    }
}

extension larder_header_pick {
    /// The value picked for name `index` of the route's list.
    func value(_ index: Int) -> UnsafePointer<CChar>? {
        withUnsafeBytes(of: values) { $0.bindMemory(to: UnsafePointer<CChar>?.self)[index] }
    }
}
