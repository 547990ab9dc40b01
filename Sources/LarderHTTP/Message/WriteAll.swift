import Glibc

/// Writing every byte of a buffer to a descriptor, for the places that keep bodies in files.
public enum WriteAll {
    /// Writes all of `bytes` to `descriptor` (with `pwrite` from `offset` when one is given), again
    /// after a short write or `EINTR`; nil when done, else the `errno` of the failure (`ENOSPC` for a
    /// write that took nothing).
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int? = nil) -> Int32? {
        var done = 0
        while done < bytes.count {
            let start = bytes.baseAddress! + done
            let wrote = if let offset {
                pwrite(descriptor, start, bytes.count - done, off_t(offset + done))
            } else {
                Glibc.write(descriptor, start, bytes.count - done)
            }
            if wrote < 0, errno == EINTR { continue }
            if wrote < 0 { return errno }
            if wrote == 0 { return ENOSPC }
            done += wrote
        }
        return nil
    }

    /// The system's words for a failure `write(_:to:at:)` returned.
    public static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
