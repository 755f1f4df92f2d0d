import HeraldCore
import HeraldViewModels

/// The two bottom lines: key hints of the focused pane, and the app's status.
enum AppStatusBar {
    /// The focused pane's hints and the global ones, each with the key the key map binds now; a hint whose
    /// action has no key left (remapped away) is not shown.
    static func renderHints(into canvas: inout Canvas, rect: Rect, hints: [(key: HintKey, label: String)], context: KeyContext,
                            keyMap: KeyMap) {
        let global: [(key: HintKey, label: String)] = [(.action(.help), "help"), (.action(.commandPalette), "command"),
                                                       (.action(.quit), "quit")]
        let segments = (hints + global).flatMap { hint -> [StatusSegment] in
            let key: String
            switch hint.key {
            case .fixed(let text): key = text
            case .action(let action):
                guard let bound = keyMap.key(for: action, in: context) else { return [] }
                key = KeyName.label(of: bound)
            }
            return [StatusSegment(" " + key, style: Style(.statusBarKey)), StatusSegment(" " + hint.label + " ")]
        }
        StatusBarView.render(into: &canvas, rect: rect, left: segments)
    }

    static func renderStatus(into canvas: inout Canvas, rect: Rect, app: AppViewModel, themeName: String) {
        var left = [StatusSegment(" \(app.workspaceName) ", style: Style(.statusBarKey)),
                    StatusSegment(" \(app.platformName)\(app.platformLink.map { " " + $0.label } ?? "") "),
                    StatusSegment("│ \(app.pendingDeliveries) pending ")]
        if let unread = app.unreadInbox { left.append(StatusSegment("│ \(unread) unread ")) }
        if let replies = app.unreadReplies, replies > 0 {
            left.append(StatusSegment("│ \(counted(replies, "unread reply", "unread replies")) ", style: Style(.statusBarKey)))
        }
        if app.readOnlyReason != nil { left.append(StatusSegment("│ read-only ", style: Style(.statusBarKey))) }
        if let notice = app.notice { left.append(StatusSegment(" ● \(TerminalSafeText.sanitize(notice)) ", style: Style(.statusBarKey))) }
        if let last = app.lastEvent { left.append(StatusSegment("│ \(last) ", style: Style(.statusBar, .dim))) }
        StatusBarView.render(into: &canvas, rect: rect, left: left, right: [StatusSegment(" \(themeName) ")])
    }
}
