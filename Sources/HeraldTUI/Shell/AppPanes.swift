import HeraldViewModels

/// THE pane registry: the five panes in tab order. Each line builds one pane; replace a
/// placeholder by its real pane here and nowhere else.
public enum AppPanes {
    public static func make(_ env: PaneEnvironment) -> [any Pane] {
        [
            ContactsPane(env),
            PlaceholderPane(title: "Share", context: .share,
                            message: ["Share is not built yet.", "Invite from Contacts (I) meanwhile."]),
            PlaceholderPane(title: "Composer", context: .composer,
                            message: ["The composer is not built yet.", "Invite from Contacts (I) with the default message."]),
            PlaceholderPane(title: "Inbox", context: .inbox,
                            message: ["The inbox is not built yet.", "Read it with `herald inbox USER` meanwhile."]),
            PlaceholderPane(title: "Deliveries", context: .deliveries, message: ["Deliveries — being built."]),
        ]
    }
}
