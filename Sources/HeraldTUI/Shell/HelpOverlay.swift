/// The `?` overlay: every binding for the focused context, generated from the key table, scrollable. A binding the
/// pane does not offer in its present state (the list's keys while a detail is open) is shown muted.
public struct HelpOverlay: Sendable, Equatable {
    public let context: KeyContext
    public let lines: [String]
    /// Indexes into `lines` of the bindings not offered now.
    public let unavailable: Set<Int>
    public private(set) var scroll = 0
    /// Lines as last drawn, long descriptions wrapped (what scrolling counts).
    private var drawnCount = 0

    /// - Parameters:
    ///   - offered: the actions the focused pane offers now (its bindings); nil: all of them.
    ///   - reasons: why a binding the pane lists cannot run now, shown after its muted line.
    public init(context: KeyContext, keyMap: KeyMap, offered: Set<Action>? = nil, reasons: [Action: String] = [:]) {
        self.context = context
        let overlay = KeyHelp.overlay(for: context, keyMap: keyMap, offered: offered, reasons: reasons)
        lines = overlay.map(\.text)
        unavailable = Set(overlay.indices.filter { overlay[$0].muted })
    }

    /// Scrolls by `delta` lines when `visible` lines are shown.
    public mutating func scroll(by delta: Int, visible: Int) {
        scroll = max(0, min(scroll + delta, max(0, max(lines.count, drawnCount) - visible)))
    }

    /// `lines` fitted to `width`: a description too long for its row goes on under itself, not cut.
    static func wrap(_ lines: [String], width: Int, keyColumn: Int = 19) -> [String] {
        lines.flatMap { line -> [String] in
            guard TextWidth.of(line) > width, line.hasPrefix("  "), width > keyColumn + 10 else { return [line] }
            let head = String(line.prefix(keyColumn))
            let description = String(line.dropFirst(keyColumn))
            let indent = String(repeating: " ", count: keyColumn)
            return WrappedText.lines(description, width: width - keyColumn).enumerated().map { ($0.offset == 0 ? head : indent) + $0.element }
        }
    }

    /// Lines the box shows in `area`.
    static func visibleLines(in area: Rect) -> Int { max(1, min(area.height - 2, 40) - 3) }

    /// Draws the box centred in `area`.
    public mutating func render(into canvas: inout Canvas, area: Rect) {
        let width = min(area.width - 4, 84)
        let visible = Self.visibleLines(in: area)
        let unavailable = self.unavailable
        let wrapped = self.lines.enumerated().flatMap { index, line in
            Self.wrap([line], width: width - 4).map { (text: $0, muted: unavailable.contains(index)) }
        }
        let lines = wrapped.map(\.text)
        drawnCount = lines.count
        scroll(by: 0, visible: visible)
        let rect = area.centered(width: width, height: min(lines.count, visible) + 3)
        canvas.fill(rect, style: Style(.modal))
        let inside = canvas.box(rect, style: Style(.borderFocused), characters: .rounded,
                                title: "Keys — \(context.title)").inset(left: 1, right: 1)
        let end = min(lines.count, scroll + visible)
        for (row, index) in (scroll..<end).enumerated() {
            let line = lines[index]
            let isHeading = !line.hasPrefix(" ") && !line.isEmpty
            let style = isHeading ? Style(.title) : wrapped[index].muted ? Style(.muted, background: .backgroundOf(.modal)) : Style(.modal)
            canvas.put(TextFit.truncate(line, to: inside.width), x: inside.x, y: inside.y + row, style: style, clip: inside)
        }
        let more = lines.count > visible ? "  \(scroll + 1)–\(end) of \(lines.count)" : ""
        canvas.put(TextFit.truncate("↑↓ PgUp PgDn scroll · Esc close" + more, to: inside.width),
                   x: inside.x, y: inside.maxY - 1, style: Style(.muted, background: .backgroundOf(.modal)), clip: inside)
    }
}
