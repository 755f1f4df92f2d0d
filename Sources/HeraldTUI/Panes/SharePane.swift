import HeraldCore
import HeraldViewModels

/// The Share pane: the ways to share on the left (with why one is not available), the referral
/// link with its clicks, the QR code and the social share URLs on the right.
public final class SharePane: LivePane {
    public let model: ShareViewModel
    public let title = "Share"
    public var keyContext: KeyContext { .share }
    private var list = ListState()
    private var listRect = Rect.zero

    public init(model: ShareViewModel) {
        self.model = model
        list = ListState(count: model.channels.count)
    }

    // MARK: drawing

    public func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {
        let inside = canvas.box(rect, style: Style(.borderFocused), title: title)
        guard inside.width > 4, inside.height > 2 else { return }
        let columns = Layout.columns(inside, [.fixed(min(32, inside.width / 2)), .fixed(1), .flex(1)])
        renderChannels(into: &canvas, rect: columns[0])
        canvas.verticalLine(x: columns[1].x, y: columns[1].y, length: columns[1].height)
        renderDetail(into: &canvas, rect: columns[2].inset(left: 1), theme: theme)
        canvas.markLinks(in: columns[2].inset(left: 1))      // the referral link and share URLs: OSC 8 where shown
    }

    private func renderChannels(into canvas: inout Canvas, rect: Rect) {
        list.count = model.channels.count
        list.select(model.cursor)
        let rows = Layout.rows(rect, [.fixed(model.channels.count), .fixed(1), .flex(1)])
        listRect = rows[0]
        ListView.render(into: &canvas, rect: rows[0], state: &list) { canvas, rowRect, row in
            let channel = self.model.channels[row.index]
            let availability = self.model.availability(of: channel)
            let (mark, role): (String, Role) = switch availability {
            case .available: ("✓ ", .success)
            case .waiting: ("… ", .muted)
            case .unavailable: ("✗ ", .error)
            }
            let markStyle = row.isCursor ? Style(role).on(.backgroundOf(row.style.role)) : Style(role)
            let x = canvas.put(mark, x: rowRect.x + 1, y: rowRect.y, style: markStyle, clip: rowRect)
            canvas.put(TextFit.truncate(channel.title, to: rowRect.maxX - x), x: x, y: rowRect.y, style: row.style, clip: rowRect)
        }
        if case .unavailable(let reason) = model.availability(of: model.current) {
            let lines = WrappedText.lines(TerminalSafeText.sanitize(reason), width: rows[2].width - 1)
            for (i, line) in lines.prefix(rows[2].height).enumerated() {
                canvas.put(line, x: rows[2].x + 1, y: rows[2].y + i, style: Style(.warning), clip: rows[2])
            }
        }
    }

    private func renderDetail(into canvas: inout Canvas, rect: Rect, theme: Theme) {
        guard !rect.isEmpty else { return }
        var y = rect.y
        func line(_ text: String, _ style: Style = .text) {
            guard y < rect.maxY else { return }
            canvas.put(TextFit.truncate(text, to: rect.width), x: rect.x, y: y, style: style, clip: rect)
            y += 1
        }
        let showQR = model.showsQR || model.current == .qr
        let qr = model.qrLines(inverted: Self.isDarkOnLight(theme))
        let qrFitsWithHeader = qr.count + 3 <= rect.height
        if !showQR || qrFitsWithHeader {
            if let link = model.link {
                line("Referral link", Style(.title))
                line(TerminalSafeText.sanitize(link.url), Style(.accent, .bold))
                line("\(link.clicks) click\(link.clicks == 1 ? "" : "s")  ·  c copy  ·  Q QR code", Style(.muted))
            } else if let problem = model.linkProblem {
                for text in WrappedText.lines(TerminalSafeText.sanitize(problem), width: rect.width) { line(text, Style(.error)) }
            } else {
                line("Loading the referral link…", Style(.muted))
            }
        }
        if showQR {
            guard !qr.isEmpty else {
                if let problem = model.qrProblem { line(problem, Style(.error)) }
                return
            }
            guard qr.count <= rect.maxY - y, (qr.first.map(TextWidth.of) ?? 0) <= rect.width else {
                line("The window is too small for the QR code (\(qr.first.map(TextWidth.of) ?? 0)×\(qr.count) cells).", Style(.warning))
                return
            }
            for text in qr {
                canvas.put(text, x: rect.x, y: y, style: .text, clip: rect)
                y += 1
            }
            return
        }
        y += 1
        switch model.current {
        case .sms, .email:
            line(model.current == .sms ? "Invite the people selected in Contacts by SMS:" : "Invite the people selected in Contacts by email:")
            line("enter opens the Composer to write the message.", Style(.muted))
        case .link:
            line("enter or c copies the link to the clipboard.", Style(.muted))
        case .qr:
            break
        case .social(let platform):
            line("\(platform.displayName) share URL (enter or c copies it):")
            if let url = model.shareURL(for: platform) {
                for text in WrappedText.lines(url, width: rect.width) { line(text, Style(.accent)) }
            }
        }
        if case .social = model.current { return }
        y += 1
        for (name, url) in model.socialLinks {
            let row = y, room = rect.width - 10
            line(TextFit.pad(name, to: 9) + " " + url, Style(.muted))
            // Cut short here (…), the URL is still a link to the whole where the terminal shows links.
            canvas.markLink(x: rect.x + 10, y: row, width: url.count <= room ? url.count : room - 1, url: url)
        }
    }

    /// True when the theme draws dark text on a light background (the QR code then draws its dark modules).
    static func isDarkOnLight(_ theme: Theme) -> Bool {
        let text = theme.resolve(Style(.text))
        guard let fg = luminance(text.fg), let bg = luminance(text.bg) else { return false }
        return fg < bg
    }

    private static func luminance(_ color: TerminalColor) -> Double? {
        switch color {
        case .default: return nil
        case .rgb(let r, let g, let b): return 0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b)
        case .ansi(let n): return ansiLuminance(n)
        case .indexed(let n) where n < 16: return ansiLuminance(n)
        case .indexed(let n) where n >= 232: return Double(n - 232) * 10 + 8
        case .indexed(let n):
            let i = Int(n) - 16
            return (0.2126 * Double(i / 36) + 0.7152 * Double(i / 6 % 6) + 0.0722 * Double(i % 6)) * 51
        }
    }

    /// Black is dark, white and bright white are light; other colours are in between.
    private static func ansiLuminance(_ n: UInt8) -> Double {
        switch n {
        case 0: return 0
        case 7, 15: return 255
        default: return n >= 8 ? 200 : 100
        }
    }

    // MARK: input

    public var bindings: [PaneBinding] {
        let model = self.model
        return [
            PaneBinding(.open, footer: model.current.actionLabel) { model.choose() },
            PaneBinding(.copy, footer: "copy link") { model.copyCurrent() },
        ] + declaredBindings + [
            PaneBinding(.select) { model.choose() },
            PaneBinding.declining(.back) { model.hideQR() },
        ] + navigation.bindings
    }

    /// The channels' movement keys and wheel: a page is the whole (short) list.
    private var navigation: ListNavigation {
        let model = self.model
        let all = max(1, model.channels.count)
        return ListNavigation(page: all, halfPage: all, move: { model.moveCursor(to: model.cursor + $0) },
                              first: { model.moveCursor(to: 0) }, last: { model.moveCursor(to: model.channels.count - 1) })
    }

    public func handle(mouse: MouseEvent) -> Bool {
        if navigation.scroll(mouse, rows: 1) { return true }
        guard mouse.kind == .click, let index = ListNavigation.row(at: mouse, in: listRect, offset: list.offset) else { return false }
        if index == model.cursor { model.choose() } else { model.moveCursor(to: index) }
        return true
    }

    public func didAppear() {
        model.refresh()          // the click count moves while the pane is away
    }

    public func handle(serviceEvent: ServiceEvent) -> Bool { model.handle(serviceEvent) }
}

extension SharePane: KeyDeclaring {
    /// Share's own keys, each whole, in the footer's order (enter, space and c are shared with other panes).
    public nonisolated static let keys: [PaneKey<SharePane>] = [
        PaneKey("share_qr", [.char("Q")], "Show the link as a QR code", [.share],
                footerNow: { $0.model.showsQR ? "hide QR" : "QR" }) { $0.model.toggleQR() },
    ]
}
