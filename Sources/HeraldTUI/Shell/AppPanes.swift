import HeraldServices
import HeraldViewModels

/// THE pane registry: the five panes in tab order. Each line builds one pane; replace a
/// placeholder by its real pane here and nowhere else.
public enum AppPanes {
    public static func make(_ env: PaneEnvironment) -> [any Pane] {
        let contacts = ContactsPane(env)
        let composer = ComposerPane(env, contacts: contacts.viewModel)
        // `I` in Contacts sends with what the Composer is set to: its confirmation opens there.
        let store = env.workspace.contacts, app = env.app
        contacts.onInvite = { [weak composer] ids in
            guard let composer else { return }
            do {
                composer.invite(try store.people(ids: ids))
                app.select(pane: 2)
            } catch {
                app.toasts.post("could not read the people to invite: \(userMessage(for: error))", level: .error)
            }
        }
        return [
            contacts,
            SharePane(env, composer: composer),
            composer,
            InboxPane(env),
            DeliveriesPane(env),
        ]
    }
}
