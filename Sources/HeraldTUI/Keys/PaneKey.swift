/// One key a pane declares whole, in the pane's own file (model: lazygit's `types.Binding{Key, Handler, Description,
/// DisplayOnScreen, GetDisabledReason}`, which each controller's `GetKeybindings` returns): its `[keys]` name, its
/// default keys, what it does, where it applies, its footer label, when the pane lists it, why it cannot run now,
/// and its handler. The key table (`KeyBindings.defaults`) takes the name, keys, description and contexts from every
/// pane type's `keys`; the pane's `declaredBindings` hand the rest to the dispatcher, the footer and `?`.
nonisolated public struct PaneKey<P: AnyObject>: Sendable {
    /// The row of the key table: name, default keys, description, contexts (for a `shared` key: only the action and
    /// the pane's context, the table's own row giving the keys and description).
    public let row: KeyBinding
    /// False for a `shared` key: the table already has its row, the pane only gives it a handler and a footer.
    public let addsRow: Bool
    /// The footer's label in the pane's present state (nil: the key shows in `?` only).
    public let footer: @MainActor @Sendable (P) -> String?
    /// Whether the pane lists the key in its present state (not listed: `?` greys it and the key goes on to the shell).
    public let listed: @MainActor @Sendable (P) -> Bool
    /// Why the key cannot run now (nil: it can); `?` shows it greyed with the reason, the key says it in a toast.
    public let disabledReason: @MainActor @Sendable (P) -> String?
    /// Does the work; false when it turned out to do nothing (the key then goes on to the shell).
    public let run: @MainActor @Sendable (P) -> Bool

    /// A key named `name` in the `[keys]` config, bound to `keys` by default, described by `description` in `?` and
    /// docs/keys.md, applying in `contexts` (the pane's own first).
    public init(_ name: String, _ keys: [Key], _ description: String, _ contexts: [KeyContext],
                footer: String? = nil,
                footerNow: (@MainActor @Sendable (P) -> String?)? = nil,
                listed: @escaping @MainActor @Sendable (P) -> Bool = { _ in true },
                disabledReason: @escaping @MainActor @Sendable (P) -> String? = { _ in nil },
                run: @escaping @MainActor @Sendable (P) -> Void) {
        self.init(row: KeyBinding(Action(name), keys, description, contexts), footer: footerNow ?? { _ in footer },
                  listed: listed, disabledReason: disabledReason, run: { run($0); return true })
    }

    private init(row: KeyBinding, addsRow: Bool = true, footer: @escaping @MainActor @Sendable (P) -> String?,
                 listed: @escaping @MainActor @Sendable (P) -> Bool,
                 disabledReason: @escaping @MainActor @Sendable (P) -> String?,
                 run: @escaping @MainActor @Sendable (P) -> Bool) {
        self.row = row
        self.addsRow = addsRow
        self.footer = footer
        self.listed = listed
        self.disabledReason = disabledReason
        self.run = run
    }

    /// More default keys, in the pane's context, for an action whose handler the pane lists elsewhere (the shared
    /// list navigation, reload): only a row of the key table, never listed itself.
    public static func more(_ action: Action, _ keys: [Key], _ description: String, _ contexts: [KeyContext]) -> PaneKey {
        PaneKey(row: KeyBinding(action, keys, description, contexts), footer: { _ in nil }, listed: { _ in false },
                disabledReason: { _ in nil }, run: { _ in false })
    }

    /// An action the key table declares for several contexts (search, select, open, back, reload, copy) bound on this
    /// pane, in `context`, to the pane's own handler, footer and `listed`/`disabledReason`, adding no row: its keys and
    /// description stay the table's one row, so `[keys]` rebinds it everywhere. The pane's states choose inside `run`
    /// (and `footerNow`, `listed`) what it does now, so one declaration serves e.g. a list and a person's detail.
    public static func shared(_ action: Action, in context: KeyContext, footer: String? = nil,
                              footerNow: (@MainActor @Sendable (P) -> String?)? = nil,
                              listed: @escaping @MainActor @Sendable (P) -> Bool = { _ in true },
                              disabledReason: @escaping @MainActor @Sendable (P) -> String? = { _ in nil },
                              run: @escaping @MainActor @Sendable (P) -> Void) -> PaneKey {
        sharedDeclining(action, in: context, footerNow: footerNow ?? { _ in footer }, listed: listed,
                        disabledReason: disabledReason, run: { run($0); return true })
    }

    /// A `shared` key whose handler may decline (false: it did nothing, so the key goes on to the shell, as esc
    /// with nothing to close).
    public static func sharedDeclining(_ action: Action, in context: KeyContext,
                                       footerNow: @escaping @MainActor @Sendable (P) -> String?,
                                       listed: @escaping @MainActor @Sendable (P) -> Bool = { _ in true },
                                       disabledReason: @escaping @MainActor @Sendable (P) -> String? = { _ in nil },
                                       run: @escaping @MainActor @Sendable (P) -> Bool) -> PaneKey {
        PaneKey(row: KeyBinding(action, [], "", [context]), addsRow: false, footer: footerNow, listed: listed,
                disabledReason: disabledReason, run: run)
    }

    public var action: Action { row.action }

    /// The binding this key offers on `pane` now.
    @MainActor public func binding(on pane: P) -> PaneBinding {
        PaneBinding(action: row.action, footer: footer(pane), disabledReason: disabledReason(pane)) { run(pane) }
    }
}

/// A pane type that declares its keys whole (`PaneKey`); `KeyBindings.declaredByPanes` names every such type once.
public protocol KeyDeclaring: Pane {
    /// The pane's keys, in the order of the key table, the footer and `?`.
    nonisolated static var keys: [PaneKey<Self>] { get }
}

extension KeyDeclaring {
    /// The rows the pane's keys add to the key table (its `shared` keys add none), in their order.
    nonisolated static var tableRows: [KeyBinding] { keys.filter(\.addsRow).map(\.row) }
}

extension KeyDeclaring {
    /// The declared keys the pane lists in its present state, as bindings: those of its key context now (none while
    /// a question or a field holds the keys) that `listed` lets through. The pane's `bindings` includes them where
    /// they belong (their order is the footer's).
    public var declaredBindings: [PaneBinding] {
        Self.keys.filter { $0.row.contexts.contains(keyContext) && $0.listed(self) }.map { $0.binding(on: self) }
    }
}
