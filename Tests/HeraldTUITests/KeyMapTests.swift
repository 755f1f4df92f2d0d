import Foundation
@testable import HeraldTUI
import TOMLKit
import Testing

@Suite struct KeyMapTests {
    @Test func keyNamesParseAndPrintBack() throws {
        let names = ["j", "J", "?", ":", "/", "ctrl-d", "alt-x", "space", "enter", "esc", "tab", "shift-tab", "f1", "f12",
                     "up", "down", "pgup", "pgdn", "home", "end", "backspace", "delete"]
        for name in names { #expect(KeyName.name(of: try KeyName.parse(name)) == name) }
        #expect(try KeyName.parse("Ctrl-D") == .ctrl("d"))
        #expect(try KeyName.parse("shift-i") == .char("I"))
        #expect(try KeyName.parse("escape") == .escape)
        #expect(throws: KeyName.ParseError.self) { try KeyName.parse("hyper-x") }
        #expect(throws: KeyName.ParseError.self) { try KeyName.parse("f99") }
        #expect(throws: KeyName.ParseError.self) { try KeyName.parse("") }
    }

    @Test func defaultTableHasNoConflicts() {
        #expect(KeyMap().conflicts() == [])
    }

    @Test func paneContextSeesItsOwnThenListThenGlobalBindings() {
        let map = KeyMap()
        #expect(map.action(for: .char("j"), in: .contacts) == .moveDown)
        #expect(map.action(for: .down, in: .deliveries) == .moveDown)
        #expect(map.action(for: .char("I"), in: .contacts) == .invite)
        #expect(map.action(for: .char("i"), in: .contacts) == .invertSelection)
        #expect(map.action(for: .char("i"), in: .composer) == .editMessage)
        #expect(map.action(for: .char("r"), in: .deliveries) == .resend)
        #expect(map.action(for: .char("r"), in: .contacts) == nil)
        #expect(map.action(for: .char("q"), in: .inbox) == .quit)
        #expect(map.action(for: .char("3"), in: .share) == .paneComposer)
    }

    @Test func theComposersKeysQuestionsAndThePaletteComeFromTheTableAndFollowTheConfig() throws {
        let map = KeyMap()
        #expect(map.action(for: .char("]"), in: .composer) == .nextTemplate)
        #expect(map.action(for: .char("m"), in: .composer) == .switchChannel)
        #expect(map.action(for: .char("y"), in: .question) == .yes)           // not copy, as in Deliveries
        #expect(map.action(for: .escape, in: .question) == .no)
        #expect(map.action(for: .tab, in: .question) == .switchButton)        // not the next pane
        #expect(map.action(for: .char("q"), in: .question) == .quit)
        #expect(map.action(for: .char("x"), in: .palette) == nil)            // typed into the command line
        #expect(map.action(for: .tab, in: .palette) == .complete)
        #expect(KeyHelp.overlayLines(for: .question).contains { $0.contains("y, Y") && $0.contains("Yes") })
        let remapped = try KeyMap(overrides: ["next_template": ["n"], "yes": ["j"], "run_command": ["ctrl-j"]])
        #expect(remapped.action(for: .char("n"), in: .composer) == .nextTemplate)
        #expect(remapped.action(for: .char("]"), in: .composer) == nil)
        #expect(remapped.action(for: .char("j"), in: .question) == .yes)
        #expect(remapped.action(for: .ctrl("j"), in: .palette) == .runCommand)
    }

    @Test func typingInTheEditorIsNeverACommand() {
        let map = KeyMap()
        #expect(map.action(for: .char("q"), in: .editor) == nil)
        #expect(map.action(for: .char("1"), in: .editor) == nil)
        #expect(map.action(for: .escape, in: .editor) == .finishEditing)
        #expect(map.action(for: .ctrl("c"), in: .editor) == .quit)
        #expect(map.action(for: .ctrl("s"), in: .editor) == .send)
    }

    @Test func configOverridesReplaceTheKeysOfAnAction() throws {
        let table = try TOMLTable(string: """
        move_down = ["n", "ctrl-n"]
        select_none = "N"
        """)
        let map = try KeyMap(overrides: try KeyMap.overrides(from: table))
        #expect(map.action(for: .char("n"), in: .contacts) == .moveDown)
        #expect(map.action(for: .ctrl("n"), in: .contacts) == .moveDown)
        #expect(map.action(for: .char("j"), in: .contacts) == nil)
        #expect(map.action(for: .char("N"), in: .contacts) == .selectNone)
        #expect(map.keys(for: .moveDown) == [.char("n"), .ctrl("n")])
    }

    @Test func badOverridesAreRefusedWithAClearMessage() {
        func message(_ overrides: [String: [String]]) -> String {
            do { _ = try KeyMap(overrides: overrides, source: "config.toml"); return "" } catch { return error.description }
        }
        #expect(message(["jump": ["j"]]).hasPrefix("config.toml: [keys] has unknown action \"jump\""))
        #expect(message(["quit": ["hyper-q"]]).contains("unknown key name \"hyper-q\""))
        #expect(message(["invite": ["a"]]) == "config.toml: [keys] \"a\" is bound to both invite and add_contact (contacts)")
        #expect(throws: KeyMapError.self) { try KeyMap.overrides(from: try TOMLTable(string: "quit = 3")) }
    }

    @Test func aKeyAPaneDeclaresIsInTheTableAndFollowsTheConfig() throws {
        // copy_reason is declared in DeliveriesPane.swift alone: the table, [keys] and its messages know it.
        #expect(KeyBindings.names.contains("copy_reason") && KeyBindings.names.count == Set(KeyBindings.names).count)
        let map = try KeyMap(overrides: ["copy_reason": ["R"]])
        #expect(map.action(for: .char("R"), in: .deliveries) == Action("copy_reason"))
        #expect(map.action(for: .char("e"), in: .deliveries) == nil)
        // Each pane type's declarations become rows of its own context.
        #expect(DeliveriesPane.keys.allSatisfy { $0.row.contexts.first == .deliveries })
        #expect(InboxPane.keys.allSatisfy { $0.row.contexts.first == .inbox })
        #expect(ComposerPane.keys.allSatisfy { $0.row.contexts.first == .composer })
        #expect(SharePane.keys.allSatisfy { $0.row.contexts.first == .share })
        // Contacts declares its own rows, and binds the shared ones (/, space, enter, esc, ctrl-r, y) without a row.
        let contacts = ContactsPane.keys.filter(\.addsRow)
        #expect(contacts.count == 17 && contacts.allSatisfy { $0.row.contexts == [.contacts] })
        #expect(!(KeyBindings.table + KeyBindings.tableAfterContacts).contains { $0.contexts == [.contacts] })
        for key in ContactsPane.keys where !key.addsRow {
            #expect(KeyBindings.defaults.contains { $0.action == key.action && !$0.keys.isEmpty
                && !Set($0.contexts).isDisjoint(with: KeyContext.contacts.chain) }, "\(key.action) has a row of the table")
        }
    }

    @Test func theHelpOverlayComesFromTheTable() {
        let lines = KeyHelp.overlayLines(for: .deliveries)
        #expect(lines.first == "5 Deliveries")
        #expect(lines.contains("  r                Resend what failed (selected rows; in the breakdown: the group's)"))
        #expect(lines.contains("In every list"))
        #expect(lines.contains("  j, down          Move down"))
        #expect(lines.contains("  ctrl-l           Redraw the screen"))
        #expect(lines.contains { $0.hasPrefix("  ctrl-r           Read this pane's data again now") })
        #expect(lines.last?.hasPrefix("  ctrl-x           Take back the invitations just sent") == true)
    }

    @Test func theFooterShowsTheKeysAsRemapped() throws {
        func footer(_ keyMap: KeyMap) -> String {
            var canvas = Canvas(size: Size(width: 120, height: 1))
            AppStatusBar.renderHints(into: &canvas, rect: canvas.bounds,
                                     hints: [(.action(.invite), "invite"), (.action(.select), "select"), ("esc", "cancel")],
                                     context: .contacts, keyMap: keyMap)
            return canvas.snapshot()
        }
        #expect(footer(KeyMap()).hasPrefix(" I invite  space select  esc cancel  ? help  : command  q quit"))
        let remapped = try KeyMap(overrides: ["invite": ["ctrl-i"], "quit": ["ctrl-q"]])
        #expect(footer(remapped).hasPrefix(" ctrl-i invite  space select  esc cancel  ? help  : command  ctrl-q quit"))
    }

    @Test func eachPanesHelpSaysWhatASharedKeyDoesThere() {
        let contacts = KeyBindings.defaults.filter { $0.contexts.contains(.contacts) }.map(\.description)
        let deliveries = KeyBindings.defaults.filter { $0.contexts.contains(.deliveries) }.map(\.description)
        #expect(contacts.contains("Sort by first name or by last name"))
        #expect(!contacts.contains { $0.contains("most failed") }, "Deliveries' orders are not Contacts' help")
        #expect(deliveries.contains { $0.contains("most failed") })
        // A remap of the action moves both.
        let map = try? KeyMap(overrides: ["sort": ["o"]])
        #expect(map?.action(for: .char("o"), in: .contacts) == .sort && map?.action(for: .char("o"), in: .deliveries) == .sort)
    }

    @Test func docsKeysMarkdownIsUpToDate() throws {
        let generated = KeyHelp.markdown()
        RepositoryFiles.expectGenerated("docs/keys.md", is: generated)
        #expect(generated.contains("| `I` | `invite` | Invite the selected people (or the one under the cursor) with what the Composer is set to |  |"))
    }
}
