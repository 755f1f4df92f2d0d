import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// A server's email leaves from its own address (`[smtp] from`), the client's name before it and its address at most a
/// Reply-To in an allowed domain; a key sends so many emails an hour.
@Suite struct MailIdentityTests {
    static let sender = TeamRulesTests.sender
    static let admin = TeamRulesTests.admin

    @Test func emailLeavesFromTheServersAddressWithTheClientsNameAndReplyTo() async throws {
        let mailer = RecordingMailer()
        var config = EngineConfig()
        config.mailIdentity = MailIdentity(from: try EmailAddress(mailbox: "Team <invite@example.com>"))
        let h = try await EngineHarness.make(config: config, mailer: mailer)
        defer { h.cleanUp() }
        func send(from sender: String, id: String) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
            let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: sender,
                                          destinations: [.init(address: "ivo@example.org", messageId: id)], email: .init(subject: "Hi"))
            return try await h.call(SendInvitation(secret: h.creds.secret, body: body), as: Self.sender).sendSmsResponse
        }
        _ = try await send(from: "Ana Horvat <ana@example.com>", id: "a")
        _ = try await send(from: "invite@example.com", id: "b")
        let handed = mailer.handed
        #expect(handed.map(\.from.description) == ["Ana Horvat <invite@example.com>", "Team <invite@example.com>"])
        #expect(handed.map { $0.replyTo?.description } == ["Ana Horvat <ana@example.com>", nil])
        #expect(handed[0].rendered().contains("\r\nReply-To: Ana Horvat <ana@example.com>\r\n"))

        let problem = "ceo@elsewhere.example cannot be a Reply-To of this server (domains allowed: example.com); "
            + "its email leaves from invite@example.com"
        await #expect(throws: APIError.badRequest("invalid sender: \(problem)", validationErrors: ["sender": [problem]])) {
            _ = try await send(from: "Chief Executive <ceo@elsewhere.example>", id: "c")
        }
        #expect(mailer.handed.count == 2)
    }

    @Test func theOperatorCanKeepTheNameTooAndAllowNoReplyTo() throws {
        let identity = MailIdentity(from: try EmailAddress(mailbox: "Team <invite@example.com>"), clientDisplayNames: false,
                                    replyToDomains: [])
        let ana = try EmailAddress(mailbox: "Ana <ana@example.com>")
        #expect(identity.problem(with: ana) != nil)
        let (from, replyTo) = identity.headers(for: try EmailAddress(mailbox: "Chief Executive <invite@example.com>"))
        #expect(from.description == "Team <invite@example.com>" && replyTo == nil)
    }

    @Test func aKeySendsAtMostItsEmailsAnHour() async throws {
        var config = EngineConfig()
        config.emailsPerKeyPerHour = 3
        let h = try await EngineHarness.make(config: config, mailer: RecordingMailer())
        defer { h.cleanUp() }
        func send(_ count: Int, from id: String, as caller: APICaller) async throws(APIError) {
            let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "ana@example.com",
                                          destinations: (0..<count).map { .init(address: "p\($0)@example.org", messageId: "\(id)-\($0)") },
                                          email: .init(subject: "Hi"))
            _ = try await h.call(SendInvitation(secret: h.creds.secret, body: body), as: caller)
        }
        await #expect(throws: APIError.self) { try await send(4, from: "all", as: Self.sender) }
        try await send(2, from: "first", as: Self.sender)
        h.clock.advance(by: 600)
        try await send(1, from: "second", as: Self.sender)
        do {
            try await send(1, from: "third", as: Self.sender)
            Issue.record("a fourth email within the hour went")
        } catch {
            // The first two leave the hour 50 minutes from now.
            #expect(error == .tooManyRequests(retryAfter: 3000))
        }
        try await send(3, from: "other", as: Self.admin)    // another key has its own hour
        h.clock.advance(by: 3000)
        try await send(1, from: "later", as: Self.sender)
    }
}
