import LarderConfig

extension FuzzTarget {
    /// SPEC §2 durations (`90s`, `15m`, `1h`, `2d`, bare seconds): an accepted duration is whole,
    /// non-negative seconds, and its shortest spelling reads back as the same duration.
    static let duration = FuzzTarget("duration") { input throws(PropertyViolation) in
        let source = text(input)
        guard let duration = DurationParser.parse(source) else { return }
        try expect(duration >= .zero && duration.components.attoseconds == 0, "\(source.debugDescription) is \(duration)")
        let spelled = DurationParser.format(duration)
        try expect(DurationParser.parse(spelled) == duration,
                   "\(source.debugDescription) is \(duration), spelled \(spelled.debugDescription), which reads as \(String(describing: DurationParser.parse(spelled)))")
    }
}
