nonisolated extension KeyBindings {
    /// The rows every pane type declares in its own file (`KeyDeclaring.keys`): THE one list of pane types whose
    /// keys the key table, `?`, docs/keys.md, `herald keys` and the `[keys]` config read.
    static let declaredByPanes: [KeyBinding] =
        SharePane.keys.map(\.row) + ComposerPane.keys.map(\.row) + InboxPane.keys.map(\.row) + DeliveriesPane.keys.map(\.row)
}
