import Foundation
import LarderDocuments
import LarderTesting
import Testing

/// The fuzz targets check the index parsers' properties alone; this runs the real sync on the
/// corpus's refused indexes (Fuzz/corpus and Fuzz/reproducers): each is refused by a running Larder
/// and changes nothing it lists or serves.
@Suite("Refused indexes from the fuzz corpus", .serialized)
struct RefusedIndexCorpusTests {
    static let fuzz = repositoryRoot.appending(path: "Fuzz")

    /// Index bodies from the corpus and reproducers of both index targets that the parser refuses.
    static func refusedIndexes() -> [(file: String, body: [UInt8])] {
        let indexURL = URL(string: "http://127.0.0.1/docs/index.json")!
        let folders = ["corpus", "reproducers"].flatMap { kind in ["json-index", "xml-index"].map { "\(kind)/\($0)" } }
        return folders.flatMap { folder -> [(file: String, body: [UInt8])] in
            let url = fuzz.appending(path: folder)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix(".") }
            return names.sorted().compactMap { name in
                guard let data = FileManager.default.contents(atPath: url.appending(path: name).path) else { return nil }
                let body = Array(data)
                let refused = (try? DocumentIndexParser.parse(body, format: .auto, indexURL: indexURL)) == nil
                return refused ? ("\(folder)/\(name)", body) : nil
            }
        }
    }

    @Test func everyRefusedCorpusIndexChangesNothingServed() async throws {
        // Bounded: the first twelve, so the suite's time does not grow with the corpus.
        let refused = Self.refusedIndexes().prefix(12)
        #expect(refused.count >= 2, "the corpus holds refused indexes")
        let document = TestDocument("kept.txt", "still here")
        try await withDocuments([document]) { larder, upstream in
            #expect(try await larder.waitForSync())
            let listing = try await larder.get("/documents")
            for (file, body) in refused {
                try await upstream.put(DocumentsFeed.indexPath, body)
                let refresh = try await larder.post("/documents/refresh")
                let after = try await larder.get("/documents")
                let served = try await larder.get("/documents/kept.txt")
                #expect(refresh.status == 502, "\(file): \(refresh.status) \(refresh.text)")
                #expect(after.header("ETag") == listing.header("ETag") && after.body == listing.body, "\(file) changed the listing")
                #expect(served.body == document.content, "\(file)")
            }
        }
    }
}
