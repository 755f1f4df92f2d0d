import HeraldViewModels

/// THE pane registry: the five panes in tab order. Each line builds one pane; replace a
/// placeholder by its real pane here and nowhere else.
public enum AppPanes {
    public static func make(_ env: PaneEnvironment) -> [any Pane] {
        let contacts = ContactsPane(env)
        let composer = ComposerPane(env, contacts: contacts.viewModel)
        return [
            contacts,
            SharePane(env, composer: composer),
            composer,
            InboxPane(env),
            DeliveriesPane(env),
        ]
    }
}
