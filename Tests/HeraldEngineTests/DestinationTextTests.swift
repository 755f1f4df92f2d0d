import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

/// A destination's own text (`Destination.text`: personal fields filled by the client) and a request sent as written
/// (`asWritten`: an answer to a reply), on the store `HERALD_TEST_ENGINE_STORE` picks (SQLite or PostgreSQL).
@Suite struct DestinationTextTests {
    @Test func aDestinationsOwnTextReplacesTheMessageForItAloneWithItsLinkAndClientFields() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = try await h.invite([
            .init(address: Numbers.croatianMobile, messageId: "a", clientData: ["Ana", "Marko"],
                  text: "Hi Marko of team Blue, {SENDER_NAME} invites you: <>"),
            .init(address: Numbers.croatianMobile2, messageId: "b", clientData: ["Ana", "Mia"]),
        ])
        #expect(r.responses.map(\.status) == [.messageWaiting, .messageWaiting])
        let a = try #require(try await h.engine.sentMessage(applicationKey: h.creds.applicationKey, messageId: "a"))
        let b = try #require(try await h.engine.sentMessage(applicationKey: h.creds.applicationKey, messageId: "b"))
        let codeA = try #require(a.linkCode), codeB = try #require(b.linkCode)
        #expect(a.text == "Hi Marko of team Blue, Ana invites you: https://herald.invalid/r/\(codeA)")
        #expect(b.text == "Hi Mia, Ana invites you to Herald: https://herald.invalid/r/\(codeB)")
        #expect(r.responses[0].text == a.text)
        // Priced by its own text.
        #expect(r.responses[0].price == a.price && a.price > 0)
    }

    @Test func asWrittenLeavesExactlyAsWrittenWithNoLinkAndNoFieldFilled() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let text = "Yes {RECEIVER_NAME}, see you at 8 <> — Ana"
        let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald",
                                      destinations: [.init(address: Numbers.croatianMobile, messageId: "ans-1", clientData: ["Ana", "Marko"],
                                                           text: text),
                                                     .init(address: Numbers.croatianMobile2, messageId: "ans-2")],
                                      asWritten: true)
        let r = try await h.call(SendInvitation(secret: h.creds.secret, body: body)).sendSmsResponse
        #expect(r.responses.map(\.status) == [.messageWaiting, .rejected])
        #expect(r.responses[1].reason == "text: must be given when the request is asWritten")
        let sent = try #require(try await h.engine.sentMessage(applicationKey: h.creds.applicationKey, messageId: "ans-1"))
        #expect(sent.text == text)
        #expect(sent.linkCode == nil)
        #expect(r.responses[0].text == text)
        // A replay answers the same, and sends nothing twice.
        let again = try await h.call(SendInvitation(secret: h.creds.secret, body: body)).sendSmsResponse
        #expect(again.responses[0].messageId == "ans-1")
        #expect(again.bulkId == r.bulkId)
        #expect(try await h.engine.messages(bulkId: r.bulkId).count == 2)
    }

    @Test func aTextLongerThan1600CharactersRejectsItsDestinationAlone() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = try await h.invite([
            .init(address: Numbers.croatianMobile, messageId: "long", text: String(repeating: "a", count: 1601)),
            .init(address: "385915550001", messageId: "fits", text: String(repeating: "b", count: 1600)),
            .init(address: Numbers.croatianMobile2, messageId: "escape", text: "Hi \u{1B}[31m <>"),
        ])
        #expect(r.responses.map(\.status) == [.rejected, .messageWaiting, .rejected])
        #expect(r.responses[0].reason == "text: must have at most 1600 characters")
        #expect(r.responses[2].reason?.contains("control characters") == true)
        let fits = try #require(try await h.engine.sentMessage(applicationKey: h.creds.applicationKey, messageId: "fits"))
        #expect(fits.text?.hasPrefix(String(repeating: "b", count: 1600) + " https://herald.invalid/r/") == true)
    }

    @Test func anEmailLeavesWithItsOwnTextButNeverAsWritten() async throws {
        let mailer = RecordingMailer()
        let h = try await EngineHarness.make(mailer: mailer)
        defer { h.cleanUp() }
        var body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "ana@example.com",
                                      destinations: [.init(address: "ivo@example.org", messageId: "ivo", text: "Hi Ivo, team Blue: <>"),
                                                     .init(address: "eva@example.org", messageId: "eva",
                                                           text: String(repeating: "e", count: 2000) + " <>")],
                                      email: .init(subject: "Hi"))
        let sent = try await h.call(SendInvitation(secret: h.creds.secret, body: body)).sendSmsResponse
        #expect(sent.responses.map(\.status) == [.deliveredToNetwork, .deliveredToNetwork], "an email's own text may be longer than an SMS's")
        let ivo = try #require(try await h.engine.sentMessage(applicationKey: h.creds.applicationKey, messageId: "ivo"))
        let code = try #require(ivo.linkCode)
        #expect(ivo.text == "Hi Ivo, team Blue: https://herald.invalid/r/\(code)")
        #expect(mailer.handed.first?.body.contains("Hi Ivo, team Blue: https://herald.invalid/r/\(code)") == true)
        body.recipients.destinations = [.init(address: "mia@example.org", messageId: "mia", text: "Hi Mia")]
        body.asWritten = true
        do {
            _ = try await h.call(SendInvitation(secret: h.creds.secret, body: body))
            Issue.record("expected a bad request")
        } catch {
            guard case .badRequest(_, let errors) = error else { Issue.record("got \(error)"); return }
            #expect(errors["asWritten"] == ["an email invitation cannot be sent as written"])
        }
        #expect(try await h.engine.messagesCount() == 2)
    }

    @Test func withEditingOffAnOwnTextMustBeTheMessageWithItsPersonalFieldsFilled() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        _ = try await h.call(UpdateApplicationMessage(secret: h.creds.secret, applicationKey: app, messageId: h.creds.messageKey,
                                                      body: ApplicationMessageBody(text: "Hi {FIRST_NAME} of {TEAM}, {SENDER_NAME} says: <>")))
        _ = try await h.call(UpdateApplicationSettings(secret: h.creds.secret, applicationKey: app,
                                                       body: ApplicationSettingsBody(messageEditingAllowed: false)))
        let r = try await h.invite([
            .init(address: Numbers.croatianMobile, messageId: "filled", clientData: ["Ana"], text: "Hi Marko of Blue, {SENDER_NAME} says: <>"),
            .init(address: "385915550001", messageId: "empty", clientData: ["Ana"], text: "Hi of Red, {SENDER_NAME} says: <>"),
            .init(address: Numbers.croatianMobile2, messageId: "own", clientData: ["Ana"], text: "Win a prize: <>"),
        ])
        #expect(r.responses.map(\.status) == [.messageWaiting, .messageWaiting, .rejected])
        #expect(r.responses[2].reason?.contains("message editing is off") == true)
        let filled = try #require(try await h.engine.sentMessage(applicationKey: app, messageId: "filled"))
        #expect(filled.text?.hasPrefix("Hi Marko of Blue, Ana says: https://herald.invalid/r/") == true)
    }

    @Test func anOptedOutNumberIsRefusedAnAnswerToo() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        _ = try await h.call(AddOptOut(secret: h.creds.secret, number: "+" + Numbers.croatianMobile))
        let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald",
                                      destinations: [.init(address: Numbers.croatianMobile, messageId: "x", text: "Sorry, wrong number")],
                                      asWritten: true)
        let r = try await h.call(SendInvitation(secret: h.creds.secret, body: body)).sendSmsResponse
        #expect(r.responses.map(\.status) == [.rejected])
        #expect(r.responses[0].reason?.contains("opted out") == true, "\(r.responses[0].reason ?? "")")
    }

    @Test func filledInMatchesLiteralRunsAroundPersonalFieldsOnly() {
        let t = MessageTemplate(text: "Hi {FIRST_NAME}, {SENDER_NAME} and {TEAM}: <>")
        #expect(PlatformEngine.isFilledIn("Hi Ana, {SENDER_NAME} and Blue: <>", of: t))
        #expect(PlatformEngine.isFilledIn("Hi, {SENDER_NAME} and : <>", of: t))
        #expect(!PlatformEngine.isFilledIn("Hi Ana, Marko and Blue: <>", of: t))     // a client field is the platform's
        #expect(!PlatformEngine.isFilledIn("Hi Ana, {SENDER_NAME} and Blue: <> win", of: t))
        #expect(!PlatformEngine.isFilledIn("Hey Ana, {SENDER_NAME} and Blue: <>", of: t))
        #expect(PlatformEngine.isFilledIn("Plain <>", of: MessageTemplate(text: "Plain <>")))
        #expect(!PlatformEngine.isFilledIn("Plain! <>", of: MessageTemplate(text: "Plain <>")))
    }
}
