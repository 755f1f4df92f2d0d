import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

@Suite struct RoutingTests {
    @Test func bootstrapIsCreatedOnceAndReturnedAgain() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        #expect(try await h.engine.bootstrapSandbox() == h.creds)
        #expect(try await h.reopen().bootstrapSandbox() == h.creds)
        #expect(h.creds.secret != h.creds.applicationCode)
    }

    @Test func aFileThatIsNotADatabaseIsNamedWithSQLitesWordsNeverItsSQL() throws {
        let tempDir = try TempDir("engine")
        let folder = tempDir.url
        let url = folder.appendingPathComponent("engine.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: url)
        do {
            _ = try PlatformEngine.open(at: url)
            Issue.record("a file of 'A's is not a database")
        } catch {
            let text = String(describing: error)
            #expect(text.contains("cannot open \(url.path)"))
            #expect(text.contains("SQLite error 26"))
            #expect(!text.contains("while executing"))
            #expect(!text.uppercased().contains("PRAGMA") && !text.uppercased().contains("CREATE TABLE"))
        }
    }

    @Test func unknownEndpointIsNotFound() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = await h.raw(.get, "/1/nothing/here", auth: "App \(h.creds.secret)")
        #expect(r.status == 404)
        #expect(apiError(r) == .notFound("no endpoint GET /1/nothing/here"))
        #expect(await h.raw(.delete, "/1/social-invite/invitation").status == 404)
    }

    @Test func messagesGetCreateUpdateWithLiteralJSON() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let auth = "App \(h.creds.secret)"
        let got = await h.raw(.get, "/1/social-invite/application/\(app)/message/\(h.creds.messageKey)", auth: auth)
        #expect(got.status == 200)
        let m = jsonObject(got.body)
        #expect(m["key"] as? String == h.creds.messageKey)
        #expect(m["clientMobileApplicationKey"] as? String == app)
        #expect(m["placeholder"] as? String == "<>")
        #expect(m["clientPlaceholder"] as? String == "RECEIVER_NAME,SENDER_NAME")

        let created = await h.raw(.post, "/1/social-invite/application/\(app)/message",
                                  json: #"{"key": "M2", "text": "Join {SENDER_NAME} at [link]", "placeholder": "[link]"}"#, auth: auth)
        #expect(created.status == 201)
        #expect(jsonObject(created.body)["text"] as? String == "Join {SENDER_NAME} at [link]")
        let dup = await h.raw(.post, "/1/social-invite/application/\(app)/message", json: #"{"key": "M2", "text": "x"}"#, auth: auth)
        #expect(dup.status == 400)
        let empty = await h.raw(.post, "/1/social-invite/application/\(app)/message", json: #"{"text": "  "}"#, auth: auth)
        #expect(apiError(empty) == .badRequest("the message is not valid", validationErrors: ["text": ["must not be empty"]]))

        let updated = try await h.call(UpdateApplicationMessage(secret: h.creds.secret, applicationKey: app, messageId: "M2",
                                                                body: ApplicationMessageBody(text: "Now: [link]")))
        #expect(updated.text == "Now: [link]")
        #expect(updated.placeholder == "[link]")
        #expect(updated.clientPlaceholder == nil)

        // The new message renders with its own placeholder.
        let sent = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "r1")], messageKey: "M2")
        let text = try await h.engine.sentMessage(applicationKey: app, messageId: "r1")?.text
        #expect(text?.hasPrefix("Now: https://herald.invalid/r/") == true)
        #expect(sent.responses.first?.status == .messageWaiting)

        await #expect(throws: APIError.notFound("Message NOPE not found")) {
            try await h.call(GetApplicationMessage(secret: h.creds.secret, applicationKey: app, messageId: "NOPE"))
        }
    }

    @Test func editingRefusedWhenTheApplicationForbidsIt() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let settings = try await h.call(UpdateApplicationSettings(secret: h.creds.secret, applicationKey: app,
                                                                  body: ApplicationSettingsBody(messageEditingAllowed: false)))
        #expect(settings.messageEditingAllowed == false)
        #expect(settings.defaultMessageKey == h.creds.messageKey)
        await #expect(throws: APIError.forbidden("message editing is not allowed for this application")) {
            try await h.call(UpdateApplicationMessage(secret: h.creds.secret, applicationKey: app, messageId: h.creds.messageKey,
                                                      body: ApplicationMessageBody(text: "changed <>")))
        }
        let still = try await h.call(GetApplicationMessage(secret: h.creds.secret, applicationKey: app, messageId: h.creds.messageKey))
        #expect(still.text == PlatformEngine.defaultMessageText)
        #expect(try await h.call(GetApplicationSettings(secret: h.creds.secret, applicationKey: app)).messageEditingAllowed == false)
    }

    @Test func anotherApplicationsSecretCannotTouchThisOne() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let other = try await h.engine.createApplication(name: "other")
        await #expect(throws: APIError.unauthorized) {
            try await h.call(GetApplicationMessage(secret: other.secret, applicationKey: h.creds.applicationKey, messageId: h.creds.messageKey))
        }
        await #expect(throws: APIError.unauthorized) {
            try await h.call(GetApplicationSettings(secret: other.secret, applicationKey: h.creds.applicationKey))
        }
    }

    @Test func referralLinksAndClicks() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        _ = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "ref-1")])
        let link = try await h.call(GetReferralLink(secret: h.creds.secret, applicationKey: app, subject: .message(id: "ref-1")))
        #expect(link.url == "https://herald.invalid/r/\(link.code)")
        #expect(link.clicks == 0)
        #expect(link.messageId == "ref-1")
        #expect(try await h.engine.recordClick(code: link.code) == 1)
        let served = await h.raw(.get, "/r/\(link.code)")
        #expect(served.status == 302)
        #expect(served.header("Location") == "https://herald.invalid/download")
        #expect(try await h.call(GetReferralLink(secret: h.creds.secret, applicationKey: app, subject: .message(id: "ref-1"))).clicks == 2)
        #expect(try await h.engine.recordClick(code: "nope") == nil)
        #expect(await h.raw(.get, "/r/nope").status == 404)

        let mine = try await h.call(GetReferralLink(secret: h.creds.secret, applicationKey: app, subject: .referrer("Ana")))
        let again = try await h.call(GetReferralLink(secret: h.creds.secret, applicationKey: app, subject: .referrer("Ana")))
        #expect(mine == again)
        #expect(mine.code != link.code)
        await #expect(throws: APIError.notFound("No link for message zzz")) {
            try await h.call(GetReferralLink(secret: h.creds.secret, applicationKey: app, subject: .message(id: "zzz")))
        }
        let neither = await h.raw(.get, "/herald/1/application/\(app)/referral", auth: "App \(h.creds.secret)")
        #expect(neither.status == 400)
    }

    @Test func shortLinkBaseIsConfigurable() async throws {
        let h = try await EngineHarness.make(config: EngineConfig(shortLinkBase: "https://go.example.test/"))
        defer { h.cleanUp() }
        _ = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "s1")])
        let text = try await h.engine.sentMessage(applicationKey: h.creds.applicationKey, messageId: "s1")?.text
        #expect(text?.contains("https://go.example.test/") == true)
    }
}
