import HeraldViewModels

/// The `:` command line at the bottom with its completions above it.
public struct PaletteOverlay: Sendable, Equatable {
    public var field = TextFieldState()
    /// Index of the highlighted completion, nil while none is chosen.
    public private(set) var choice: Int?

    public init() {}

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

    public mutating func edited() { choice = nil }

    /// Draws the line in `line` and up to 8 completions above it.
    public mutating func render(into canvas: inout Canvas, line: Rect, palette: CommandPalette) {
        canvas.fill(line, style: Style(.input))
        canvas.put(":", x: line.x, y: line.y, style: Style(.accent, .bold, background: .backgroundOf(.input)))
        TextFieldView.render(into: &canvas, rect: line.inset(left: 1), state: &field,
                             placeholder: "command (tab completes, enter runs, esc closes)")
        let options = Array(palette.completions(for: field.text).prefix(8))
        guard !options.isEmpty, line.y > options.count else { return }
        let width = min(line.width, max(30, options.map { TextWidth.of($0) }.max() ?? 0) + 4)
        let box = Rect(x: line.x, y: line.y - options.count - 2, width: width, height: options.count + 2)
        canvas.fill(box, style: Style(.modal))
        let inside = canvas.box(box, style: Style(.border), characters: .rounded)
        for (i, option) in options.enumerated() {
            let chosen = i == choice
            let summary = CommandPalette.entries.first { $0.name == option }.map { "  " + ($0.argument ?? "") } ?? ""
            canvas.put(TextFit.pad(":" + option + summary, to: inside.width), x: inside.x, y: inside.y + i,
                       style: Style(chosen ? .selection : .modal), clip: inside)
        }
    }
}
