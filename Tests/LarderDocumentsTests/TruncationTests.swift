import LarderDocuments
import Testing

@Suite("Indexes cut short are refused whole")
struct TruncationTests {
    @Test("every cut of a valid JSON index short of its closing brace is refused")
    func everyJSONTruncation() {
        expectEveryCutRefused(indexBody(.json, twoEntries), format: .json)
    }

    @Test("every cut of a valid XML index short of its closing root tag is refused")
    func everyXMLTruncation() {
        expectEveryCutRefused(indexBody(.xml, twoEntries), format: .xml)
    }
}
