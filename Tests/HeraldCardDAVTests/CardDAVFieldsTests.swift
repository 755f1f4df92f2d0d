import Foundation
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldCardDAV
@testable import HeraldStore

/// Custom fields through a real Radicale: X- properties read from the server, a field changed and one added in Herald
/// sent up in the card's own lines (the rest as the server had it), another client's change brought down.
@Suite(.serialized) struct CardDAVFieldsTests {
    @Test func xLinesGoUpAndComeDownThroughRadicale() async throws {
        let b = try DAVBook()
        _ = try await b.other.put("ana.vcf", card: DAVBook.card("ana", "Ana", "Horvat", tel: "+385911111111",
                                                                extra: "X-SHIRT-SIZE:M\r\nX-ABUID:1234\r\nX-TEAM:Blue\r\n"), ifMatch: nil)
        _ = try await b.sync()
        let ana = try #require(try b.person("Ana"))
        #expect(ana.customFields == ["SHIRT_SIZE": "M", "TEAM": "Blue"])
        var draft = ContactDraft(ana)
        draft.customFields["SHIRT_SIZE"] = "L"
        draft.customFields["CITY"] = "Zagreb"
        _ = try b.contacts.save(draft, personId: try #require(ana.id), parser: b.parser)
        let up = try await b.sync()
        #expect(up.pushed == 1 && up.conflicts == 0)
        let onServer = try #require(try await b.serverCard("ana.vcf"))
        // Radicale keeps cards in its own order: each line is there, the tool's own untouched, the old value gone.
        let lines = onServer.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }
        for line in ["X-SHIRT-SIZE:L", "X-ABUID:1234", "X-TEAM:Blue", "X-CITY:Zagreb"] {
            #expect(lines.contains(line), "\(line) in \(onServer)")
        }
        #expect(!onServer.contains("X-SHIRT-SIZE:M"))

        let etag = try #require(try await b.serverEtag("ana.vcf"))
        _ = try await b.other.put("ana.vcf", card: Data(onServer.replacingOccurrences(of: "X-TEAM:Blue", with: "X-TEAM:Green").utf8),
                                  ifMatch: etag)
        let down = try await b.sync()
        #expect(down.updated == 1)
        #expect(try b.person("Ana")?.customFields == ["SHIRT_SIZE": "L", "TEAM": "Green", "CITY": "Zagreb"])
    }
}
