import Foundation
import LarderRates
import LarderRatesCache

/// One currency over the stored history as inline SVG: a line, one marked point per stored day (each
/// with its date and rate as a tooltip), value and date axes, and a title and description for
/// assistive technology. Colours come from the stylesheet, so no inline style is needed.
enum RateChart {
    static let width = 720.0
    static let height = 300.0
    /// The plot area inside the axes' labels.
    static let left = 72.0, right = 16.0, top = 16.0, bottom = 44.0

    static func render(_ points: [RatesView.Point], currency: String, base: String) -> String {
        guard let first = points.first, let last = points.last else {
            return "<p>No stored day has \(currency) against \(base).</p>\n"
        }
        let values = points.map { NSDecimalNumber(decimal: $0.value).doubleValue }
        let lowest = points[values.indices.min { values[$0] < values[$1] }!]
        let highest = points[values.indices.max { values[$0] < values[$1] }!]
        let scale = ValueScale(low: values.min()!, high: values.max()!)
        let firstDay = day(first.date), lastDay = day(last.date)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ date: RateDate) -> Double {
            lastDay == firstDay ? left + plotWidth / 2 : left + (day(date) - firstDay) / (lastDay - firstDay) * plotWidth
        }
        func y(_ value: Double) -> Double {
            top + (scale.high - value) / (scale.high - scale.low) * plotHeight
        }
        let title = "\(currency) for 1 \(base), \(first.date) to \(last.date)"
        let days = PageFormat.count(points.count, "stored day")
        var svg = """
            <figure class="chart">
            <svg viewBox="0 0 \(number(width)) \(number(height))" role="img" aria-labelledby="chart-title chart-desc" \
            xmlns="http://www.w3.org/2000/svg" data-points="\(points.count)">
            <title id="chart-title">\(title)</title>
            <desc id="chart-desc">\(days). Lowest \(lowest.text) on \(lowest.date), highest \(highest.text) on \
            \(highest.date), latest \(last.text) on \(last.date).</desc>
            <g class="grid">

            """
        for tick in scale.ticks {
            let at = number(y(tick))
            svg += "<line x1=\"\(number(left))\" y1=\"\(at)\" x2=\"\(number(width - right))\" y2=\"\(at)\"/>"
                + "<text x=\"\(number(left - 8))\" y=\"\(at)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
                + "\(scale.label(tick))</text>\n"
        }
        svg += "</g>\n<g class=\"dates\">\n"
        for point in labelled(points, at: { x($0.date) }) {
            let anchor = points.count == 1 ? "middle" : point.date == first.date ? "start" : point.date == last.date ? "end" : "middle"
            svg += "<text x=\"\(number(x(point.date)))\" y=\"\(number(height - bottom + 20))\" text-anchor=\"\(anchor)\">"
                + "\(point.date)</text>\n"
        }
        svg += "</g>\n<polyline class=\"line\" points=\""
        svg += zip(points, values).map { "\(number(x($0.date))),\(number(y($1)))" }.joined(separator: " ")
        svg += "\"/>\n<g class=\"points\">\n"
        let radius = points.count <= 120 ? "3" : points.count <= 1000 ? "2" : "1.2"
        for (point, value) in zip(points, values) {
            svg += "<circle cx=\"\(number(x(point.date)))\" cy=\"\(number(y(value)))\" r=\"\(radius)\">"
                + "<title>\(point.date): \(point.text)</title></circle>\n"
        }
        svg += """
            </g>
            </svg>
            <figcaption>\(title): \(days), one point each.</figcaption>
            </figure>

            """
        return svg
    }

    /// The dates written along the axis: the first and the last, and between them, from left to right,
    /// every day far enough from the one before and the last that their labels cannot overlap.
    private static func labelled(_ points: [RatesView.Point], at x: (RatesView.Point) -> Double) -> [RatesView.Point] {
        guard let first = points.first, let last = points.last, points.count > 1 else { return points }
        let gap = 96.0  // a label is about 70 units wide at the chart's type size
        var chosen = [first]
        for point in points.dropFirst().dropLast()
        where x(point) - x(chosen.last!) >= gap && x(last) - x(point) >= gap {
            chosen.append(point)
        }
        return chosen + [last]
    }

    /// Days since 1970 (the x axis is calendar time: weekends and gaps show as gaps).
    private static func day(_ date: RateDate) -> Double {
        date.startInstant.timeIntervalSince1970 / 86_400
    }

    /// Coordinates to a tenth of a unit: enough on a 720-unit canvas, and a small page.
    private static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}

/// The value axis: bounds widened to round ticks (1, 2, 2.5 or 5 × a power of ten), four to six of them.
struct ValueScale {
    let low: Double
    let high: Double
    let step: Double
    private let decimals: Int

    init(low dataLow: Double, high dataHigh: Double) {
        var from = dataLow, to = dataHigh
        if to <= from {
            // A flat series still needs a span to draw in: a per cent of its value either side.
            let half = max(abs(to) * 0.01, 1e-6)
            from -= half
            to += half
        }
        let rough = (to - from) / 4
        let power = pow(10, floor(log10(rough)))
        let multiple = [1.0, 2, 2.5, 5, 10].first { $0 * power >= rough } ?? 10
        step = multiple * power
        low = (from / step).rounded(.down) * step
        high = max((to / step).rounded(.up) * step, low + step)
        decimals = max(0, Int(-floor(log10(step))) + (multiple == 2.5 ? 1 : 0))
    }

    var ticks: [Double] {
        let count = Int(((high - low) / step).rounded())
        return (0...count).map { low + Double($0) * step }
    }

    func label(_ value: Double) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
