import HeraldCore

/// A pane not built yet: its tab exists and it says so plainly (no fake content, no "loading").
/// Replaced one line each in `AppScreen.standardPanes`.
public final class PlaceholderPane: Pane {
    public let title: String
    public let keyContext: KeyContext
    private let message: [String]

    public init(title: String, context: KeyContext, message: [String]) {
        self.title = title
        keyContext = context
        self.message = message
    }

    public func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {
        let inside = canvas.box(rect, style: Style(.borderFocused), title: title)
        for (i, line) in message.enumerated() where i < inside.height {
            canvas.put(TextFit.truncate(line, to: inside.width - 2), x: inside.x + 1, y: inside.y + 1 + i,
                       style: Style(i == 0 ? .text : .muted), clip: inside)
        }
    }

    public var bindings: [PaneBinding] { [] }
}
