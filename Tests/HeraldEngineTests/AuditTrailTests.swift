import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// The audit trail: every send, resend, move, take-back, cancel, opt-out change and key change adds one entry with
/// who, when, from where and what, in the action's own unit of work; a refused action adds none; a key's history is
/// an admin's to read; and no statement changes or removes an entry (run on SQLite and on PostgreSQL).
@Suite struct AuditTrailTests {
    static let ana = APICaller.auditTest(keyId: "k-ana", name: "ana", role: .sender, address: "10.0.0.7")
    static let vera = APICaller.auditTest(keyId: "k-vera", name: "vera", role: .viewer, address: "10.0.0.8")
    static let olga = APICaller.auditTest(keyId: "k-olga", name: "olga", role: .admin, address: "10.0.0.9")

    func trail(_ h: EngineHarness, _ filter: AuditFilter = AuditFilter(), as caller: APICaller? = nil) async throws(APIError) -> AuditList {
        try await h.call(ListAudit(secret: h.creds.secret, filter: filter), as: caller)
    }

    func send(_ h: EngineHarness, _ destinations: [SendInvitationBody.Destination], sendAt: Date? = nil, resendOf: String? = nil,
              as caller: APICaller? = ana) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald", destinations: destinations,
                                      sendAt: sendAt.map(WireTime.text), resendOf: resendOf)
        return try await h.call(SendInvitation(secret: h.creds.secret, body: body), as: caller).sendSmsResponse
    }

    @Test func everyActionIsRecordedWithWhoWhenWhereAndWhat() async throws {
        var config = EngineConfig()
        config.localActor = "Ana Horvat"
        let h = try await EngineHarness.make(config: config)
        defer { h.cleanUp() }
        let start = h.clock.now()
        // A send through a server key, one destination refused.
        let first = try await send(h, CarrierWorkTests.destinations(3) + [SendInvitationBody.Destination(address: "12", messageId: "bad")])
        // Held for later, moved, then taken back whole.
        let later = h.clock.now().addingTimeInterval(3600)
        let held = try await send(h, CarrierWorkTests.destinations(2).map { .init(address: $0.address, messageId: "h-" + ($0.messageId ?? "")) },
                                  sendAt: later)
        let moved = Date(timeIntervalSince1970: 1_767_430_800)    // 2026-01-03 09:00 UTC (the clock starts on 2026-01-01)
        h.clock.advance(by: 1)
        _ = try await h.call(RescheduleBulk(secret: h.creds.secret, bulkId: held.bulkId, sendAt: moved), as: Self.olga)
        _ = try await h.call(CancelBulk(secret: h.creds.secret, bulkId: held.bulkId), as: Self.ana)
        // A resend of the first bulk's failed one, on this terminal's own platform (no key): the local actor.
        let resent = try await send(h, [SendInvitationBody.Destination(address: "385981200077", messageId: "r-1")], resendOf: first.bulkId,
                                    as: nil)
        // Opt-outs: by hand, taken back, by a stop reply.
        _ = try await h.call(AddOptOut(secret: h.creds.secret, number: "+385981200050"), as: Self.ana)
        _ = try await h.call(RemoveOptOut(secret: h.creds.secret, number: "+385981200050"), as: Self.olga)
        _ = try await h.engine.receiveReply(applicationKey: h.creds.applicationKey, from: "+385981200051", text: "STOP")
        // Keys, at the server's console.
        let made = try await h.engine.createServerKey(role: .viewer, name: "support desk", applicationKey: h.creds.applicationKey)
        _ = try await h.engine.revokeServerKey(made.info.id)

        let entries = try await trail(h).entries.reversed().map { $0 }
        #expect(entries.map(\.action) == ["send", "send", "move", "take-back", "resend", "opt-out-add", "opt-out-remove", "opt-out-add",
                                          "key-create", "key-revoke"], "\(entries.map(\.action))")
        #expect(entries.map(\.id) == entries.map(\.id).sorted() && Set(entries.map(\.id)).count == entries.count)
        let send = entries[0]
        #expect(send.actor == "ana" && send.keyId == "k-ana" && send.role == "sender" && send.address == "10.0.0.7")
        #expect(send.bulkId == first.bulkId && send.what == "3 recipients, 1 refused, sender Herald", "\(send.what)")
        #expect(WireTime.date(send.at) == Date(epochMilliseconds: start.epochMilliseconds))
        #expect(entries[1].what == "2 recipients, sender Herald, held until \(PlatformEngine.auditTime(later))", "\(entries[1].what)")
        #expect(entries[2].actor == "olga" && entries[2].role == "admin" && entries[2].bulkId == held.bulkId)
        #expect(entries[2].what == "moved to 2026-01-03 09:00 UTC (2 recipients held)", "\(entries[2].what)")
        #expect(entries[3].actor == "ana" && entries[3].what == "took back 2 recipients; none had left", "\(entries[3].what)")
        let resend = entries[4]
        #expect(resend.actor == "Ana Horvat" && resend.role == "local" && resend.address == "local" && resend.keyId == nil)
        #expect(resend.bulkId == resent.bulkId && resend.subject == first.bulkId)
        #expect(resend.what == "1 recipient, sender Herald")
        #expect(entries[5].subject == "+385981200050" && entries[5].what == "opted out (herald)" && entries[5].actor == "ana")
        #expect(entries[6].subject == "+385981200050" && entries[6].actor == "olga" && entries[6].what.hasPrefix("taken off the opt-out list (was herald"))
        #expect(entries[7].actor == "reply" && entries[7].role == "system" && entries[7].what == "opted out (reply: STOP)")
        #expect(entries[8].actor == "Ana Horvat" && entries[8].subject == made.info.id
                && entries[8].what == "key \(made.info.id) \"support desk\" (viewer) made")
        #expect(entries[9].what == "key \(made.info.id) \"support desk\" (viewer) revoked")

        // A bulk's story: its send, and the resend that named it; a held bulk's send, move and take-back.
        #expect(try await trail(h, AuditFilter(bulkId: first.bulkId)).entries.map(\.action) == ["resend", "send"])
        #expect(try await trail(h, AuditFilter(bulkId: held.bulkId)).entries.map(\.action) == ["take-back", "move", "send"])
    }

    @Test func messageAndSettingsChangesAreRecordedAndARefusedEditIsNot() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let (secret, app) = (h.creds.secret, h.creds.applicationKey)
        _ = try await h.call(CreateApplicationMessage(secret: secret, applicationKey: app,
                                                      body: ApplicationMessageBody(key: "WINTER", text: "Join me <>")), as: Self.ana)
        _ = try await h.call(UpdateApplicationMessage(secret: secret, applicationKey: app, messageId: "WINTER",
                                                      body: ApplicationMessageBody(text: "Join us <>")), as: Self.ana)
        _ = try await h.call(UpdateApplicationSettings(secret: secret, applicationKey: app,
                                                       body: ApplicationSettingsBody(messageEditingAllowed: false)), as: Self.olga)
        // Editing is off now: the refused edit leaves no entry.
        await #expect(throws: APIError.self) {
            _ = try await h.call(UpdateApplicationMessage(secret: secret, applicationKey: app, messageId: "WINTER",
                                                          body: ApplicationMessageBody(text: "Changed <>")), as: Self.ana)
        }
        let entries = try await trail(h).entries
        #expect(entries.map(\.action) == ["settings-change", "message-edit", "message-create"], "\(entries.map(\.action))")
        #expect(entries.map(\.what) == ["message editing off", "message WINTER changed: text (10 characters)", "message WINTER made (10 characters)"],
                "\(entries.map(\.what))")
        #expect(entries[0].actor == "olga" && entries[1].actor == "ana" && entries[2].subject == "WINTER")
    }

    /// The event that announces a bulk names who sent it (the key's name; this terminal's own name on its own
    /// platform): what colleagues' terminals keep as the bulk's sender.
    @Test func aBulksAnnouncementNamesWhoSentIt() async throws {
        var config = EngineConfig()
        config.localActor = "Ana Horvat"
        let h = try await EngineHarness.make(config: config)
        defer { h.cleanUp() }
        let byKey = try await send(h, CarrierWorkTests.destinations(2))
        let here = try await send(h, CarrierWorkTests.destinations(1).map { .init(address: $0.address, messageId: "here") }, as: nil)
        let events = try await h.engine.events(applicationKey: h.creds.applicationKey, after: 0)
            .map { try HeraldJSON.decode(PlatformEvent.self, from: $0.payload) }
        var announced: [String: String?] = [:]
        for case .deliveryChanged(let bulkId, _, _, let text, let sentBy) in events where text != nil { announced[bulkId] = sentBy }
        #expect(announced == [byKey.bulkId: "ana", here.bulkId: "Ana Horvat"], "\(announced)")
    }

    @Test func aCancelAfterPartLeftIsACancelAndWhatChangedNothingAddsNoEntry() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        // Two leave now, one waits for its own (quiet-hours) time.
        var destinations = CarrierWorkTests.destinations(3)
        destinations[2].sendAt = WireTime.text(h.clock.now().addingTimeInterval(7200))
        let bulk = try await send(h, destinations)
        _ = try await h.engine.runCarrierPass()
        _ = try await h.call(CancelBulk(secret: h.creds.secret, bulkId: bulk.bulkId), as: Self.ana)
        // Nothing is held any more: a second cancel, a move and a replayed send change nothing and add nothing.
        _ = try await h.call(CancelBulk(secret: h.creds.secret, bulkId: bulk.bulkId), as: Self.ana)
        _ = try await h.call(RescheduleBulk(secret: h.creds.secret, bulkId: bulk.bulkId, sendAt: h.clock.now().addingTimeInterval(60)), as: Self.ana)
        _ = try await send(h, destinations)
        _ = try await h.call(AddOptOut(secret: h.creds.secret, number: "+385981200060"), as: Self.ana)
        _ = try await h.call(AddOptOut(secret: h.creds.secret, number: "+385981200060"), as: Self.ana)
        let entries = try await trail(h).entries
        #expect(entries.map(\.action) == ["opt-out-add", "cancel", "send"], "\(entries.map(\.action))")
        #expect(entries[1].what == "took back 1 recipient; 2 had left", "\(entries[1].what)")
    }

    @Test func aRefusedActionAddsNoEntry() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        _ = try await h.engine.receiveReply(applicationKey: h.creds.applicationKey, from: "+385981234567", text: "STOP")
        // A sender key cannot take back what the person asked for; nothing is recorded but the reply's opt-out.
        await #expect(throws: APIError.self) {
            _ = try await h.call(RemoveOptOut(secret: h.creds.secret, number: "+385981234567"), as: Self.ana)
        }
        await #expect(throws: APIError.self) { _ = try await send(h, []) }
        #expect(try await trail(h).entries.map(\.action) == ["opt-out-add"])
    }

    @Test func onlyAnAdminKeyReadsTheHistoryOfKeys() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let made = try await h.engine.createServerKey(role: .sender, name: "ana", applicationKey: h.creds.applicationKey)
        let bulk = try await send(h, CarrierWorkTests.destinations(2))
        // A viewer and a sender read the bulks' entries, never the keys'.
        for caller in [Self.vera, Self.ana] {
            let seen = try await trail(h, as: caller).entries
            #expect(seen.map(\.action) == ["send"] && seen.first?.bulkId == bulk.bulkId, "\(caller.role)")
            await #expect(throws: APIError.forbidden("only an admin key reads the history of keys")) {
                _ = try await trail(h, AuditFilter(action: .keyCreate), as: caller)
            }
        }
        // An admin key, and the terminal's own platform, read everything.
        #expect(try await trail(h, as: Self.olga).entries.map(\.action) == ["send", "key-create"])
        #expect(try await trail(h, AuditFilter(action: .keyCreate), as: Self.olga).entries.map(\.subject) == [made.info.id])
        #expect(try await trail(h).entries.count == 2)
    }

    @Test func aReadPagesByIdAndRefusesAWrongQueryNamingTheField() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        for i in 0..<5 {
            _ = try await h.call(AddOptOut(secret: h.creds.secret, number: "+38598120010\(i)"), as: Self.ana)
            h.clock.advance(by: 60)
        }
        let first = try await trail(h, AuditFilter(limit: 2))
        #expect(first.entries.map(\.subject) == ["+385981200104", "+385981200103"])
        let second = try await trail(h, AuditFilter(before: first.nextBefore, limit: 2))
        #expect(second.entries.map(\.subject) == ["+385981200102", "+385981200101"])
        let last = try await trail(h, AuditFilter(before: second.nextBefore, limit: 2))
        #expect(last.entries.map(\.subject) == ["+385981200100"] && last.nextBefore == nil)
        // Since a time: the entries at or after it.
        let since = h.clock.now().addingTimeInterval(-150)
        #expect(try await trail(h, AuditFilter(since: since)).entries.count == 2)
        for (query, field) in [(["limit": "0"], "limit"), (["limit": "1001"], "limit"), (["since": "yesterday"], "since"),
                               (["action": "delete"], "action"), (["before": "-3"], "before")] {
            let answer = await h.raw(.get, ListAudit.path.description, auth: "App \(h.creds.secret)", query: query)
            #expect(answer.status == 400, "\(query)")
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(text.contains(field), "\(query): \(text)")
        }
    }

    /// The schema itself refuses to change or remove an entry, whatever statement asks: the trail cannot be rewritten
    /// even by code that goes around the repository.
    @Test func noStatementChangesOrRemovesAnEntry() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        _ = try await h.call(AddOptOut(secret: h.creds.secret, number: "+385981200001"), as: Self.ana)
        let before = try await trail(h).entries
        for statement in ["UPDATE audit SET actor = 'nobody'", "DELETE FROM audit", "UPDATE audit SET what = '' WHERE id > 0"] {
            await #expect(throws: (any Error).self, "\(statement)") {
                try await h.engine.store.write { db in try db.execute(statement) }
            }
        }
        if h.postgresURL != nil {
            await #expect(throws: (any Error).self) { try await h.engine.store.write { db in try db.execute("TRUNCATE audit") } }
        }
        #expect(try await trail(h).entries == before)
        #expect(before.count == 1 && before.first?.actor == "ana")
    }

    /// The entry commits with its action: when the unit of work fails after the entry was added, neither stays.
    @Test func anEntryCommitsWithItsActionOrNotAtAll() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        await #expect(throws: (any Error).self) {
            try await h.engine.store.write { db in
                try db.audit.append(AuditRecord(applicationKey: app, at: 1, actor: h.engine.localAuditActor, action: .send, what: "x"))
                try db.execute("INSERT INTO no_such_table VALUES (1)")
            }
        }
        #expect(try await trail(h).entries.isEmpty)
    }
}

extension APICaller {
    /// A caller as a server vouches for it, with the client's address.
    static func auditTest(keyId: String, name: String, role: KeyRole, address: String) -> APICaller {
        var caller = APICaller(keyId: keyId, name: name, role: role)
        caller.address = address
        return caller
    }
}
