import Foundation
import HeraldCore
import HeraldServices
import HeraldTUI
import HeraldViewModels

// Each pane on a workspace: its view-model built from the workspace's services and the one context every view-model
// takes. The only place panes and services meet (the TUI module knows view-models, not services); nothing is set on a
// view-model after its `init`.

extension ContactsPane {
    /// The pane on a workspace (what the registry builds).
    public convenience init(_ env: PaneEnvironment) {
        let ws = env.workspace
        self.init(viewModel: ContactsViewModel(book: ws.book, suggestions: ws.suggestions, invites: ws.invites,
                                               books: ws.config.books.isEmpty ? nil : ws.books, conversations: ws.conversations,
                                               context: env.context))
    }
}

extension SharePane {
    /// The pane on a workspace; choosing SMS or email opens `composer` for that channel.
    public convenience init(_ env: PaneEnvironment, composer: ComposerPane) {
        let ws = env.workspace
        self.init(model: ShareViewModel(share: ws.share, composer: composer.model, emailSender: ws.emailSender,
                                        mailProgram: ws.mailProgram, context: env.context,
                                        settings: ShareSettings(referrer: ws.config.senderName ?? ws.config.sender ?? "Herald",
                                                                sender: ws.config.sender)))
    }
}

extension ComposerPane {
    /// The pane on a workspace; the recipients are the people selected in `contacts`.
    public convenience init(_ env: PaneEnvironment, contacts: ContactsViewModel) {
        let ws = env.workspace
        // A name kept by an earlier :name is read when the messages load (off the UI thread).
        let senderName = ws.config.senderName
        self.init(model: ComposerViewModel(templates: ws.templates, invites: ws.invites,
                                           source: ComposerSource(book: ws.book, invites: ws.invites), context: env.context,
                                           settings: ComposerSettings(sender: ws.config.sender ?? "", senderName: senderName,
                                                                      signature: ws.config.signature, previewLink: ws.linkExample,
                                                                      referrer: senderName ?? ws.config.sender ?? ComposerSettings.defaultReferrer)))
        recipientIds = { [weak contacts] in contacts?.selection.sorted() ?? [] }
    }
}

extension InboxPane {
    /// The pane on a workspace, reading `env.inboxUser`'s inbox; its unread count feeds the status bar.
    public convenience init(_ env: PaneEnvironment) {
        self.init(model: InboxViewModel(service: env.workspace.inbox, context: env.context, user: env.inboxUser ?? ""),
                  clock: env.clock)
        refreshInterval = env.workspace.connection.kind.inboxRefreshInterval
        if env.inboxUser != nil { start() }      // the status bar shows the unread count from the start
    }
}

extension DeliveriesPane {
    /// The pane on a workspace (what the registry builds).
    public convenience init(_ env: PaneEnvironment) {
        let ws = env.workspace
        self.init(viewModel: DeliveriesViewModel(book: ws.book, invites: ws.invites, search: ws.deliveries,
                                                 audit: ws.audit, conversations: ws.conversations, context: env.context),
                  clock: env.clock)
    }
}

extension ConversationsPane {
    /// The pane on a workspace: its conversations, the address book `a` adds unknown numbers to, and whether this
    /// terminal may answer and mark replies seen.
    public convenience init(_ env: PaneEnvironment) {
        let ws = env.workspace
        self.init(viewModel: ConversationsViewModel(service: ws.conversations, book: ws.book, bookNames: ws.config.books.map(\.name),
                                                    readOnlyReason: ws.readOnlyReason, context: env.context), clock: env.clock)
    }
}
