import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// A server key's cap on what it may spend a day (`serve keys create --max-spend-per-day`): a send that would take
/// today's spend past it is refused whole with a 403 naming the cap, the spend and the estimate, nothing of it stored;
/// reported prices replace the estimates they report on; a new day (UTC) starts again (run on SQLite and PostgreSQL).
@Suite struct SpendCapTests {
    /// `n` single-part messages to Croatian numbers, ids starting at `from`: 0.01 each at the default price per part.
    static func destinations(_ n: Int, from: Int) -> [SendInvitationBody.Destination] {
        (from..<(from + n)).map { SendInvitationBody.Destination(address: "3859813\(String(format: "%05d", $0))", messageId: "c-\($0)") }
    }

    func send(_ h: EngineHarness, _ n: Int, from: Int, as caller: APICaller?) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald", destinations: Self.destinations(n, from: from))
        return try await h.call(SendInvitation(secret: h.creds.secret, body: body), as: caller).sendSmsResponse
    }

    func sentCount(_ h: EngineHarness) async throws -> Int {
        try await h.engine.store.read { db in try db.value(Int.self, "SELECT COUNT(*) FROM sent") ?? 0 }
    }

    @Test func aSendPastTheKeysDailyCapIsRefusedWholeNamingCapSpendAndEstimate() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let made = try await h.engine.createServerKey(role: .sender, name: "desk", applicationKey: h.creds.applicationKey,
                                                      maxSpendPerDay: 0.05)
        #expect(made.info.maxSpendPerDay == 0.05)
        #expect(try await h.engine.serverKeys().first { $0.id == made.info.id }?.maxSpendPerDay == 0.05)
        let desk = APICaller.auditTest(keyId: made.info.id, name: "desk", role: .sender, address: "10.0.0.7")
        let other = APICaller.auditTest(keyId: "k-other", name: "other", role: .sender, address: "10.0.0.8")

        _ = try await send(h, 3, from: 0, as: desk)            // 0.03 spent
        let before = try await sentCount(h)
        do {
            _ = try await send(h, 3, from: 10, as: desk)       // 0.03 more: 0.06 > 0.05
            Issue.record("a send past the cap was accepted")
        } catch {
            guard case .forbidden(let text) = error else { Issue.record("not a 403: \(error)"); return }
            #expect(text == "key \"desk\" may spend 0.05 a day (--max-spend-per-day): 0.03 spent today (UTC), "
                    + "and this send is estimated at 0.03; nothing was sent", "\(text)")
        }
        #expect(try await sentCount(h) == before, "nothing of the refused send is stored")
        // Up to the cap exactly: accepted. Another key, and this terminal's own sends, have no cap.
        _ = try await send(h, 2, from: 20, as: desk)
        _ = try await send(h, 5, from: 30, as: other)
        _ = try await send(h, 5, from: 40, as: nil)
        await #expect(throws: APIError.self) { _ = try await send(h, 1, from: 50, as: desk) }
        // A new day (UTC) starts again.
        h.clock.advance(by: 86_400)
        _ = try await send(h, 1, from: 60, as: desk)
    }

    @Test func reportedPricesCountInsteadOfTheEstimatesTheyReplace() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let made = try await h.engine.createServerKey(role: .sender, name: "desk", applicationKey: h.creds.applicationKey,
                                                      maxSpendPerDay: 0.05)
        let desk = APICaller.auditTest(keyId: made.info.id, name: "desk", role: .sender, address: "10.0.0.7")
        let first = try await send(h, 2, from: 0, as: desk)     // estimated 0.02
        // The carrier reported 0.02 a message: today's spend is 0.04, so a send of two (0.02) passes the cap.
        try await h.engine.store.write { db in
            try db.execute("UPDATE sent SET price = 0.02, currency = 'EUR' WHERE bulkId = ?", [first.bulkId])
        }
        do {
            _ = try await send(h, 2, from: 10, as: desk)
            Issue.record("a send past the cap was accepted")
        } catch {
            guard case .forbidden(let text) = error else { Issue.record("not a 403: \(error)"); return }
            #expect(text.contains("0.04 spent today") && text.contains("estimated at 0.02"), "\(text)")
        }
        _ = try await send(h, 1, from: 20, as: desk)
    }

    @Test func aNegativeCapIsRefused() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        await #expect(throws: EngineError.self) {
            _ = try await h.engine.createServerKey(role: .sender, name: "x", applicationKey: h.creds.applicationKey, maxSpendPerDay: -1)
        }
    }
}
