import Foundation

/// The bytes the whole system has changed in memory and not yet written to its disks: `Dirty` plus
/// `Writeback` of /proc/meminfo, what a `syncfs` may have to write besides a batch's own.
enum UnwrittenBytes {
    /// Now; nil when /proc/meminfo cannot be read or lacks the fields.
    static func now() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        return parse(text)
    }

    /// `Dirty` + `Writeback` (in kB there) of a /proc/meminfo text, in bytes.
    static func parse(_ meminfo: String) -> Int? {
        var dirty: Int?, writeback: Int?
        for line in meminfo.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
            switch fields[0] {
            case "Dirty:": dirty = kilobytes * 1024
            case "Writeback:": writeback = kilobytes * 1024
            default: continue
            }
        }
        guard let dirty, let writeback else { return nil }
        return dirty + writeback
    }
}
