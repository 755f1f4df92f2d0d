import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import HeraldStore
import Testing
@testable import HeraldViewModels

/// A person's custom fields in the Contacts detail: listed by name under their own heading, sanitised, a line break
/// shown on the line; a person without any shows no heading.
@Suite("Person detail: custom fields")
struct PersonFieldsDetailTests {
    @Test func theDetailListsTheFieldsAMessageCanUse() async throws {
        let ws = try await WorkspaceHarness.screens()
        let parse = ws.workspace.parser.parse
        try ws.workspace.contacts.insert(Person(firstName: "Ana", lastName: "Horvat",
                                                phones: [LabeledPhone(label: "cell", number: parse("091 111 1111"))],
                                                customFields: ["TEAM": "Blue", "SHIRT_SIZE": "M", "NOTE_X": "two\nlines\u{1B}[31m"]))
        try ws.add("Ivo", "Babić", "091 222 2222")
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let vm = ui {
            ContactsViewModel(book: ws.book, suggestions: ws.workspace.suggestions,
                              context: effects.context(toasts: ToastBoard(clock: ws.clock)))
        }
        await effects.settle()
        _ = await ui.rows(vm, 0..<2, effects)
        ui { vm.openDetail() }
        await effects.settle()
        let detail = try #require(vm.detail)
        #expect(detail.name == "Ana Horvat")
        #expect(detail.customFields.map(\.name) == ["NOTE_X", "SHIRT_SIZE", "TEAM"])
        let lines = detail.lines
        let heading = try #require(lines.firstIndex { $0.hasPrefix("Fields (") })
        #expect(Array(lines[(heading + 1)...(heading + 3)]) == ["  NOTE_X: two ⏎ lines", "  SHIRT_SIZE: M", "  TEAM: Blue"],
                "\(lines)")
        #expect(heading < (lines.firstIndex(of: "Numbers") ?? 0))
        #expect(!lines.joined().contains("\u{1B}"))

        ui { vm.closeDetail() }
        ui { vm.moveCursor(by: 1) }
        ui { vm.openDetail() }
        await effects.settle()
        let ivo = try #require(vm.detail)
        #expect(ivo.name == "Ivo Babić" && ivo.customFields.isEmpty)
        #expect(!ivo.lines.contains { $0.hasPrefix("Fields (") })
        #expect(ui.violations.isEmpty)
    }
}
