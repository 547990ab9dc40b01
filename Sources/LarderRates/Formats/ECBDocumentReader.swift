import Foundation
import LarderFormats
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `XMLParser` delegate behind `ECBParser`: follows Envelope › Cube › Cube time › Cube currency,
/// matching elements by namespace URI (never by prefix), and stops at the first thing it refuses.
/// Declarations and entities are refused by `RefusingXMLDelegate`, as for every XML format.
final class ECBDocumentReader: RefusingXMLDelegate {
    private(set) var days: [RateSet] = []
    private(set) var sawEnvelopeEnd = false

    private struct Element: Equatable {
        let namespace: String?
        let name: String

        /// Linux reports "no namespace" as an empty string, Darwin as nil; both become nil here.
        init(namespace: String?, name: String) {
            self.namespace = namespace?.isEmpty == false ? namespace : nil
            self.name = name
        }
    }

    /// Every open element, checked against each end tag: XMLParser on Linux recovers from
    /// mismatched tags without reporting them.
    private var open: [Element] = []
    private var openCubes = 0
    private var day: RateCollector?
    private var dayDate: RateDate?
    private var seenDays: Set<RateDate> = []

    init() {
        super.init(messagePrefix: "ecb: ")
    }

    override func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                         qualifiedName: String?, attributes: [String: String] = [:]) {
        guard !isRefused else { return }
        let element = Element(namespace: namespaceURI, name: elementName)
        if open.isEmpty {
            guard !sawEnvelopeEnd else { return fail(parser, "content after the root element") }
            guard element == Element(namespace: ECBParser.envelopeNamespace, name: "Envelope") else {
                return fail(parser, "the root element is \(describe(element)), not the ECB gesmes:Envelope")
            }
        } else if element.name == "Cube" || openCubes > 0 {
            guard element.namespace == ECBParser.cubeNamespace, element.name == "Cube" else {
                return fail(parser, "unexpected \(describe(element)) where an ECB Cube belongs")
            }
            startCube(parser, attributes: attributes)
            guard !isRefused else { return }
            openCubes += 1
        }
        open.append(element)
    }

    private func startCube(_ parser: XMLParser, attributes: [String: String]) {
        switch openCubes {
        case 0:
            guard open.count == 1 else { return fail(parser, "the outer Cube is not directly inside the Envelope") }
            guard attributes["time"] == nil, attributes["currency"] == nil else {
                return fail(parser, "the outer Cube carries day or rate attributes")
            }
        case 1:
            guard let time = attributes["time"] else { return fail(parser, "a day Cube has no time attribute") }
            guard let date = RateDate(time) else {
                return fail(parser, "time '\(ByteText.excerpt(time))' is not a valid YYYY-MM-DD date")
            }
            guard seenDays.insert(date).inserted else { return fail(parser, "duplicate day \(date)") }
            dayDate = date
            day = RateCollector(format: "ecb", context: date.description)
        case 2:
            guard let currency = attributes["currency"], let rate = attributes["rate"] else {
                return fail(parser, "a rate Cube lacks its currency or rate attribute")
            }
            do throws(RatesFormatError) {
                try day?.add(code: currency, rate: rate)
            } catch {
                refuse(parser, error)
            }
        default:
            fail(parser, "Cube elements nested deeper than Cube › Cube time › Cube currency")
        }
    }

    override func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard !isRefused else { return }
        let element = Element(namespace: namespaceURI, name: elementName)
        guard open.last == element else {
            return fail(parser, "end tag \(describe(element)) does not close the open element")
        }
        open.removeLast()
        if element.namespace == ECBParser.cubeNamespace, element.name == "Cube" {
            if openCubes == 2 { finishDay(parser) }
            openCubes -= 1
        }
        if open.isEmpty { sawEnvelopeEnd = true }
    }

    private func finishDay(_ parser: XMLParser) {
        guard let collector = day, let date = dayDate else { return }
        do throws(RatesFormatError) {
            // SPEC §5: the day's `time` is both the set's date and its updated_at.
            days.append(try collector.rateSet(date: date, base: ECBParser.base, updatedAt: date.startInstant))
        } catch {
            refuse(parser, error)
        }
        day = nil
        dayDate = nil
    }

    override func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !isRefused, openCubes > 0, string.contains(where: { !$0.isWhitespace }) else { return }
        fail(parser, "text inside a Cube element")
    }

    override func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !isRefused, openCubes > 0 else { return }
        fail(parser, "CDATA inside a Cube element")
    }

    /// A refusal by the rates rules, whose message is already whole.
    private func refuse(_ parser: XMLParser, _ error: RatesFormatError) {
        refuse(parser, message: error.message)
    }

    private func describe(_ element: Element) -> String {
        "<\(ByteText.excerpt(element.name))> (namespace \(element.namespace.map { "'\(ByteText.excerpt($0, limit: 60))'" } ?? "none"))"
    }
}
