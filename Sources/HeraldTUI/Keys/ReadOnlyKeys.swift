/// What a terminal that changes nothing (a viewer key, `--read-only`; the workspace's read-only reason) does not
/// offer: the keys and palette commands that send, edit, import, delete, merge, tag, opt out or resend. The shell applies
/// it to the focused pane's bindings (`restrict`) before the dispatch, the footer and `?` read them, so each such key
/// says why in a toast, `?` greys it with the reason, and the footer leaves it out. One list, whatever pane declares
/// the key.
public enum ReadOnlyKeys {
    /// The actions that change something here or on the platform.
    nonisolated public static let changing: Set<Action> = Set([
        // Contacts
        "invite", "add_contact", "edit_contact", "edit_contact_in_editor", "delete_contact", "merge_contacts", "tag_contacts",
        "settle_conflict", "keep_mine", "keep_theirs", "opt_out",
        // Composer
        "edit_message", "edit_external", "edit_sender", "cycle_signature", "save_template", "insert_placeholder", "send",
        // Inbox: the user's read marks are theirs
        "mark_seen", "mark_unread", "mark_all_seen",
        // Deliveries
        "resend",
        // Replies: answers, the address book, and the team's seen marks
        "answer", "add_number", "mark_conversation_seen",
    ].map { Action($0) })

    /// The palette commands that change something.
    nonisolated public static let changingCommands: Set<String> = ["invite", "send", "resend", "move", "name", "tag"]

    /// `bindings` as a read-only terminal offers them: each that changes something disabled with `reason` (nil: as
    /// they are).
    public static func restrict(_ bindings: [PaneBinding], reason: String?) -> [PaneBinding] {
        guard let reason else { return bindings }
        return bindings.map { binding in
            guard changing.contains(binding.action) else { return binding }
            return PaneBinding(action: binding.action, footer: nil, disabledReason: reason, run: { false })
        }
    }

    /// The footer hints a read-only terminal shows: none for a key that changes something.
    public static func restrict(_ hints: [(key: HintKey, label: String)], reason: String?) -> [(key: HintKey, label: String)] {
        guard reason != nil else { return hints }
        return hints.filter { hint in
            if case .action(let action) = hint.key { return !changing.contains(action) }
            return true
        }
    }
}
