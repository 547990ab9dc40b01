import Foundation
import LarderTesting
import Testing

/// `/` for a program, `/v1`, and the dialects' OpenAPI documents: Frankfurter's index answers.
@Suite("Frankfurter's index answers: /, /v1 and the dialects' OpenAPI documents")
struct DialectRoutesTests {
    @Test func theRootAnswersAProgramWithFrankfurtersIndexAndABrowserWithThePage() async throws {
        try await withLarder { _, _ in } _: { larder, _ in
            let (plain, json, browser) = try await (
                larder.get("/"), larder.get("/", headers: [("Accept", "application/json")]),
                larder.get("/", headers: [("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")])
            )
            #expect(plain.status == 200 && plain.header("Content-Type") == "application/json")
            #expect(plain.text == #"{"name":"Larder","versions":{"v1":{"base":"/v1","openapi":"/v1/openapi.json","status":"frozen"},"v2":{"base":"/v2","openapi":"/v2/openapi.json","status":"current"}},"docs":"https://frankfurter.dev"}"# + "\n")
            #expect(plain.header("Vary") == "Accept" && plain.header("Cache-Control") == "public, max-age=86400")
            #expect(json.text == plain.text)
            #expect(browser.header("Content-Type") == "text/html; charset=utf-8" && browser.text.hasPrefix("<!doctype html>"))
            #expect(browser.header("Vary") == "Accept", "a cache must not give the page to a program")
            let again = try await larder.get("/", headers: [("If-None-Match", plain.header("ETag") ?? "")])
            #expect(again.status == 304 && again.header("Vary") == "Accept")
            let refused = try await larder.get("/", headers: [("Accept", "text/html;q=0, application/json")])
            #expect(refused.text == plain.text, "HTML with weight 0 is refused")
        }
    }

    @Test func v1AnswersFrankfurtersVersionIndex() async throws {
        try await withLarder { _, _ in } _: { larder, _ in
            let (index, slash) = try await (larder.get("/v1"), larder.get("/v1/"))
            #expect(index.text == #"{"version":"v1","status":"frozen","openapi":"/v1/openapi.json","docs":"https://frankfurter.dev"}"# + "\n")
            #expect(slash.text == index.text)
        }
    }

    @Test(arguments: ["v1", "v2"])
    func eachDialectServesItsPartOfTheContract(dialect: String) async throws {
        try await withLarder { _, _ in } _: { larder, _ in
            let answer = try await larder.get("/\(dialect)/openapi.json")
            #expect(answer.status == 200 && answer.header("Content-Type") == "application/json")
            let document = try #require(answer.json)
            #expect((document["servers"] as? [[String: Any]])?.first?["url"] as? String == "/\(dialect)")
            let paths = try #require(document["paths"] as? [String: Any])
            #expect(paths["/openapi.json"] != nil)
            #expect(paths.keys.allSatisfy { !$0.hasPrefix("/v1") && !$0.hasPrefix("/v2") }, "prefixes are the server's")
            if dialect == "v1" {
                #expect(Set(paths.keys).isSuperset(of: ["/", "/latest", "/current", "/{date}", "/currencies"]))
            }
            let again = try await larder.get("/\(dialect)/openapi.json", headers: [("If-None-Match", answer.header("ETag") ?? "")])
            #expect(again.status == 304)
        }
    }
}
