import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

/// Turning message editing off and on through the platform's settings.
@Suite struct TemplateEditingTests {
    @Test func editingCanBeTurnedOffAndOnAgainThroughThePlatform() async throws {
        let h = try await WorkspaceHarness()
        let templates = h.workspace.templates
        let key = try await templates.defaultMessageKey()
        #expect(try await templates.isEditingAllowed() == true)

        let off = try await templates.setEditingAllowed(false)
        #expect(off.messageEditingAllowed == false)
        #expect(off.defaultMessageKey == key)  // the rest of the settings stay as they were
        // Another client of the same platform sees the change.
        #expect(try await h.workspace.platform.applicationSettings().messageEditingAllowed == false)
        do {
            _ = try await templates.update(key: key, text: "Changed <>")
            Issue.record("the edit must be refused while editing is off")
        } catch {
            #expect(error == .editingDisabled(key: key))
            #expect(error.userMessage.contains("herald templates editing on"))
        }

        try await templates.setEditingAllowed(true)
        #expect(try await templates.update(key: key, text: "Changed <>").text == "Changed <>")
    }

    @Test func aRestartKeepsTheSetting() async throws {
        let h = try await WorkspaceHarness()
        try await h.workspace.templates.setEditingAllowed(false)
        h.workspace.close()
        let again = try await h.reopen()
        defer { again.close() }
        #expect(try await again.templates.isEditingAllowed() == false)
    }

    @Test func theSettingCannotBeChangedWhileThePlatformIsDown() async throws {
        let h = try await WorkspaceHarness()
        await h.workspace.engine.injectFaults(.serverError(status: 503), pathPrefix: "/herald/1/application")
        await #expect(throws: TemplateError.self) { try await h.workspace.templates.setEditingAllowed(false) }
        #expect(try await h.workspace.templates.isEditingAllowed() == true)
    }
}
