import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

@Suite struct TemplateServiceTests {
    @Test func defaultAndCustomMessagesAreReadWrittenAndCached() async throws {
        let h = try await WorkspaceHarness()
        let templates = h.workspace.templates
        let d = try await templates.defaultMessage()
        #expect(d.text == PlatformEngine.defaultMessageText)

        let custom = try await templates.create(text: "Join {SENDER_NAME} on Herald: <>", key: "join")
        #expect(custom.key == "join")
        #expect(try await templates.message(key: "join").text == "Join {SENDER_NAME} on Herald: <>")
        let updated = try await templates.update(key: "join", text: "Come along, {RECEIVER_NAME} <>")
        #expect(updated.text == "Come along, {RECEIVER_NAME} <>")
        let listed = await templates.list()
        #expect(listed.map(\.key) == [d.key, "join"])

        // When the platform is down, the cache answers.
        await h.workspace.engine.injectFaults(.serverError(status: 503), pathPrefix: "/1/social-invite/application")
        #expect(try await templates.message(key: "join").text == "Come along, {RECEIVER_NAME} <>")
    }

    @Test func editsAreRefusedWithAClearMessageWhenTheApplicationForbidsThem() async throws {
        let h = try await WorkspaceHarness()
        let key = try await h.workspace.templates.defaultMessageKey()
        try await h.workspace.engine.setMessageEditingAllowed(false, applicationKey: h.workspace.credentials.applicationKey)
        do {
            _ = try await h.workspace.templates.update(key: key, text: "changed <>")
            Issue.record("the edit must be refused")
        } catch {
            #expect(error == .editingDisabled(key: key))
            #expect(error.userMessage.contains("does not allow message editing"))
        }
        #expect(try await h.workspace.templates.message(key: key).text == PlatformEngine.defaultMessageText)
        #expect(try await h.workspace.templates.isEditingAllowed() == false)
    }

    @Test func textsArePrecheckedBeforeThePlatformIsCalled() async throws {
        let h = try await WorkspaceHarness()
        await #expect(throws: TemplateError.emptyText) { try await h.workspace.templates.create(text: "  \n") }
        // A field beyond the five client fields is a personal one, filled per recipient at send time.
        let personal = try await h.workspace.templates.create(text: "Hi {FIRST_NAME|there}, {TEAM} plays <>")
        #expect(try await h.workspace.templates.message(key: personal.key).text == "Hi {FIRST_NAME|there}, {TEAM} plays <>")
        await #expect(throws: TemplateError.notFound(key: "nope")) { try await h.workspace.templates.message(key: "nope") }
    }
}
