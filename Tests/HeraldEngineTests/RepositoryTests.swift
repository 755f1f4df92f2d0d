import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// The engine's repositories, each asked in its own words inside a unit of work: the same assertions on SQLite and,
/// with `HERALD_TEST_ENGINE_STORE=postgres`, on PostgreSQL (the harness picks the store).
@Suite struct RepositoryTests {
    @Test func auditEntriesAreReadNewestFirstByBulkTimeActionAndPageAndKeysOnlyWhenAsked() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let who = AuditActor(name: "ana", keyId: "k1", role: "sender", address: "10.0.0.7")
        let records = [AuditRecord(applicationKey: app, at: 1_000, actor: who, action: .send, bulkId: "b1", what: "2 recipients"),
                       AuditRecord(applicationKey: app, at: 2_000, actor: who, action: .keyCreate, subject: "k2", what: "key made"),
                       AuditRecord(applicationKey: app, at: 3_000, actor: who, action: .resend, bulkId: "b2", subject: "b1", what: "1 recipient"),
                       AuditRecord(applicationKey: "other", at: 4_000, actor: who, action: .send, bulkId: "b9", what: "not ours")]
        try await h.engine.store.write { db in for r in records { try db.audit.append(r) } }
        func read(_ q: AuditQuery) async throws -> [AuditEntry] {
            try await h.engine.store.read { db in try db.audit.entries(applicationKey: app, q) }
        }
        let all = AuditQuery(bulkId: nil, since: nil, action: nil, before: nil, limit: 10, includesKeys: true)
        let everything = try await read(all)
        #expect(everything.map(\.action) == ["resend", "key-create", "send"])
        #expect(everything.last == AuditEntry(id: everything.last?.id ?? 0, at: "1970-01-01T00:00:01.000Z", actor: "ana", keyId: "k1",
                                               role: "sender", address: "10.0.0.7", action: "send", bulkId: "b1", subject: nil,
                                               what: "2 recipients"))
        var q = all
        q.includesKeys = false
        #expect(try await read(q).map(\.action) == ["resend", "send"])
        q = all
        q.bulkId = "b1"
        #expect(try await read(q).map(\.action) == ["resend", "send"], "a resend of b1 names it as its subject")
        q = all
        q.since = 2_000
        #expect(try await read(q).count == 2)
        q = all
        q.action = .send
        #expect(try await read(q).map(\.bulkId) == ["b1"])
        q = all
        q.limit = 1
        let newest = try await read(q)
        q.before = newest.first?.id
        let older = try await read(q)
        #expect(newest.map(\.action) == ["resend"] && older.map(\.action) == ["key-create"])
    }

    @Test func anOptOutAddedIsListedOnceKeepsItsFirstDayAndIsRemovedOnce() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let store = h.engine.store
        let first = try await store.write { db in try db.optOuts.add(applicationKey: app, msisdn: "385981200001", source: "herald", at: 1_000) }
        let again = try await store.write { db in try db.optOuts.add(applicationKey: app, msisdn: "385981200001", source: "other", at: 9_000) }
        #expect(again == first, "an opt-out added again is kept as it was")
        _ = try await store.write { db in try db.optOuts.add(applicationKey: app, msisdn: "385981200002", source: "herald", at: 2_000) }
        let listed = try await store.read { db in try db.optOuts.list(applicationKey: app) }
        #expect(listed.map(\.number) == ["+385981200002", "+385981200001"], "newest first")
        let among = try await store.read { db in
            try db.optOuts.optedOut(applicationKey: app, msisdns: ["385981200001", "385981200003", "385981200001"])
        }
        #expect(among == ["385981200001": Date(epochMilliseconds: 1_000)])
        #expect(try await store.read { db in try db.optOuts.optedOut(applicationKey: "another", msisdns: ["385981200001"]) }.isEmpty)
        #expect(try await store.write { db in try db.optOuts.remove(applicationKey: app, msisdn: "385981200001") })
        #expect(try await !store.write { db in try db.optOuts.remove(applicationKey: app, msisdn: "385981200001") })
        #expect(try await store.read { db in try db.optOuts.find(applicationKey: app, msisdn: "385981200001") } == nil)
    }

    @Test func aHeldBulkIsMovedTakenBackOnceAndReleasedWhenDue() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let store = h.engine.store
        let at = h.clock.now().addingTimeInterval(600)
        func sendHeld(_ tag: String) async throws -> String {
            let destinations = (0..<3).map { SendInvitationBody.Destination(address: "38598120000\($0)", messageId: "\(tag)-\($0)") }
            let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald", destinations: destinations,
                                          sendAt: WireTime.text(at))
            return try await h.call(SendInvitation(secret: h.creds.secret, body: body)).sendSmsResponse.bulkId
        }
        let bulk = try await sendHeld("first")
        let now = h.clock.now().epochMilliseconds
        let schedule = try #require(try await store.read { db in try db.holds.schedule(applicationKey: app, bulkId: bulk, now: now) })
        #expect(schedule.held == 3 && schedule.left == 0 && schedule.sendAt == WireTime.text(at))
        #expect(try await store.read { db in try db.holds.schedule(applicationKey: "another", bulkId: bulk, now: now) } == nil)
        #expect(try await store.read { db in try db.holds.isEmailBulk(bulk) } == false)

        // Moved later: still held, at the new time.
        let later = at.addingTimeInterval(600).epochMilliseconds
        try await store.write { db in try db.holds.move(bulkId: bulk, to: later, now: now) }
        let moved = try await store.read { db in try db.holds.schedule(applicationKey: app, bulkId: bulk, now: now) }
        #expect(moved?.sendAt == WireTime.text(Date(epochMilliseconds: later)) && moved?.held == 3)

        // Released before its time: nothing leaves; at its time: all of it.
        try await store.write { db in try db.holds.releaseDue(at: later - 1) }
        #expect(try await store.read { db in try db.holds.held(bulkId: bulk, now: now) }.count == 3)
        try await store.write { db in try db.holds.releaseDue(at: later) }
        #expect(try await store.read { db in try db.holds.held(bulkId: bulk, now: now) }.isEmpty)

        // A second bulk taken back: cancelled once, nothing held after.
        let second = try await sendHeld("second")
        try await store.write { db in try db.holds.cancel(bulkId: second, heldAt: now, stamp: now) }
        let cancelled = try await store.read { db in try db.holds.schedule(applicationKey: app, bulkId: second, now: now) }
        #expect(cancelled?.cancelled == 3 && cancelled?.held == 0)
        try await store.write { db in try db.holds.cancel(bulkId: second, heldAt: now, stamp: now + 1) }
        #expect(try await store.read { db in try db.holds.schedule(applicationKey: app, bulkId: second, now: now) } == cancelled)
    }

    @Test func anInboxMessageIsPagedByFilterAndMarkedSeenOnceAndATokenIdIsUsedOnce() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let store = h.engine.store
        try await store.write { db in
            for i in 0..<4 {
                let message = InboxWireMessage(messageId: "m\(i)", title: nil, body: "body \(i)", topic: i % 2 == 0 ? "news" : "promo",
                                               sendDateTime: Int64(1_000 * (i + 1)), seen: false)
                try db.inbox.add(message, applicationKey: app, user: "ana")
            }
        }
        #expect(try await store.read { db in try db.inbox.count(applicationKey: app, user: "ana") } == 4)
        #expect(try await store.read { db in try db.inbox.count(applicationKey: app, user: "ben") } == 0)
        let news = try await store.read { db in try db.inbox.page(applicationKey: app, user: "ana", filter: InboxFilter(topic: "news")) }
        #expect(news.messages.map(\.messageId) == ["m2", "m0"], "newest first")
        #expect(news.countTotal == 4 && news.countUnread == 4 && news.countTotalFiltered == 2 && news.countUnreadFiltered == 2)
        try await store.write { db in try db.inbox.markSeen(applicationKey: app, user: "ana", messageId: "m2", at: 5_000) }
        try await store.write { db in try db.inbox.markSeen(applicationKey: app, user: "ben", messageId: "m0", at: 5_000) }
        let after = try await store.read { db in try db.inbox.page(applicationKey: app, user: "ana", filter: InboxFilter(topic: "news")) }
        #expect(after.countUnread == 3 && after.countUnreadFiltered == 1 && after.messages.first?.seen == true)

        #expect(try await store.write { db in try db.inbox.useTokenId("jti-1", applicationKey: app, expiresAt: 90_000_000, now: 1_000) })
        #expect(try await !store.write { db in try db.inbox.useTokenId("jti-1", applicationKey: app, expiresAt: 90_000_000, now: 2_000) })
        // Expired a day before now, it is forgotten (and could be used again, were the token still valid).
        #expect(try await store.write { db in try db.inbox.useTokenId("jti-1", applicationKey: app, expiresAt: 500_000_000, now: 200_000_000) })
    }

    @Test func aServerKeyIsFoundByItsHashUntilRevokedOnceAndJWTKeysAreReplaced() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let store = h.engine.store
        let info = ServerKeyInfo(id: "k1", name: "ops", role: .sender, applicationKey: app, createdAt: Date(epochMilliseconds: 1_000),
                                 revokedAt: nil)
        try await store.write { db in try db.keys.add(info, hash: "hash-1") }
        #expect(try await store.read { db in try db.keys.live(hash: "hash-1") } == info)
        #expect(try await store.read { db in try db.keys.liveKeyNamed("ops") })
        #expect(try await store.read { db in try db.keys.live(hash: "hash-2") } == nil)
        let revoked = try await store.write { db in try db.keys.revoke(idOrName: "ops", at: 2_000) }
        #expect(revoked?.id == "k1" && revoked?.revokedAt == Date(epochMilliseconds: 2_000))
        #expect(try await store.write { db in try db.keys.revoke(idOrName: "k1", at: 3_000) } == nil, "revoked once")
        #expect(try await store.read { db in try db.keys.live(hash: "hash-1") } == nil)
        #expect(try await store.read { db in try db.keys.revokedIds() } == ["k1"])
        #expect(try await store.read { db in try db.keys.all() } == [revoked].compactMap { $0 })

        try await store.write { db in try db.keys.putJWTKey(applicationKey: app, keyId: "b", secretHex: "01") }
        try await store.write { db in try db.keys.putJWTKey(applicationKey: app, keyId: "a", secretHex: "02") }
        try await store.write { db in try db.keys.putJWTKey(applicationKey: app, keyId: "b", secretHex: "03") }
        #expect(try await store.read { db in try db.keys.jwtKeys(applicationKey: app) }
                == [JWTKeyInfo(keyId: "a", secretHex: "02"), JWTKeyInfo(keyId: "b", secretHex: "03")])
        #expect(try await store.read { db in try db.keys.jwtSecretHex(applicationKey: app, keyId: "b") } == "03")
        try await store.write { db in try db.keys.removeJWTKey(applicationKey: app, keyId: "b") }
        #expect(try await store.read { db in try db.keys.jwtSecretHex(applicationKey: app, keyId: "b") } == nil)
    }

    /// Two messages of a new bulk, stored as a send stores them: one in the outbox, one held.
    private func storeBulk(_ h: EngineHarness, id: String, at: Int64) async throws {
        let app = h.creds.applicationKey
        @Sendable func message(_ n: Int, notBefore: Date?) -> SentMessage {
            SentMessage(messageId: "\(id)-\(n)", bulkId: id, address: "38598120000\(n)", accepted: true, reason: nil, text: "hi",
                        price: 0.01, currency: nil, permanentFailure: false, sentAt: Date(epochMilliseconds: at), linkCode: "\(id)L\(n)",
                        status: notBefore == nil ? .messageWaiting : .scheduled, notBefore: notBefore)
        }
        try await h.engine.store.write { db in
            try db.bulks.addBulk(id: id, applicationKey: app, messageKey: h.creds.messageKey, sender: "Herald", subject: nil, at: at)
            let taken = try db.links.addMessageLinks([("\(id)L0", "\(id)-0"), ("\(id)L1", "\(id)-1")], applicationKey: app, at: at)
            #expect(taken == ["\(id)L0", "\(id)L1"])
            try db.bulks.insert([NewSentRow(message: message(0, notBefore: nil), position: 0, outbox: 1, email: false),
                                 NewSentRow(message: message(1, notBefore: Date(epochMilliseconds: at + 60_000)), position: 1, outbox: 3,
                                            email: false)],
                                applicationKey: app, at: at)
        }
    }

    @Test func aBulkStoredIsReadBackInOrderWithItsLinksClicksAndOwners() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let store = h.engine.store
        try await storeBulk(h, id: "b1", at: 1_000)
        #expect(try await store.read { db in try db.bulks.exists("b1", applicationKey: app) })
        #expect(try await !store.read { db in try db.bulks.exists("b1", applicationKey: "another") })
        #expect(try await store.read { db in try db.bulks.messages(bulkId: "b1") }.map(\.messageId) == ["b1-0", "b1-1"])
        #expect(try await store.read { db in try db.bulks.messages(applicationKey: app, ids: ["b1-1", "nope"]) }.keys.sorted() == ["b1-1"])
        #expect(try await store.read { db in try db.bulks.message(applicationKey: app, id: "b1-0") }?.linkCode == "b1L0")
        #expect(try await store.read { db in try db.bulks.accepted(bulkId: "b1", applicationKey: "another") } == nil)
        let outcomes = try await store.read { db in try db.bulks.outcomes(bulkIds: ["b1"]).mapValues(\.status) }
        #expect(outcomes == ["b1-0": .messageWaiting, "b1-1": .scheduled])
        #expect(try await store.read { db in try db.bulks.owners(messageIds: ["b1-0"]) }["b1-0"]?.map(\.bulk) == ["b1"])

        // A code taken already is left out; a click counts on the link and shows on the bulk's messages.
        #expect(try await store.write { db in try db.links.addMessageLinks([("b1L0", "x")], applicationKey: app, at: 2_000) }.isEmpty)
        #expect(try await store.write { db in try db.links.click(code: "b1L0", times: 2) }?.clicks == 2)
        #expect(try await store.write { db in try db.links.click(code: "unknown") } == nil)
        #expect(try await store.read { db in try db.links.find(applicationKey: app, messageId: "b1-0") }?.clicks == 2)
        let accepted = try await store.read { db in try db.bulks.accepted(bulkId: "b1", applicationKey: app) }
        #expect(accepted?.map(\.clicks) == [2, 0])
        #expect(try await store.write { db in try db.links.addReferral(code: "ref1", applicationKey: app, referrer: "ana", at: 1) })
        #expect(try await !store.write { db in try db.links.addReferral(code: "ref1", applicationKey: app, referrer: "ben", at: 1) })
        #expect(try await store.read { db in try db.links.find(applicationKey: app, referrer: "ana") }?.code == "ref1")
    }

    @Test func anOutboxMessageIsClaimedOnceUntilItsLeaseRunsOutAndAReportIsStoredOnce() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let store = h.engine.store
        try await storeBulk(h, id: "b2", at: 1_000)
        #expect(try await store.read { db in try db.outbox.nextDue() } == 61_000, "the held message's time")
        let claimed = try await store.write { db in try db.outbox.claimSMS(at: 2_000, lease: 10_000, bulkId: nil, limit: 100) }
        #expect(claimed.map(\.message.messageId) == ["b2-0"] && claimed.first?.message.mayHaveBeenSent == false)
        #expect(try await store.write { db in try db.outbox.claimSMS(at: 3_000, lease: 11_000, bulkId: nil, limit: 100) }.isEmpty,
                "claimed once, not twice")
        let again = try await store.write { db in try db.outbox.claimSMS(at: 10_000, lease: 20_000, bulkId: "b2", limit: 100) }
        #expect(again.map(\.message.messageId) == ["b2-0"] && again.first?.message.mayHaveBeenSent == true, "its lease ran out")
        #expect(try await store.read { db in try db.outbox.carrierQueue() } == 2)

        // The report: handed over, due again at 30,000.
        let found = try await store.read { db in try db.outbox.reported(applicationKey: app, ids: ["b2-0"]) }
        #expect(found["b2-0"]?.outbox == 2)
        let update = ReportedUpdate(messageId: "b2-0", status: .messageWaiting, nextCheckAt: 30_000, price: 0.02, currency: "EUR",
                                    reason: nil, permanent: false)
        try await store.write { db in try db.outbox.store([update], applicationKey: app, at: 12_000) }
        let due = try await store.read { db in try db.outbox.dueReports(by: 30_000, bulkId: nil, after: (Int64.min, ""), limit: 10) }
        #expect(due.map(\.messageId) == ["b2-0"] && due.first?.nextCheckAt == 30_000)
        #expect(try await store.read { db in try db.outbox.dueReports(by: 29_999, bulkId: nil, after: (Int64.min, ""), limit: 10) }.isEmpty)
        #expect(try await store.read { db in try db.outbox.dueReports(by: 30_000, bulkId: nil, after: (30_000, "b2-0"), limit: 10) }.isEmpty,
                "the page after the last one read")
        #expect(try await store.read { db in try db.outbox.reported(applicationKey: app, ids: ["b2-0"]) }["b2-0"]?.currency == "EUR")

        // Put back in the outbox (as a crash before the hand-over leaves a bulk), it is claimed again; no email waits.
        try await store.write { db in try db.outbox.reset(bulkId: "b2", toOutbox: 1) }
        #expect(try await store.write { db in try db.outbox.claimSMS(at: 13_000, lease: 20_000, bulkId: nil, limit: 100) }.count == 2,
                "every accepted message of the bulk, the held one too")
        #expect(try await !store.read { db in try db.outbox.mailWaiting(at: 100_000, bulkId: nil) })
        #expect(try await store.write { db in try db.outbox.claimMail(bulkId: nil, lease: 1) } == nil)
    }

    @Test func eventsAreNumberedInOrderReadAfterAnIdAndPruned() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let store = h.engine.store
        let (before, _) = try await store.read { db in try db.events.range(applicationKey: "app") }
        #expect(before == 0)
        try await store.write { db in
            for i in 1...3 { try db.events.append(applicationKey: "app", type: "t\(i)", payload: Data("{}".utf8), at: Int64(i * 1_000)) }
        }
        let all = try await store.read { db in try db.events.after(0, applicationKey: "app", limit: 10) }
        #expect(all.map(\.type) == ["t1", "t2", "t3"])
        #expect(try await store.read { db in try db.events.after(all[0].id, applicationKey: "app", limit: 1) }.map(\.type) == ["t2"])
        #expect(try await store.write { db in try db.events.prune(before: 2_000) } == 1)
        let (newest, oldest) = try await store.read { db in try db.events.range(applicationKey: "app") }
        #expect(newest == all[2].id && oldest == all[1].id)
    }

    @Test func anApplicationIsFoundByKeySecretAndCodeItsSettingsChangeAndMetaIsSetOnce() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let creds = h.creds
        let store = h.engine.store
        #expect(try await store.read { db in try db.applications.find(secret: creds.secret) }?.key == creds.applicationKey)
        #expect(try await store.read { db in try db.applications.find(code: creds.applicationCode) }?.key == creds.applicationKey)
        #expect(try await store.read { db in try db.applications.find(secret: creds.applicationCode) } == nil)
        #expect(try await store.read { db in try db.applications.count() } == 1)
        try await store.write { db in try db.applications.update(key: creds.applicationKey, inboxAuthMode: .jwt) }
        let app = try #require(try await store.read { db in try db.applications.find(key: creds.applicationKey) })
        #expect(app.inboxAuthMode == .jwt && app.messageEditingAllowed, "a setting not given is kept")
        #expect(try await store.write { db in try db.applications.metaOnce("token", "first") } == "first")
        #expect(try await store.write { db in try db.applications.metaOnce("token", "second") } == "first")
        try await store.write { db in try db.applications.setMeta("token", "third") }
        #expect(try await store.read { db in try db.applications.meta("token") } == "third")

        #expect(try await store.read { db in try db.applications.messageExists(key: creds.messageKey) })
        var message = try #require(try await store.read { db in try db.applications.message(applicationKey: creds.applicationKey, key: creds.messageKey) })
        #expect(try await store.read { db in try db.applications.message(applicationKey: "another", key: creds.messageKey) } == nil)
        message.text = "changed <>"
        try await store.write { [message] db in try db.applications.updateMessage(message, at: 5) }
        #expect(try await store.read { db in try db.applications.message(applicationKey: creds.applicationKey, key: creds.messageKey) }?.text
                == "changed <>")
    }
}
