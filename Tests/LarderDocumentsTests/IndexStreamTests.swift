import Foundation
import LarderDocuments
import LarderTesting
import Testing

@Suite("Indexes read as they stream in")
struct IndexStreamTests {
    /// Bodies with something for every state of the scanner: valid ones in several key orders, and one
    /// of each fault. Every cut of each is read too.
    static let bodies: [String] = [
        indexBody(.json, twoEntries),
        indexBody(.xml, twoEntries),
        "\u{FEFF}" + indexBody(.json, twoEntries),
        #"{"documents":[{"name":"a.txt"}],"generated_at":"2026-05-01T12:00:00Z","version":1}"#,
        #"{"documents":[{"name":"a.txt"}],"version":2}"#,
        #"{"documents":[{"name":"a.txt"}]}"#,
        #" { "version" : 1 , "documents" : [ { "name" : "a.txt" } , { "name" : "b.txt" } ] } "#,
        #"{"version":1,"documents":[{"name":"a\"b]}"},{"name":"c\\"}]}"#,
        #"{"version":1,"documents":[{"name":"\u0061.txt","url":"x\/y"}]}"#,
        #"{"version":1,"documents":[{"name":"a.txt","name":"b.txt"}]}"#,
        #"{"version":1,"documents":[],"documents":[]}"#,
        #"{"version":1,"documents":[{"name":"a.txt","url":["x"]}]}"#,
        #"{"version":1,"documents":[12x]}"#,
        #"{"version":1x,"documents":[]}"#,
        #"{"version":tru,"documents":[]}"#,
        #"{"version":1,"documents":[{"name":"a.txt"}}]}"#,
        #"{"version":1,"documents":[{"name":"a.txt"]]}"#,
        #"{"version":1,"documents":[{"name":"a.txt"}]}x"#,
        #"{"version":1,"documents":[{"name":"a.txt"}]},"#,
        #"{"version":1,"documents":[{"name":"a.txt"} {"name":"b.txt"}]}"#,
        #"{"version":1 "documents":[]}"#,
        #"{"version" 1,"documents":[]}"#,
        #"{version:1,"documents":[]}"#,
        #"{"version":1,"documents":[],}"#,
        #"{"version":1,"documents":[é]}"#,
        #"{"version":1,"documents":[],"title":{"x":[1,2]}}"#,
        #"{"version":1,"generated_at":["2026"],"documents":[]}"#,
        #"{"version":1,"documents":"a.txt"}"#,
        #"{"version":1,"documents":[{"name":"A.txt"},{"name":"a.TXT"}]}"#,
        #"{"version":1,"documents":[{"name":"a.txt","size":1e3}]}"#,
        #"{"version":1,"documents":[{"name":"a.txt","url":"\ud800"}]}"#,
        #"["version",1]"#, #""index""#, "12", "null", "{}", "", "  ", "x",
        "<documents version=\"1\"><document name=\"a.txt\"/></documents>",
    ]

    @Test("a body and every cut of it read the same whole, byte by byte and in random chunks, accepted as the whole-tree reader accepted",
          arguments: bodies)
    func everyCuttingAgrees(body: String) {
        let bytes = Array(body.utf8)
        for cut in 0...bytes.count {
            expectSameInEveryCutting(Array(bytes[..<cut]))
            expectAgreesWithOracle(Array(bytes[..<cut]))
        }
    }

    @Test("the sample upstream's indexes and the fuzz corpus read the same in every cutting, in each format that applies")
    func samplesAndCorpus() throws {
        var bodies = [try Examples.bytes("index.json"), try Examples.bytes("index.xml")]
        let corpus = Examples.documents.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Fuzz/corpus/json-index")
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path) where !name.hasPrefix(".") {
            bodies.append(Array(try Data(contentsOf: corpus.appending(path: name))))
        }
        #expect(bodies.count >= 5)
        for body in bodies {
            for format in DocumentsFormat.allCases {
                expectSameInEveryCutting(body, format: format)
            }
            expectAgreesWithOracle(body)
        }
        #expect(try DocumentIndexParser.parse(Examples.bytes("index.json"), format: .json, indexURL: indexURL).documents.count > 0)
    }

    @Test("an entry is handed out as soon as its closing brace arrives, before the index has ended")
    func entriesAsTheyComplete() throws {
        let body = Array(#"{"version":1,"documents":[{"name":"a.txt"},{"name":"b.txt"}]}"#.utf8)
        let firstEnd = try #require(body.firstIndex(of: UInt8(ascii: "}"))) + 1
        var stream = DocumentIndexStream(format: .auto, indexURL: indexURL)
        #expect(try stream.feed(body[..<(firstEnd - 1)]).isEmpty)
        #expect(try stream.feed(body[(firstEnd - 1)..<firstEnd]).map(\.name) == ["a.txt"])
        #expect(try stream.feed(body[firstEnd...]).map(\.name) == ["b.txt"])
        let ending = try stream.finish()
        #expect(ending.documents.isEmpty && ending.generatedAt == nil)
    }

    @Test("version and generated_at may follow the documents; the version is judged when it comes")
    func topLevelKeysInAnyOrder() throws {
        let after = #"{"documents":[{"name":"a.txt"}],"generated_at":"2026-05-01T12:00:00Z","version":1}"#
        let index = try parse(after)
        #expect(index.generatedAt == Date(timeIntervalSince1970: 1_777_636_800))
        #expect(index.documents.map(\.name) == ["a.txt"])
        #expect(refusal(#"{"documents":[{"name":"a.txt"}],"version":2,"generated_at":"x"}"#)
            == "index: version '2' is not supported (only 1)")
        #expect(refusal(#"{"documents":[{"name":"a.txt"}],"generated_at":"2026-05-01T12:00:00Z"}"#) == "index: version is missing")
        #expect(refusal(#"{"documents":[{"name":"a.txt"}],"version":null}"#) == "index: version is missing")
    }

    @Test("duplicate keys are refused at both levels, where the whole-body reader refused them", arguments: [
        (#"{"version":1,"documents":[],"documents":[]}"#, #"index: json: byte 28: duplicate key "documents""#),
        (#"{"generated_at":null,"version":1,"generated_at":null,"documents":[]}"#,
         #"index: json: byte 33: duplicate key "generated_at""#),
        (#"{"version":1,"documents":[{"name":"a.txt","name":"b.txt"}]}"#, #"index: json: byte 42: duplicate key "name""#),
    ])
    func duplicateKeys(body: String, expected: String) {
        #expect(refusal(body) == expected)
    }

    @Test("content after the index is refused", arguments: ["x", ",", "{}", "[]", "\u{0}", "é"])
    func trailingContent(tail: String) {
        let body = #"{"version":1,"documents":[]}"# + " \n" + tail
        #expect(refusal(body) == "index: json: byte 30: unexpected content after the JSON value")
    }

    @Test("an entry may take up to the limit, whitespace included; one byte more refuses the index, naming the entry")
    func longEntry() throws {
        let head = #"{"version":1,"documents":[{"name":"a.txt"},{"name":"b.txt""#
        let entryStart = #"{"version":1,"documents":[{"name":"a.txt"},"#.utf8.count
        let padding = DocumentIndexStream.maxEntryBytes - (head.utf8.count - entryStart) - 1
        let fits = head + String(repeating: " ", count: padding) + "}]}"
        #expect(try parse(fits).documents.count == 2)
        let tooLong = head + String(repeating: " ", count: padding + 1) + "}]}"
        #expect(refusal(tooLong) == "index: document 2: takes more than 65536 bytes of JSON")
        for cutting in Cutting.all {
            #expect(streamed(Array(tooLong.utf8), cutting: cutting) == .refused("index: document 2: takes more than 65536 bytes of JSON"))
        }
        // Unfinished, it is refused all the same once past the limit: nothing waits for its end.
        var stream = DocumentIndexStream(format: .json, indexURL: indexURL)
        #expect(throws: DocumentIndexError.self) { try stream.feed(Array((head + String(repeating: " ", count: 70_000)).utf8)) }
        #expect(refusal(#"{"version":1,"generated_at":""# + String(repeating: "x", count: 70_000) + #"","documents":[]}"#)
            == "index: the value of 'generated_at' takes more than 65536 bytes")
    }

    @Test("the size cap counts every byte fed, the BOM and whitespace too, however the body is cut")
    func sizeCapInChunks() {
        let body = Array(("\u{FEFF}" + indexBody(.json, twoEntries)).utf8)
        for cutting in Cutting.all {
            #expect(streamed(body, cutting: cutting, maxBytes: body.count) == streamed(body, cutting: .whole))
            #expect(streamed(body, cutting: cutting, maxBytes: body.count - 1)
                == .refused("index: the body is over the limit of \(body.count - 1) bytes"))
            #expect(streamed(body, cutting: cutting, maxBytes: 2) == .refused("index: the body is over the limit of 2 bytes"))
        }
    }

    @Test("100,000 entries stream through holding never more than one entry")
    func manyEntriesBounded() async throws {
        // Seconds of CPU in a debug build: on a thread of its own, so the two threads of the
        // cooperative pool stay free for the suites that run meanwhile (their servers answer on it).
        let (outcome, largestHeld, handedOut, feedsWithEntries) = try await onThread { () -> (IndexOutcome, Int, Int, Int) in
            let hash = String(repeating: "ab", count: 32)
            let entries = (0..<100_000).map {
                #"{"name":"document-\#($0).txt","url":"https://cdn.example.net/files/document-\#($0).txt","size":\#($0),"#
                    + #""sha256":"\#(hash)","updated_at":"2026-04-30T17:22:05Z"}"#
            }
            let body = Array((#"{"version":1,"documents":[\#n"# + entries.joined(separator: ",\n") + "\n]}\n").utf8)
            var largestHeld = 0
            var handedOut = 0
            var feedsWithEntries = 0
            let outcome = streamed(body, cutting: .random(seed: 7, largest: 64 * 1024)) { stream, completed in
                largestHeld = max(largestHeld, stream.bufferedByteCount)
                handedOut += completed.count
                if !completed.isEmpty { feedsWithEntries += 1 }
            }
            return (outcome, largestHeld, handedOut, feedsWithEntries)
        }
        guard case .success(let index) = outcome else {
            Issue.record("refused: \(outcome)")
            return
        }
        #expect(index.documents.count == 100_000)
        #expect(index.documents.last?.size == 99_999)
        #expect(handedOut == 100_000, "every entry came out of feed, none waited for the end")
        #expect(feedsWithEntries > 100)
        #expect(largestHeld <= DocumentIndexStream.maxEntryBytes)
        #expect(largestHeld < 300, "at most one unfinished entry is held")
    }

    @Test("a refused stream throws the same error from then on; a finished one takes no more bytes")
    func afterTheEnd() throws {
        let error = DocumentIndexError("index: json: byte 1: expected a string key")
        var refused = DocumentIndexStream(format: .json, indexURL: indexURL)
        #expect(throws: error) { try refused.feed(Array("{x".utf8)) }
        #expect(throws: error) { try refused.feed(Array("}".utf8)) }
        #expect(throws: error) { try refused.finish() }
        var finished = DocumentIndexStream(format: .json, indexURL: indexURL)
        _ = try finished.feed(Array(#"{"version":1,"documents":[]}"#.utf8))
        _ = try finished.finish()
        let afterTheEnd = DocumentIndexError("index: the stream was used after the body ended")
        #expect(throws: afterTheEnd) { try finished.feed([UInt8(ascii: " ")]) }
        #expect(throws: afterTheEnd) { try finished.finish() }
    }

    @Test("an XML body is held and read at the end, where all its entries come out")
    func xmlAtTheEnd() throws {
        let body = Array(indexBody(.xml, twoEntries).utf8)
        var stream = DocumentIndexStream(format: .auto, indexURL: indexURL)
        for chunk in Cutting.random(seed: 5, largest: 16).chunks(body) {
            #expect(try stream.feed(chunk).isEmpty)
        }
        #expect(stream.bufferedByteCount == body.count)
        let ending = try stream.finish()
        #expect(ending.documents.map(\.name) == ["a.txt", "b.txt"])
        #expect(ending.generatedAt == Date(timeIntervalSince1970: 1_777_636_800))
    }

    @Test("a BOM may be split across chunks; one cut short is no BOM")
    func byteOrderMark() {
        let index = Array(#"{"version":1,"documents":[]}"#.utf8)
        let bom = ByteOrderMark.bytes
        #expect(streamed(bom + index, cutting: .byteByByte) == .success(DocumentIndex(documents: [])))
        #expect(streamed(Array(bom.prefix(2)) + index, format: .json, cutting: .byteByByte)
            == .refused("index: json: the body is not valid UTF-8"))
        #expect(streamed(Array(bom.prefix(2)), cutting: .byteByByte)
            == .refused("index: the body is neither XML nor JSON (it starts with '\u{FFFD}')"))
        #expect(streamed(bom, cutting: .byteByByte) == .refused("index: empty body"))
    }

    @Test("any collection of bytes may be fed, contiguous or not")
    func anyCollection() throws {
        let body = Array(indexBody(.json, twoEntries).utf8)
        var stream = DocumentIndexStream(format: .json, indexURL: indexURL)
        let documents = try stream.feed(body.lazy.map { $0 })
        #expect(documents.count == 2)
        #expect(try stream.finish().generatedAt != nil)
    }
}

/// The UTF-8 byte order mark, as tests spell it.
enum ByteOrderMark {
    static let bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
}
