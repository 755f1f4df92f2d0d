/// A centred dialog box with a title, lines of content and buttons.
nonisolated public enum ModalView {
    /// Draws the modal in the middle of `area`; returns its rect. Content lines are truncated to fit.
    @discardableResult
    public static func render(into canvas: inout Canvas, area: Rect, title: String, lines: [String],
                              buttons: [String] = [], selectedButton: Int = 0, minWidth: Int = 20) -> Rect {
        let buttonLabels = buttons.map { "[ \($0) ]" }
        let buttonsWidth = buttonLabels.reduce(0) { $0 + TextWidth.of($1) } + max(0, buttonLabels.count - 1)
        let contentWidth = max(minWidth, TextWidth.of(title) + 2, buttonsWidth, lines.map(TextWidth.of).max() ?? 0)
        let height = lines.count + 2 + (buttons.isEmpty ? 0 : 2)
        let rect = area.centered(width: contentWidth + 4, height: height)
        guard rect.width >= 4, rect.height >= 3 else { return rect }
        canvas.fill(rect, style: Style(.modal))
        let inside = canvas.box(rect, style: Style(.borderFocused), characters: .rounded, title: title).inset(left: 1, right: 1)
        for (i, line) in lines.enumerated() where i < inside.height {
            canvas.put(TextFit.truncate(line, to: inside.width), x: inside.x, y: inside.y + i, style: Style(.modal), clip: inside)
        }
        if !buttons.isEmpty && inside.height >= 2 {
            let y = inside.maxY - 1
            var x = inside.x + max(0, (inside.width - buttonsWidth) / 2)
            for (i, label) in buttonLabels.enumerated() {
                x = canvas.put(label, x: x, y: y, style: Style(i == selectedButton ? .buttonFocused : .button), clip: inside) + 1
            }
        }
        return rect
    }
}
