import Foundation
import HeraldCore
import HeraldServices
import HeraldTUI
import HeraldViewModels

// Each pane on a workspace: its view-model built from the workspace's services, and its hooks into the shell. The
// only place panes and services meet (the TUI module knows view-models, not services).

extension ContactsPane {
    /// The pane on a workspace (what the registry builds).
    public convenience init(_ env: PaneEnvironment) {
        let ws = env.workspace
        self.init(viewModel: ContactsViewModel(book: ws.book,
                                               suggestions: ws.suggestions, effects: env.effects, toasts: env.app.toasts))
        if !ws.config.books.isEmpty { viewModel.books = ws.books }
        viewModel.invites = ws.invites
        copier = env.copier
    }
}

extension SharePane {
    /// The pane on a workspace; choosing SMS or email opens `composer` for that channel.
    public convenience init(_ env: PaneEnvironment, composer: ComposerPane) {
        let ws = env.workspace
        let model = ShareViewModel(share: ws.share, copier: env.copier, emailSender: ws.emailSender, mailProgram: ws.mailProgram, effects: env.effects,
                                   settings: ShareSettings(referrer: ws.config.senderName ?? ws.config.sender ?? "Herald",
                                                           sender: ws.config.sender))
        let app = env.app
        model.onToast = { app.toasts.post($1, level: $0) }
        model.onCompose = { [weak composer] channel in
            guard let composer else { return }
            composer.model.setChannel(channel)
            app.requestFocus(.composer)
        }
        self.init(model: model)
    }
}

extension ComposerPane {
    /// The pane on a workspace; the recipients are the people selected in `contacts`.
    public convenience init(_ env: PaneEnvironment, contacts: ContactsViewModel) {
        let ws = env.workspace
        // A name kept by an earlier :name is read when the messages load (off the UI thread).
        let senderName = ws.config.senderName
        let model = ComposerViewModel(templates: ws.templates, invites: ws.invites, effects: env.effects,
                                      settings: ComposerSettings(sender: ws.config.sender ?? "", senderName: senderName,
                                                                 signature: ws.config.signature, previewLink: ws.linkExample,
                                                                 referrer: senderName ?? ws.config.sender ?? ComposerSettings.defaultReferrer))
        let app = env.app
        model.onToast = { app.toasts.post($1, level: $0) }
        model.onAskSenderName = { app.ask(inPalette: "name ") }
        let invites = ws.invites, book = ws.book
        model.saveSenderName = { name in try invites.saveSenderName(name) }
        model.readSavedSenderName = { invites.savedSenderName }
        model.latestStatuses = { numbers in try await book.latestStatuses(msisdns: numbers) }
        model.readPeople = { ids in try await book.people(ids: ids) }
        self.init(model: model)
        recipientIds = { [weak contacts] in contacts?.selection.sorted() ?? [] }
    }
}

extension InboxPane {
    /// The pane on a workspace, reading `env.inboxUser`'s inbox; its unread count feeds the status bar.
    public convenience init(_ env: PaneEnvironment) {
        let model = InboxViewModel(service: env.workspace.inbox, effects: env.effects, user: env.inboxUser ?? "")
        let app = env.app
        model.onToast = { app.toasts.post($1, level: $0) }
        model.onUnreadChanged = { app.setUnreadInbox($0) }
        self.init(model: model, clock: env.clock)
        copier = env.copier
        refreshInterval = env.workspace.connection.kind.inboxRefreshInterval
        if env.inboxUser != nil { start() }      // the status bar shows the unread count from the start
    }
}

extension DeliveriesPane {
    /// The pane on a workspace (what the registry builds).
    public convenience init(_ env: PaneEnvironment) {
        let ws = env.workspace
        self.init(viewModel: DeliveriesViewModel(book: ws.book, invites: ws.invites,
                                                 effects: env.effects, toasts: env.app.toasts, clock: env.clock),
                  clock: env.clock)
        copier = env.copier
    }
}
