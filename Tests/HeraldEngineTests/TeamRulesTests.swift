import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// What a server key may do to the team: an opt-out the person asked for is taken back by an admin alone; with
/// message editing off no key writes its own text, by SMS or email.
@Suite struct TeamRulesTests {
    static let sender = APICaller(keyId: "k-sender", name: "ana's terminal", role: .sender)
    static let admin = APICaller(keyId: "k-admin", name: "ops", role: .admin)

    @Test func anOptOutFromAStopReplyIsRemovedByAnAdminKeyAlone() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        _ = try await h.engine.receiveReply(applicationKey: h.creds.applicationKey, from: "+385981234567", text: "stop please")
        _ = try await h.call(AddOptOut(secret: h.creds.secret, number: "+385981234568"), as: Self.sender)

        // A sender takes back an opt-out a sender made, never one the person asked for.
        _ = try await h.call(RemoveOptOut(secret: h.creds.secret, number: "+385981234568"), as: Self.sender)
        await #expect(throws: APIError.forbidden("+385981234567 opted out by replying (reply: STOP): only an admin key takes that back")) {
            _ = try await h.call(RemoveOptOut(secret: h.creds.secret, number: "+385981234567"), as: Self.sender)
        }
        #expect(try await h.call(ListOptOuts(secret: h.creds.secret)).optOuts.map(\.number) == ["+385981234567"])
        _ = try await h.call(RemoveOptOut(secret: h.creds.secret, number: "+385981234567"), as: Self.admin)
        #expect(try await h.call(ListOptOuts(secret: h.creds.secret)).optOuts.isEmpty)

        // Nobody can dress up an opt-out of their own as the person's.
        let faked = await h.raw(.put, "/1/social-invite/optouts/+385981234569", json: #"{"source": "reply: STOP"}"#,
                                auth: "App \(h.creds.secret)")
        #expect(faked.status == 400)
    }

    @Test func withEditingOffNoKeyWritesItsOwnTextBySMSOrEmail() async throws {
        let h = try await EngineHarness.make(mailer: RecordingMailer())
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        _ = try await h.call(UpdateApplicationSettings(secret: h.creds.secret, applicationKey: app,
                                                       body: ApplicationSettingsBody(messageEditingAllowed: false)))
        await #expect(throws: APIError.forbidden("message editing is not allowed for this application")) {
            _ = try await h.call(CreateApplicationMessage(secret: h.creds.secret, applicationKey: app,
                                                          body: ApplicationMessageBody(text: "Win a prize: <>")), as: Self.sender)
        }
        let own = SendInvitationBody(messageKey: h.creds.messageKey, sender: "ana@example.com",
                                     destinations: [.init(address: "ivo@example.org", messageId: "m1")],
                                     email: .init(subject: "Hi", text: "Click here: <>"))
        await #expect(throws: APIError.forbidden("message editing is not allowed for this application")) {
            _ = try await h.call(SendInvitation(secret: h.creds.secret, body: own), as: Self.sender)
        }
        // The application's own message still goes.
        var asSet = own
        asSet.email = .init(subject: "Hi")
        let sent = try await h.call(SendInvitation(secret: h.creds.secret, body: asSet), as: Self.sender).sendSmsResponse
        #expect(sent.responses.map(\.status) == [.deliveredToNetwork])
    }
}
