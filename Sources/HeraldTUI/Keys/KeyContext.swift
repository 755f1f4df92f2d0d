/// Where a binding applies. Pane contexts also see the `list` bindings and the global ones; in
/// `editor` (text entry) printable keys go to the text, so only non-printable global keys apply. A yes/no
/// `question` (send, resend, quit) sees its own keys and the global ones; the command `palette` only its own.
nonisolated public enum KeyContext: String, CaseIterable, Sendable, Hashable {
    case global, list, contacts, share, composer, inbox, deliveries, replies, editor, question, palette

    /// The contexts whose bindings apply here, most specific first.
    public var chain: [KeyContext] {
        switch self {
        case .global: return [.global]
        case .list: return [.list, .global]
        case .contacts, .share, .inbox, .deliveries, .replies: return [self, .list, .global]
        case .composer: return [.composer, .global]
        case .editor: return [.editor, .global]
        case .question: return [.question, .global]
        case .palette: return [.palette]
        }
    }

    /// True where typed characters are text, not commands.
    public var isTextEntry: Bool { self == .editor || self == .palette }

    /// Heading used in help and docs.
    public var title: String {
        switch self {
        case .global: return "Everywhere"
        case .list: return "In every list"
        case .contacts: return "1 Contacts"
        case .share: return "2 Share"
        case .composer: return "3 Composer"
        case .inbox: return "4 Inbox"
        case .deliveries: return "5 Deliveries"
        case .replies: return "6 Replies"
        case .editor: return "While editing text"
        case .question: return "Answering a question (send, resend, quit)"
        case .palette: return "In the command palette (:)"
        }
    }
}
