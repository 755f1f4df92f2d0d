import Foundation
import HeraldTestKit
import HeraldCore
import HeraldServices
import Testing
@testable import HeraldViewModels

/// Adding, editing, deleting (and `u`), merging after a preview and the duplicates view, driven from the UI side:
/// every write is an effect, and the UI side never touches the store.
@Suite("Contacts view-model: editing")
struct ContactsEditingViewModelTests {
    private func make(_ ws: WorkspaceHarness) async -> (ContactsViewModel, EffectPump, UISide, ToastBoard) {
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let toasts = ToastBoard(clock: ws.clock)
        let vm = ui { ContactsViewModel(book: ws.book, suggestions: nil, context: effects.context(toasts: toasts)) }
        await effects.settle()
        return (vm, effects, ui, toasts)
    }

    @Test func aCardAddedAndACardEditedAreStoredAndTheListShowsThem() async throws {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Ana", "Horvat", "091 111 1111")
        let (vm, effects, ui, toasts) = await make(ws)
        var draft = try ContactDraft.parse(cardText: "First name: Ivo\nLast name: Babić\nPhone: mobile: 091 222 2222\n")
        ui { vm.save(draft, personId: nil) }
        await effects.settle()
        #expect(toasts.notes.last?.text == "Added Ivo Babić")
        #expect(await ui.rows(vm, 0..<2, effects).map(\.name) == ["Ana Horvat", "Ivo Babić"])
        // `e` on Ivo: the card is read off the UI thread, edited, and saved over him.
        ui { vm.moveCursor(to: 1) }
        var card: (Int64, String)?
        ui { vm.withCard { card = ($0, $1) } }
        await effects.settle()
        let (id, text) = try #require(card)
        #expect(text.contains("Phone: mobile: 091 222 2222"))
        draft = try ContactDraft.parse(cardText: text.replacingOccurrences(of: "Organization: ", with: "Organization: Acme"))
        ui { vm.save(draft, personId: id) }
        await effects.settle()
        #expect(toasts.notes.last?.text == "Saved Ivo Babić")
        #expect(try await ws.book.people(ids: [id]).first?.organization == "Acme")
        ui { vm.save(draft, personId: id) }
        await effects.settle()
        #expect(toasts.notes.last?.text == "nothing changed")
        #expect(ui.violations.isEmpty)
    }

    @Test func deletingTheSelectionAndUBringsEveryoneBackUnderTheirIds() async throws {
        let ws = try await WorkspaceHarness.screens()
        let ana = try ws.add("Ana", "Horvat", "091 111 1111")
        try ws.add("Ivo", "Babić", "091 222 2222")
        let zora = try ws.add("Zora", "Kovač", "091 444 4444")
        let (vm, effects, ui, toasts) = await make(ws)
        _ = await ui.rows(vm, 0..<3, effects)
        ui { vm.toggleSelection(); vm.moveCursor(to: 2); vm.toggleSelection() }
        ui { vm.deleteContacts() }
        await effects.settle()
        #expect(vm.count == 1 && vm.selection.isEmpty)
        #expect(toasts.notes.last?.text == "Deleted 2 people — u brings them all back")
        ui { vm.undo() }
        await effects.settle()
        #expect(vm.count == 3)
        #expect(try await ws.book.people(ids: [try #require(ana.id), try #require(zora.id)]).map(\.displayName) == ["Ana Horvat", "Zora Kovač"])
        // Nothing left to bring back: u is the selection's undo again.
        ui { vm.toggleSelection(); vm.selectNone(); vm.undo() }
        #expect(vm.selection.count == 1)
        #expect(ui.violations.isEmpty)
    }

    @Test func aMergeIsPreviewedThenStoredAndTheDuplicatesViewShowsOnlyLookAlikes() async throws {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Ana", "Horvat", "091 111 1111")
        try ws.add("Ana", "H.", "+385 91 111 1111", "098 765 4321")
        try ws.add("Zora", "Kovač", "091 444 4444")
        let (vm, effects, ui, toasts) = await make(ws)
        ui { vm.toggleDuplicates() }
        await effects.settle()
        #expect(vm.count == 2)
        let rows = await ui.rows(vm, 0..<2, effects)
        #expect(rows.map(\.name) == ["Ana Horvat", "Ana H."])
        #expect(rows.allSatisfy { $0.section == nil })
        ui { vm.toggleSelection(); vm.moveCursor(to: 1); vm.toggleSelection() }
        ui { vm.askMerge() }
        await effects.settle()
        let preview = try #require(vm.mergeQuestion)
        #expect(preview.kept == "Ana Horvat" && preview.removed == ["Ana H."])
        #expect(preview.phones == ["mobile: 091 111 1111", "mobile: 098 765 4321"])
        ui { vm.confirmMerge() }
        await effects.settle()
        #expect(vm.mergeQuestion == nil)
        #expect(toasts.notes.last?.text == "Merged 2 people into Ana Horvat")
        #expect(vm.count == 0 && !vm.isAddressBookEmpty)       // nobody looks like anybody now; the book is not empty
        ui { vm.toggleDuplicates() }
        await effects.settle()
        #expect(vm.count == 2)
        #expect(ui.violations.isEmpty)
    }
}
