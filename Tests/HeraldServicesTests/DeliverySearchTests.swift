import Foundation
import HeraldCore
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices

/// DeliverySearch on a real SQLite ledger: typed answers, and exports written whole, safe and streamed.
@Suite struct DeliverySearchTests {
    let ana = "+385981234567"
    let eva = "+38640123456"

    func search() throws -> (TempStore, DeliverySearch) {
        let s = try TempStore()
        _ = try s.contacts.insert(HeraldTestKit.person("=cmd|' /C calc'!A0", "Horvat", phones: ["098 123 4567"]))
        let ledger = LedgerStore(database: s.database, clock: s.clock)
        try ledger.recordTeamBulk(bulkId: "B1", createdAt: s.clock.now(), messageText: "Hi,\tthere\n\u{7}bye \u{85}",
                                  sentBy: "Marta", [
            DeliveryUpdate(address: ana, messageId: "ma", status: .deliveredToTerminal, price: 0.0000125, currency: "EUR"),
            DeliveryUpdate(address: eva, messageId: "me", status: .rejected, reason: "@absent \"subscriber\""),
        ])
        return (s, DeliverySearch(ledger: ledger, settings: SettingsStore(database: s.database), clock: s.clock,
                                  timeZone: TimeZone(identifier: "UTC")!))
    }

    @Test func answersAreTypedAndGroupsNarrow() async throws {
        let (_, search) = try search()
        let failed = try search.query("status:failed")
        let matches = try await search.matches(failed)
        #expect(matches.total == 1 && matches.bulks.map(\.bulkId) == ["B1"] && matches.notes.isEmpty)
        let page = try await search.recipients(failed, range: 0..<10)
        #expect(page.map(\.number) == [eva] && page[0].country == "SI" && page[0].sentBy == "Marta" && page[0].sender == nil)
        let breakdown = try await search.breakdown(try search.query(""), by: .reason)
        #expect(breakdown.total == 2 && breakdown.groups.count == 2)
        #expect(breakdown.groups.allSatisfy { $0.share == 0.5 && $0.isFinal })
        let noReason = try #require(breakdown.groups.first { $0.key.value == nil })
        #expect(noReason.key.label == "no reason")
        #expect(try await search.recipients(try search.query(""), group: noReason.key, range: 0..<10).map(\.number) == [ana])
        #expect(try await search.retryable(try search.query("")).map(\.number) == [eva])
        #expect(throws: DeliveryQueryError.unknownStatus("nope")) { try search.query("status:nope") }
        #expect(try search.query("network:x").notes.count == 1)
    }

    @Test func csvIsSafeToOpenInASpreadsheet() async throws {
        let (s, search) = try search()
        let path = s.dir.path("out.csv")
        let summary = try await search.export(try search.query(""), format: .csv, to: path)
        #expect(summary.rows == 2 && summary.path == path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.count == 4 && lines[3].isEmpty)
        #expect(lines[0] == DeliveryExportWriter.columns.joined(separator: ","))
        // Ana: the formula name starts with a quote (no comma or double quote: not quoted); the price is plain decimal;
        // the text's tab and line end are spaces, its BEL and NEL gone.
        #expect(lines[1] == "B1,2026-01-01T00:00:00Z,Marta,'+385981234567,'=cmd|' /C calc'!A0 Horvat,HR,invited,"
                + "DeliveredToTerminal,,0.0000125,EUR,1,0,\"Hi, there bye \"")
        #expect(lines[2] == "B1,2026-01-01T00:00:00Z,Marta,'+38640123456,,SI,failed,Rejected,\"'@absent \"\"subscriber\"\"\",,,1,0,"
                + "\"Hi, there bye \"")
        #expect(summary.bytes == text.utf8.count)
    }

    @Test func tsvAndJSON() async throws {
        let (s, search) = try search()
        let tsv = s.dir.path("out.tsv")
        _ = try await search.export(try search.query("status:failed"), format: .tsv, to: tsv)
        let lines = try String(contentsOfFile: tsv, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[1].split(separator: "\t", omittingEmptySubsequences: false).count == 14)
        #expect(lines[1].hasSuffix("\tHi, there bye "))
        let json = s.dir.path("out.json")
        _ = try await search.export(try search.query(""), format: .json, to: json)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows[0]["name"] as? String == "=cmd|' /C calc'!A0 Horvat", "JSON keeps the value as it is")
        #expect(rows[0]["price"] as? Double == 0.0000125 && rows[1]["price"] is NSNull)
        #expect(rows[1]["text"] as? String == "Hi,\tthere\n\u{7}bye \u{85}")
        let empty = s.dir.path("empty.json")
        _ = try await search.export(try search.query("bulk:nothing"), format: .json, to: empty)
        #expect(try String(contentsOfFile: empty, encoding: .utf8) == "[]\n")
    }

    @Test func aFailedExportLeavesNothingAndAnOldFileIsReplacedWhole() async throws {
        let (s, search) = try search()
        let folder = try s.dir.folder("reports")
        await #expect(throws: DeliveryExportError.self) {
            try await search.export(try search.query(""), format: .csv, to: folder.path)
        }
        await #expect(throws: DeliveryExportError.self) {
            try await search.export(try search.query(""), format: .csv, to: s.dir.path("missing/x.csv"))
        }
        let path = folder.appendingPathComponent("r.csv").path
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        _ = try await search.export(try search.query("status:failed"), format: .csv, to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\n").count == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["r.csv"])
    }

    @Test func theWriterFlushesInChunks() throws {
        var chunks: [Int] = []
        var writer = DeliveryExportWriter(format: .csv) { chunks.append($0.count) }
        try writer.begin()
        let row = LedgerExportRow(bulkId: "B", sentAt: Date(timeIntervalSince1970: 0), sentBy: nil, number: "+1", name: nil,
                                  country: nil, status: .queued, reason: nil, price: nil, currency: nil, attempts: 1, clicks: 0,
                                  text: String(repeating: "x", count: 1000))
        for _ in 0..<300 { try writer.write(row) }
        try writer.finish()
        #expect(chunks.count >= 4 && chunks.dropLast().allSatisfy { $0 >= DeliveryExportWriter.chunk && $0 < DeliveryExportWriter.chunk + 2048 })
        #expect(chunks.reduce(0, +) == writer.bytes)
        #expect(DeliveryExportWriter.timestamp(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(DeliveryExportWriter.timestamp(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(DeliveryExportWriter.number(1e-7) == "0.0000001" && DeliveryExportWriter.number(2) == "2")
    }
}
