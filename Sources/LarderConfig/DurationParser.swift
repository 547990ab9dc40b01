/// Reads SPEC §2 durations: `90s`, `15m`, `1h`, `2d`, or a bare number of seconds.
public enum DurationParser {
    public static func parse(_ text: String) -> Duration? {
        guard let last = text.last else { return nil }
        let multiplier: Int64
        let digits: Substring
        switch last {
        case "s": (multiplier, digits) = (1, text.dropLast())
        case "m": (multiplier, digits) = (60, text.dropLast())
        case "h": (multiplier, digits) = (3600, text.dropLast())
        case "d": (multiplier, digits) = (86400, text.dropLast())
        default: (multiplier, digits) = (1, Substring(text))
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let count = Int64(digits) else { return nil }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : .seconds(seconds)
    }

    /// The shortest of the accepted spellings, for logs and `/status`.
    public static func format(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        for (unit, size) in [("d", Int64(86400)), ("h", 3600), ("m", 60)] where seconds > 0 && seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
