/// The six panes, in tab order: tabs, jumps (`1`…`6`, tab, `:pane`), palette commands and the composition
/// root all name a pane by this, never by a number.
nonisolated public enum PaneID: Int, CaseIterable, Sendable, Hashable {
    case contacts, share, composer, inbox, deliveries, replies

    /// The name `:pane` takes and the tab shows in lower case.
    public var name: String {
        switch self {
        case .contacts: return "contacts"
        case .share: return "share"
        case .composer: return "composer"
        case .inbox: return "inbox"
        case .deliveries: return "deliveries"
        case .replies: return "replies"
        }
    }

    /// The pane after this one in tab order (wrapping), or before it with `by: -1`.
    public func moved(by step: Int) -> PaneID {
        let count = Self.allCases.count
        return PaneID(rawValue: ((rawValue + step) % count + count) % count) ?? self
    }
}
