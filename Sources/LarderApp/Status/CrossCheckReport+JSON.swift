import Foundation
import LarderRatesCache

extension CrossCheckReport {
    /// `/status`'s `cross_check` (openapi.yaml's `CrossCheck`).
    var jsonObject: [String: Any] {
        [
            "date": date,
            "checked_at": StatusReport.timestamp(checkedAt),
            "outcome": outcome.rawValue,
            "rewritten": rewritten,
            "upstreams": upstreams.map { asked in
                ["upstream": asked.label, "format": asked.format, "outcome": asked.outcome.rawValue,
                 "error": asked.error as Any? ?? NSNull(), "newest_day": asked.newestDay as Any? ?? NSNull()] as [String: Any]
            },
            "disagreements": disagreements.map { disagreement in
                [
                    "currency": disagreement.currency,
                    "values": disagreement.values.map { ["upstream": $0.label, "value": $0.value] },
                    "kept": disagreement.kept,
                    "odd_upstreams": disagreement.odd,
                ] as [String: Any]
            },
            "odd_upstreams": oddUpstreams,
            "behind_upstreams": behindUpstreams.map(\.label),
        ]
    }
}
