import Foundation
import HeraldCore
@testable import HeraldTUI

/// A small screen that exercises the loop and the widgets (tabs, a 100,000-row list, a search
/// field, a progress bar, toasts, a modal, help) for the app-loop tests. Not a Herald pane.
public final class DemoScreen: Screen {
    public enum Event: Sendable { case toast(String), progress(Double) }

    private let clock: HeraldClock
    private let keyMap: KeyMap
    private var list: ListState
    private var search = TextFieldState()
    private var searching = false
    private var showHelp = false
    private var toasts = ToastCenter()
    private var progress = 0.3
    public private(set) var wantsToQuit = false
    private let rowCount: Int

    public init(rows: Int = 100_000, clock: HeraldClock = SystemClock(), keyMap: KeyMap = KeyMap()) {
        rowCount = rows
        list = ListState(count: rows)
        self.clock = clock
        self.keyMap = keyMap
    }

    public func render(into canvas: inout Canvas, size: Size) {
        let area = Rect(size)
        let parts = Layout.rows(area, [.fixed(1), .flex(1), .fixed(1), .fixed(1)])
        TabsView.render(into: &canvas, rect: parts[0], titles: ["1 Contacts", "2 Share", "3 Composer", "4 Inbox", "5 Deliveries"], selected: 0)
        let inside = canvas.box(parts[1], style: Style(.borderFocused), title: "Demo — \(rowCount) rows")
        let listArea = searching ? inside.inset(bottom: 1) : inside
        ListView.render(into: &canvas, rect: listArea, state: &list) { index in
            "Person \(index + 1)  •  +4470\(String(format: "%08d", index))"
        }
        if searching {
            TextFieldView.render(into: &canvas, rect: Rect(x: inside.x, y: inside.maxY - 1, width: inside.width, height: 1),
                                 state: &search, placeholder: "search…")
        }
        ProgressBarView.render(into: &canvas, rect: parts[2], segments: [
            ProgressSegment(progress * 80, role: .statusDelivered), ProgressSegment(15, role: .statusPending),
            ProgressSegment(5, role: .statusFailed),
        ], total: 100)
        let context: KeyContext = searching ? .editor : .contacts
        let hints: [(Action, String)] = searching ? [(.finishEditing, "done")] : [(.search, "search"), (.select, "select"), (.help, "help")]
        let hintSegments = hints.compactMap { action, label in
            keyMap.key(for: action, in: context).map { StatusSegment(" \(KeyName.label(of: $0)) \(label) ") }
        }
        StatusBarView.render(into: &canvas, rect: parts[3], left: hintSegments,
                             right: [StatusSegment(" \(list.cursor + 1)/\(rowCount) ")])
        ToastView.render(into: &canvas, area: parts[1].inset(by: 1), toasts: toasts.toasts)
        if showHelp {
            ModalView.render(into: &canvas, area: area, title: "Keys", lines: KeyHelp.overlayLines(for: .contacts, keyMap: keyMap),
                             buttons: ["Close"])
        }
    }

    public func handle(key: Key) -> Bool {
        if searching {
            if keyMap.action(for: key, in: .editor) == .finishEditing || key == .enter { searching = false; return true }
            return search.handle(key)
        }
        if showHelp { showHelp = false; return true }
        guard let action = keyMap.action(for: key, in: .contacts) else {
            if case .mouse(let m) = key { return handleMouse(m) }
            return false
        }
        let page = 20
        switch action {
        case .quit: wantsToQuit = true
        case .help: showHelp = true
        case .moveDown: list.move(by: 1)
        case .moveUp: list.move(by: -1)
        case .pageDown: list.pageDown(visibleRows: page)
        case .pageUp: list.pageUp(visibleRows: page)
        case .halfPageDown: list.move(by: page / 2)
        case .halfPageUp: list.move(by: -page / 2)
        case .first: list.home()
        case .last: list.end()
        case .search: searching = true
        case .open: toasts.post("Opened Person \(list.cursor + 1)", now: clock.now())
        default: return false
        }
        return true
    }

    private func handleMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .wheelDown: list.move(by: 3)
        case .wheelUp: list.move(by: -3)
        default: return false
        }
        return true
    }

    public func handle(event: Event) -> Bool {
        switch event {
        case .toast(let text): toasts.post(TerminalSafeText.sanitize(text), now: clock.now())
        case .progress(let value): progress = min(1, max(0, value))
        }
        return true
    }

    public func tick(now: Date) -> Bool { toasts.expire(now: now) }
    public func nextDeadline() -> Date? { toasts.nextDeadline }
}
