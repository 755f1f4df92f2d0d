nonisolated extension KeyBindings {
    /// The rows every pane type declares in its own file (`KeyDeclaring.keys`): THE one list of pane types whose
    /// keys the key table, `?`, docs/keys.md, `herald keys` and the `[keys]` config read.
    /// (ContactsPane's rows keep their old place inside the table: see `KeyBindings.defaults`.)
    static let declaredByPanes: [KeyBinding] =
        SharePane.tableRows + ComposerPane.tableRows + InboxPane.tableRows + DeliveriesPane.tableRows + ConversationsPane.tableRows
}
