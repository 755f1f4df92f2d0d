import HeraldServices
import HeraldTUI
import HeraldViewModels

/// THE pane registry: the six panes in tab order. Each line builds one pane; replace a
/// placeholder by its real pane here and nowhere else.
public enum AppPanes {
    public static func make(_ env: PaneEnvironment) -> [any Pane] {
        let contacts = ContactsPane(env)
        let composer = ComposerPane(env, contacts: contacts.viewModel)
        // `I` in Contacts sends with what the Composer is set to: its confirmation opens there.
        let app = env.app
        contacts.onInvite = { [weak composer] ids in
            guard let composer else { return }
            composer.invite(ids)
            app.requestFocus(.composer)
        }
        return [
            contacts,
            SharePane(env, composer: composer),
            composer,
            InboxPane(env),
            DeliveriesPane(env),
            ConversationsPane(env),
        ]
    }
}
