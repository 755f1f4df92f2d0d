/// Draws a one-line text input.
nonisolated public enum TextFieldView {
    /// Draws `state` in the one-line `rect`; the cursor cell is shown in the cursor style when focused,
    /// and `placeholder` in the placeholder style when the text is empty.
    public static func render(into canvas: inout Canvas, rect: Rect, state: inout TextFieldState,
                              focused: Bool = true, placeholder: String = "", style: Style = Style(.input)) {
        guard rect.width > 0, rect.height > 0 else { return }
        let line = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        canvas.fill(line, style: style)
        state.scrollToCursor(width: rect.width)
        if state.characters.isEmpty && !placeholder.isEmpty {
            // Focused, the cursor takes the first cell: the placeholder starts after it, never under it.
            let start = focused && rect.width > 1 ? 1 : 0
            canvas.put(TextFit.truncate(placeholder, to: rect.width - start), x: rect.x + start, y: rect.y,
                       style: Style(.placeholder), clip: line)
        } else {
            canvas.put(TextFit.columns(of: state.text, from: state.scroll, width: rect.width),
                       x: rect.x, y: rect.y, style: style, clip: line)
        }
        guard focused else { return }
        let cursorX = rect.x + TextEditing.columns(state.characters[..<state.cursor]) - state.scroll
        guard cursorX >= rect.x, cursorX < line.maxX else { return }
        let under = state.cursor < state.characters.count ? String(state.characters[state.cursor]) : " "
        canvas.put(under, x: cursorX, y: rect.y, style: Style(.cursor), clip: line)
    }
}
