import HeraldViewModels

/// The two bottom lines: key hints of the focused pane, and the app's status.
enum AppStatusBar {
    static func renderHints(into canvas: inout Canvas, rect: Rect, hints: [(key: String, label: String)]) {
        let global: [(key: String, label: String)] = [("?", "help"), (":", "command"), ("q", "quit")]
        let segments = (hints + global).flatMap { hint in
            [StatusSegment(" " + hint.key, style: Style(.statusBarKey)), StatusSegment(" " + hint.label + " ")]
        }
        StatusBarView.render(into: &canvas, rect: rect, left: segments)
    }

    static func renderStatus(into canvas: inout Canvas, rect: Rect, app: AppViewModel, themeName: String) {
        var left = [StatusSegment(" \(app.workspaceName) ", style: Style(.statusBarKey)),
                    StatusSegment(" \(app.platformName)\(app.platformLink.map { " " + $0.label } ?? "") "),
                    StatusSegment("│ \(app.pendingDeliveries) pending ")]
        if let unread = app.unreadInbox { left.append(StatusSegment("│ \(unread) unread ")) }
        if let last = app.lastEvent { left.append(StatusSegment("│ \(last) ", style: Style(.statusBar, .dim))) }
        StatusBarView.render(into: &canvas, rect: rect, left: left, right: [StatusSegment(" \(themeName) ")])
    }
}
