/// Ruby's `Array#sum` over floats (`rb_ary_sum`): Kahan-Babuska compensated summation from 0.0, so a
/// blend of several providers gives Frankfurter's doubles to the last bit (a plain `reduce` does not).
/// SQLite's `sum` and `avg` (3.43 and later) sum the same way.
enum RubySum {
    static func of<S: Sequence>(_ values: S) -> Double where S.Element == Double {
        var running = Running()
        for value in values { running.add(value) }
        return running.total
    }

    /// A sum in progress.
    struct Running: Sendable {
        private var sum = 0.0
        private var compensation = 0.0

        mutating func add(_ value: Double) {
            let total = sum + value
            if abs(sum) >= abs(value) {
                compensation += (sum - total) + value
            } else {
                compensation += (value - total) + sum
            }
            sum = total
        }

        var total: Double { sum + compensation }
    }
}
