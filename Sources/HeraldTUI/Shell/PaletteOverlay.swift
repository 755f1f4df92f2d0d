/// The `:` command line at the bottom with its completions above it.
public struct PaletteOverlay: Sendable, Equatable {
    public var field = TextFieldState()
    /// Index of the highlighted completion, nil while none is chosen.
    public private(set) var choice: Int?
    /// The completions being walked with ↑/↓ (kept while walking, so choosing one does not narrow the list).
    private var walking: [String]?
    /// Where ↑/↓ stand in the history of command lines run (nil: not in the history).
    private var historyIndex: Int?

    public init(text: String = "") { field = TextFieldState(text) }

    public var text: String { field.text }

    /// Tab: applies the highlighted completion, else completes as far as the candidates agree,
    /// else starts cycling through them.
    public mutating func complete(with palette: CommandPalette) {
        let options = palette.completions(for: field.text)
        guard !options.isEmpty else { return }
        let completed = palette.complete(field.text)
        if completed != field.text { field.setText(completed); choice = nil; return }
        let next = choice.map { ($0 + 1) % options.count } ?? 0
        choice = next
        field.setText(options[next])
    }

    public mutating func edited() {
        choice = nil
        walking = nil
        historyIndex = nil
    }

    /// ↑ (`delta` -1) or ↓ (+1): on an empty line, or once in the history, walks the command lines run before
    /// (newest first on ↑; ↓ past the newest empties the line); otherwise walks the completions of the line.
    public mutating func move(_ delta: Int, palette: CommandPalette, history: [String]) {
        if walking == nil, historyIndex != nil || field.text.isEmpty {
            guard !history.isEmpty else { return }
            let at = (historyIndex ?? history.count) + delta
            if at >= history.count {
                historyIndex = nil
                field.setText("")
            } else {
                historyIndex = max(0, at)
                field.setText(history[max(0, at)])
            }
            return
        }
        let options = walking ?? palette.completions(for: field.text)
        guard !options.isEmpty else { return }
        walking = options
        let next = choice.map { ($0 + delta + options.count) % options.count } ?? (delta > 0 ? 0 : options.count - 1)
        choice = next
        field.setText(options[next])
    }

    /// Draws the line in `line` and up to 8 completions above it.
    public mutating func render(into canvas: inout Canvas, line: Rect, palette: CommandPalette) {
        canvas.fill(line, style: Style(.input))
        canvas.put(":", x: line.x, y: line.y, style: Style(.accent, .bold, background: .backgroundOf(.input)))
        TextFieldView.render(into: &canvas, rect: line.inset(left: 1), state: &field,
                             placeholder: "command (tab completes, ↑↓ choose or recall, enter runs, esc closes)")
        let all = walking ?? palette.completions(for: field.text)
        // The window of 8 around the chosen one.
        let first = max(0, min((choice ?? 0) - 7, all.count - 8))
        let options = Array(all.dropFirst(first).prefix(8))
        guard !options.isEmpty, line.y > options.count else { return }
        let width = min(line.width, max(30, options.map { TextWidth.of($0) }.max() ?? 0) + 4)
        let box = Rect(x: line.x, y: line.y - options.count - 2, width: width, height: options.count + 2)
        canvas.fill(box, style: Style(.modal))
        let inside = canvas.box(box, style: Style(.border), characters: .rounded)
        for (i, option) in options.enumerated() {
            let chosen = first + i == choice
            let summary = palette.argumentHint(for: option)
            canvas.put(TextFit.pad(":" + option + summary, to: inside.width), x: inside.x, y: inside.y + i,
                       style: Style(chosen ? .selection : .modal), clip: inside)
        }
    }
}
