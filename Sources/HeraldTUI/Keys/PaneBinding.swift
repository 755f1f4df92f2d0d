/// One binding a pane offers in its present state (model: lazygit's controllers, whose `GetKeybindings` hand the
/// dispatcher, the help and the options menu one list): the action, whose keys come from the key map; what it does;
/// and its label in the footer's key hints (nil: it shows in `?` only).
///
/// A pane lists what it offers now (in a person's detail, on an open message, in the list), so the dispatch, the
/// footer and `?` agree: an action the pane does not offer now is not in its footer, is greyed out of `?`, and
/// falls through to the shell's global actions. A binding listed with a `disabledReason` is there but cannot run
/// now (model: lazygit's `GetDisabledReason`): its key says why in a toast, and `?` shows it greyed with the reason.
public struct PaneBinding {
    public let action: Action
    public let footer: String?
    /// Why the binding cannot run now (nil: it can).
    public let disabledReason: String?
    /// Runs the action; false when it turned out to do nothing here (the key then goes on to the shell).
    public let run: () -> Bool

    /// A binding that always does its work (unless `disabledReason` says why it cannot now).
    public init(_ action: Action, footer: String? = nil, disabledReason: String? = nil, _ run: @escaping () -> Void) {
        self.action = action
        self.footer = footer
        self.disabledReason = disabledReason
        self.run = { run(); return true }
    }

    /// A binding that may decline or be disabled, every part given (a `PaneKey`'s binding on its pane).
    public init(action: Action, footer: String?, disabledReason: String? = nil, run: @escaping () -> Bool) {
        self.action = action
        self.footer = footer
        self.disabledReason = disabledReason
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
    /// `action`; false when none is offered, it is disabled, or it declined, so the key goes on.
    public func run(_ action: Action?) -> Bool {
        guard let binding = binding(for: action), binding.disabledReason == nil else { return false }
        return binding.run()
    }

    /// The binding `action` runs (the first one listed), nil when none is listed.
    public func binding(for action: Action?) -> PaneBinding? {
        guard let action else { return nil }
        return first { $0.action == action }
    }

    /// The actions that can run now (their first binding is not disabled): for `?`, which greys the others.
    public var offered: Set<Action> { Set(firstOfEach.filter { $0.disabledReason == nil }.map(\.action)) }

    /// Why each listed but disabled action cannot run now, for `?`.
    public var disabledReasons: [Action: String] {
        Dictionary(uniqueKeysWithValues: firstOfEach.compactMap { binding in binding.disabledReason.map { (binding.action, $0) } })
    }

    /// The binding each action runs: the first listed for it.
    private var firstOfEach: [PaneBinding] {
        var seen: Set<Action> = []
        return filter { seen.insert($0.action).inserted }
    }
}
