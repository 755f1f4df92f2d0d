/// One binding a pane offers in its present state (model: lazygit's controllers, whose `GetKeybindings` hand the
/// dispatcher, the help and the options menu one list): the action, whose keys come from the key map; what it does;
/// and its label in the footer's key hints (nil: it shows in `?` only).
///
/// A pane lists what it offers now (in a person's detail, on an open message, in the list), so the dispatch, the
/// footer and `?` agree: an action the pane does not offer now is not in its footer, is greyed out of `?`, and
/// falls through to the shell's global actions.
public struct PaneBinding {
    public let action: Action
    public let footer: String?
    /// Runs the action; false when it turned out to do nothing here (the key then goes on to the shell).
    public let run: () -> Bool

    /// A binding that always does its work.
    public init(_ action: Action, footer: String? = nil, _ run: @escaping () -> Void) {
        self.action = action
        self.footer = footer
        self.run = { run(); return true }
    }

    private init(action: Action, footer: String?, run: @escaping () -> Bool) {
        self.action = action
        self.footer = footer
        self.run = run
    }

    /// A binding that may decline (e.g. esc with nothing to close): `run` says whether it did something.
    public static func declining(_ action: Action, footer: String? = nil, _ run: @escaping () -> Bool) -> PaneBinding {
        PaneBinding(action: action, footer: footer, run: run)
    }

    /// The same work under several actions (enter and space both open a message).
    public static func each(_ actions: [Action], _ run: @escaping () -> Void) -> [PaneBinding] {
        actions.map { PaneBinding($0, run) }
    }
}

extension [PaneBinding] {
    /// THE dispatcher of bound keys, for panes, the shell and its overlays alike: runs the first binding for
    /// `action`; false when none is offered (or it declined), so the key goes on.
    public func run(_ action: Action?) -> Bool {
        guard let action else { return false }
        return first { $0.action == action }?.run() ?? false
    }
}
