import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// The engine's repositories, each asked in its own words inside a unit of work: the same assertions on SQLite and,
/// with `HERALD_TEST_ENGINE_STORE=postgres`, on PostgreSQL (the harness picks the store).
@Suite struct RepositoryTests {
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
}
