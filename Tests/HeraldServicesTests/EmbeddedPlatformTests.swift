import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

/// Round trips through the real embedded engine on a SQLite file in a temp dir.
@Suite struct EmbeddedPlatformTests {
    let clock = ManualClock()

    func openEngine(_ dir: TempDir) throws -> PlatformEngine {
        try PlatformEngine.open(at: dir.url.appendingPathComponent("engine.sqlite"), clock: clock)
    }

    @Test func invitationsRoundTripAndDeliveryInfosFollow() async throws {
        let dir = try TempDir()
        let engine = try openEngine(dir)
        let app = try await engine.bootstrapSandbox()
        let client = try await EmbeddedPlatform.sandboxClient(engine: engine)
        let sent = try await client.sendInvitation(SendInvitationBody(messageKey: app.messageKey, sender: "Herald", destinations: [
            .init(address: "385981234567", messageId: "c1", clientData: ["Ana", "Marko"]),
        ]))
        #expect(!sent.bulkId.isEmpty)
        #expect(sent.responses.count == 1)
        let infos = try await client.deliveryInfos(bulkId: sent.bulkId)
        #expect(infos.map(\.address) == ["385981234567"])
        await #expect(throws: APIError.self) { try await client.deliveryInfos(bulkId: "no-such-bulk") }
    }

    @Test func wrongSecretIsUnauthorized() async throws {
        let dir = try TempDir()
        let engine = try openEngine(dir)
        let app = try await engine.bootstrapSandbox()
        let client = EmbeddedPlatform.client(engine: engine, credentials: PlatformCredentials(
            applicationKey: app.applicationKey, applicationSecret: "wrong", applicationCode: app.applicationCode))
        await #expect(throws: APIError.unauthorized) { try await client.getMessage(key: app.messageKey) }
    }

    @Test func inboxWithAMintedJWTIsAcceptedAndAnAppCodeIsNotWhenJWTIsRequired() async throws {
        let dir = try TempDir()
        let engine = try openEngine(dir)
        let app = try await engine.bootstrapSandbox()
        let secretHex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
        try await engine.addJWTKey(applicationKey: app.applicationKey, keyId: "k1", secretHex: secretHex)
        try await engine.setInboxAuthMode(.jwt, applicationKey: app.applicationKey)
        try await engine.pushInbox(user: "user-1", topic: "promo", title: "Welcome", body: "Your friend joined")
        let client = try await EmbeddedPlatform.sandboxClient(engine: engine)

        await #expect(throws: APIError.accessTokenMissing) {
            try await client.fetchInbox(externalUserId: "user-1", filter: InboxFilter(), auth: .applicationCode)
        }
        let minter = try TokenMinter(config: InboxTokenConfig(keyId: "k1", secretHex: secretHex,
                                                              applicationCode: app.applicationCode), clock: clock)
        let inbox = try await client.fetchInbox(externalUserId: "user-1", filter: InboxFilter(), auth: .jwt(minter))
        #expect(inbox.countTotal == 1 && inbox.countUnread == 1)
        #expect(inbox.messages.first?.body == "Your friend joined")

        let seenId = try #require(inbox.messages.first?.messageId)
        try await client.markSeen(externalUserId: "user-1", messages: [.init(messageId: seenId, timestampDelta: 0)])
        let after = try await client.fetchInbox(externalUserId: "user-1", filter: InboxFilter(), auth: .jwt(minter))
        #expect(after.countUnread == 0)

        // A token for another user, or signed with another secret, is refused.
        let other = try TokenMinter(config: InboxTokenConfig(keyId: "k1", secretHex: String(repeating: "ab", count: 32),
                                                             applicationCode: app.applicationCode), clock: clock)
        await #expect(throws: APIError.unauthorized) {
            try await client.fetchInbox(externalUserId: "user-1", filter: InboxFilter(), auth: .jwt(other))
        }
    }
}
