/// One row of the key table: an action, its default keys, what it does and where it applies.
nonisolated public struct KeyBinding: Sendable, Hashable {
    public var action: Action
    public var keys: [Key]
    public var description: String
    public var contexts: [KeyContext]

    public init(_ action: Action, _ keys: [Key], _ description: String, _ contexts: [KeyContext]) {
        self.action = action; self.keys = keys; self.description = description; self.contexts = contexts
    }
}

/// THE table of default bindings: the rows below (the shell's, the overlays' and the keys panes share), with Contacts'
/// own in their old place, followed by the keys the other pane types declare whole in their own files (`PaneKey`,
/// collected in `KeyBindings+Panes.swift`).
/// `?`, docs/keys.md, `herald keys` and the `[keys]` config read it (footers come from the panes' bindings).
nonisolated public enum KeyBindings {
    public static let defaults: [KeyBinding] = table + ContactsPane.tableRows + tableAfterContacts + declaredByPanes

    /// Every action name the table knows, once each, in its order (for the `[keys]` config's messages).
    public static let names: [String] = {
        var seen: Set<String> = []
        return defaults.map(\.action.rawValue).filter { seen.insert($0).inserted }
    }()

    /// The rows not declared by a pane type, up to where Contacts' own keys (declared in ContactsPane.swift) keep the
    /// place they always had in `?`, docs/keys.md and herald-keys(5).
    static let table: [KeyBinding] = [
        // Everywhere
        KeyBinding(.help, [.char("?"), .function(1)], "Show the keys for this pane", [.global]),
        KeyBinding(.quit, [.char("q"), .ctrl("c")], "Quit Herald (first closes an open help, detail, bulk or message)", [.global]),
        KeyBinding(.back, [.escape], "Back: close the dialog, clear the search, leave the field", [.global]),
        KeyBinding(.commandPalette, [.char(":")], "Open the command palette", [.global]),
        KeyBinding(.paneContacts, [.char("1")], "Go to Contacts", [.global]),
        KeyBinding(.paneShare, [.char("2")], "Go to Share", [.global]),
        KeyBinding(.paneComposer, [.char("3")], "Go to Composer", [.global]),
        KeyBinding(.paneInbox, [.char("4")], "Go to Inbox", [.global]),
        KeyBinding(.paneDeliveries, [.char("5")], "Go to Deliveries", [.global]),
        KeyBinding(.paneReplies, [.char("6")], "Go to Replies (the conversations)", [.global]),
        KeyBinding(.nextPane, [.tab], "Next pane", [.global]),
        KeyBinding(.previousPane, [.backTab], "Previous pane", [.global]),
        KeyBinding(.redraw, [.ctrl("l")], "Redraw the screen", [.global]),
        KeyBinding(.suspend, [.ctrl("z")], "Suspend Herald to the shell (fg brings it back)", [.global]),
        KeyBinding(.reload, [.ctrl("r")], "Read this pane's data again now (other processes' changes show within a second anyway)", [.global]),
        KeyBinding(.takeBack, [.ctrl("x")], "Take back the invitations just sent while the undo window counts down (nothing leaves)", [.global]),
        // Lists
        KeyBinding(.moveDown, [.char("j"), .down], "Move down", [.list]),
        KeyBinding(.moveUp, [.char("k"), .up], "Move up", [.list]),
        KeyBinding(.pageDown, [.pageDown, .ctrl("f")], "Page down", [.list]),
        KeyBinding(.pageUp, [.pageUp, .ctrl("b")], "Page up", [.list]),
        KeyBinding(.halfPageDown, [.ctrl("d")], "Half a page down", [.list]),
        KeyBinding(.halfPageUp, [.ctrl("u")], "Half a page up", [.list]),
        KeyBinding(.first, [.char("g"), .home], "Go to the first row", [.list]),
        KeyBinding(.last, [.char("G"), .end], "Go to the last row", [.list]),
        KeyBinding(.search, [.char("/")], "Search (Contacts and Deliveries: show only matches; Inbox: jump to them)",
                   [.contacts, .inbox, .deliveries]),
        KeyBinding(.nextMatch, [.char("n")], "Next match of the search", [.inbox]),
        KeyBinding(.previousMatch, [.char("N")], "Previous match of the search", [.inbox]),
        KeyBinding(.open, [.enter], "Open the row under the cursor", [.list]),
        // Contacts: its own keys are declared in ContactsPane.swift (search, select and copy, shared, stay here)
        KeyBinding(.select, [.space], "Select or unselect the row (in Contacts' person detail: invite the number under the cursor)", [.contacts, .share, .deliveries]),
    ]

    /// The rows not declared by a pane type that follow Contacts' own in the table.
    static let tableAfterContacts: [KeyBinding] = [
        KeyBinding(.filter, [.char("f")], "Filter the rows by state", [.deliveries]),
        KeyBinding(.sort, [.char("s")], "Change the sort order: newest, oldest, most failed, most pending", [.deliveries]),
        KeyBinding(.copy, [.char("y"), .char("c")],
                   "Copy to the clipboard: the person's number, the bulk or message id, the message's link or id, the share link",
                   [.contacts, .share, .inbox, .deliveries, .replies]),
        // Share: its own keys are declared in SharePane.swift
        // Composer: its own keys are declared in ComposerPane.swift
        // Inbox: its own keys are declared in InboxPane.swift
        // Deliveries: its own keys are declared in DeliveriesPane.swift
        // Replies: its own keys are declared in ConversationsPane.swift
        // Editor
        KeyBinding(.finishEditing, [.escape], "Stop editing (the text is kept)", [.editor]),
        KeyBinding(.earlierSearch, [.up], "In the Contacts or Deliveries search: the search made before (history kept across runs)", [.editor]),
        KeyBinding(.laterSearch, [.down], "In the Contacts or Deliveries search: the next search of the history, then the text typed", [.editor]),
        // A yes/no question
        KeyBinding(.yes, [.char("y"), .char("Y")], "Yes: send, resend or quit", [.question]),
        KeyBinding(.no, [.char("n"), .char("N"), .escape], "No: close the question, nothing happens", [.question]),
        KeyBinding(.keepMine, [.char("h")], "In a conflict: keep Herald's version of the card (sent at the next sync)", [.question]),
        KeyBinding(.keepTheirs, [.char("s")], "In a conflict: keep the server's version of the card", [.question]),
        KeyBinding(.pressButton, [.enter], "Press the highlighted button (a send to many numbers takes y only)", [.question]),
        KeyBinding(.switchButton, [.left, .right, .tab, .backTab], "Highlight the other button", [.question]),
        KeyBinding(.sendTime, [.char("t")], "When the invitations leave: now, in an hour, tomorrow at 09:00 (the send confirmation)", [.question]),
        // The command palette
        KeyBinding(.runCommand, [.enter], "Run the command line", [.palette]),
        KeyBinding(.complete, [.tab], "Complete the command or its argument", [.palette]),
        KeyBinding(.previousCommand, [.up], "The previous candidate, or an earlier command line when the line is empty", [.palette]),
        KeyBinding(.nextCommand, [.down], "The next candidate, or a later command line", [.palette]),
        KeyBinding(.closePalette, [.escape, .ctrl("c")], "Close the palette (backspace on an empty line too)", [.palette]),
    ]
}
