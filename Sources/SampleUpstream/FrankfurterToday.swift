import Foundation
import LarderRates
import Synchronization

/// The day the Frankfurter routes answer "latest" for: the machine's, or one a test set, so a test of
/// an answer without a date does not depend on when it runs.
final class FrankfurterToday: Sendable {
    private let chosen = Mutex<RateDate?>(nil)

    /// The day set, else the machine's (UTC).
    var day: RateDate { chosen.withLock { $0 } ?? RateDate(containing: Date()) }

    /// Sets the day, or (nil) goes back to the machine's.
    func set(_ day: RateDate?) { chosen.withLock { $0 = day } }
}
