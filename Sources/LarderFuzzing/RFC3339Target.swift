import Foundation
import LarderFormats

extension FuzzTarget {
    /// RFC 3339 timestamps (`created_at`, `updated_at`, `generated_at`): an accepted text names an
    /// instant that Larder writes as a timestamp it reads back to the same instant, to the millisecond.
    static let rfc3339 = FuzzTarget("rfc3339") { input throws(PropertyViolation) in
        let source = text(input)
        guard let instant = RFC3339.instant(source) else { return }
        let written = RFC3339.string(instant)
        guard let again = RFC3339.instant(written) else {
            throw PropertyViolation(message: "\(source.debugDescription) is written as \(written.debugDescription), which is refused")
        }
        // Half a millisecond of rounding, plus the Double's own precision at this distance from 1970.
        try expect(abs(again.timeIntervalSince(instant)) <= 0.0005 + 16 * instant.timeIntervalSince1970.ulp,
                   "\(source.debugDescription) is \(instant.timeIntervalSince1970), written back \(again.timeIntervalSince1970)")
        try expect(RFC3339.string(again) == written, "\(written.debugDescription) is not written as itself")
        let whole = RFC3339.string(instant, milliseconds: false)
        try expect(RFC3339.instant(whole) != nil, "\(whole.debugDescription), the whole-second form, is refused")
    }
}
