import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import HeraldTUI
import HeraldViewModels
import Testing

@Suite struct ComposerPaneTests {
    func pane(_ ws: WorkspaceHarness, _ effects: EffectPump, source: ComposerSource = ComposerSource()) async -> ComposerPane {
        let model = ComposerViewModel(templates: ws.workspace.templates, invites: ws.workspace.invites, source: source,
                                      context: effects.context(), settings: ComposerSettings(sender: "Herald", senderName: "Ana"))
        let pane = ComposerPane(model: model)
        pane.didAppear()
        await effects.settle()
        return pane
    }

    @Test func theMeterAndTheEditorShowWhichCharactersForceUCS2() async throws {
        let ws = try await WorkspaceHarness.screens()
        let effects = EffectPump()
        let pane = await pane(ws, effects)
        #expect(pane.handle(action: .editMessage))
        #expect(pane.keyContext == .editor)
        // Clear the default text and type a new one, the way a person does.
        for _ in 0..<200 { _ = pane.handle(unboundKey: .backspace) }
        _ = pane.handle(unboundKey: .paste("Dođi {RECEIVER_NAME}: <> 🎉"))
        #expect(pane.model.text == "Dođi {RECEIVER_NAME}: <> 🎉")
        var canvas = Canvas(size: Size(width: 80, height: 21))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        let start = try #require(canvas.find("Dođi {RECEIVER_NAME}: <> 🎉"))
        func style(at offset: Int) -> Style? { canvas.cell(x: start.x + offset, y: start.y)?.style }
        #expect(style(at: 0) == Style(.input))                       // D: plain
        #expect(style(at: 2) == Style(.warning, .reverse))           // đ forces UCS-2
        #expect(style(at: 5) == Style(.accent, .bold))               // {RECEIVER_NAME}
        #expect(style(at: 22) == Style(.highlight, .bold))           // <>
        #expect(style(at: 25) == Style(.warning, .reverse))          // 🎉
        let meter = try #require(canvas.rows.first { $0.contains("UCS-2 ·") })
        #expect(meter.contains("UCS-2 · 1 SMS"))
        #expect(meter.contains("UCS-2 because of đ 🎉"))
        let culprit = try #require(canvas.find("because of đ"))
        #expect(canvas.cell(x: culprit.x + 11, y: culprit.y)?.style == Style(.warning, .reverse))
        #expect(canvas.find("*modified*") != nil)
    }

    @Test func sendAsksForConfirmationWithRecipientsAndSegments() async throws {
        let ws = try await WorkspaceHarness.screens()
        let effects = EffectPump()
        let store = ws.workspace.contacts
        let pane = await pane(ws, effects, source: ComposerSource(readPeople: { ids in try store.people(ids: ids) }))
        let marko = try ws.workspace.contacts.insert(Person(firstName: "Marko", lastName: "Horvat",
                                                            phones: [LabeledPhone(label: nil, number: ws.workspace.parser.parse("+385912345678"))]))
        pane.recipientIds = { [marko.id].compactMap { $0 } }
        #expect(pane.handle(action: .send))
        await effects.settle()                                  // the people are read off the UI thread
        var canvas = Canvas(size: Size(width: 80, height: 21))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        #expect(canvas.find("Send 1 SMS invitation (1 segment)?") != nil)
        #expect(canvas.find("Marko Horvat  +385912345678  1 SMS each") != nil)
        #expect(canvas.find("[ Send ]") != nil)
        #expect(pane.capturesAllKeys && pane.keyContext == .question)
        #expect(KeyMap().action(for: .enter, in: pane.keyContext) == .pressButton)
        _ = pane.handle(action: .pressButton)
        await effects.settle()
        #expect(pane.model.confirmation == nil)
        #expect(try ws.workspace.ledger.bulks().count == 1)
    }

    @Test func theSenderFieldExplainsABadSenderAsYouType() async throws {
        let ws = try await WorkspaceHarness.screens()
        let effects = EffectPump()
        let pane = await pane(ws, effects)
        #expect(KeyMap().action(for: .char("s"), in: pane.keyContext) == .editSender)
        _ = pane.handle(action: .editSender)
        #expect(pane.keyContext == .editor)
        for c in "Invites" { _ = pane.handle(unboundKey: .char(c)) }
        var canvas = Canvas(size: Size(width: 100, height: 21))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        #expect(canvas.find("✗ alphanumeric sender IDs are at most 11 characters") != nil)
    }

    @Test func editingInAnOutsideEditorReplacesTheText() async throws {
        let ws = try await WorkspaceHarness.screens()
        let effects = EffectPump()
        let pane = await pane(ws, effects)
        // A stand-in "editor" that rewrites the file it is given, run as a real subprocess.
        pane.environment = ["EDITOR": "printf 'From the editor <>\\n' >", "PATH": "/usr/bin:/bin"]
        var suspended = 0
        pane.suspendTerminal = { body in suspended += 1; body() }
        #expect(pane.handle(action: .editExternal))
        #expect(suspended == 1)
        #expect(pane.model.text == "From the editor <>")
    }

    @Test func anEditedFileThatCannotBeReadBackIsSaidSoNotCalledNonUTF8() {
        // An "editor" that exits 0 and leaves no file behind.
        do {
            _ = try ExternalEditor.edit("Hi <>", environment: ["EDITOR": "rm", "PATH": "/usr/bin:/bin"]) { $0() }
            Issue.record("a file that is gone cannot be the edited text")
        } catch {
            #expect(error.description.hasPrefix("cannot read the edited file "))
            #expect(error.description.hasSuffix("; the message was not changed"))
        }
    }
}
