/// Draws the contact form over the pane: a label and a text field per row, a row's problem under it in the error
/// style, the Book row's choices under it, and the keys at the bottom. A form taller than the pane scrolls with
/// its cursor.
nonisolated enum ContactFormView {
    static let labelWidth = 14

    static func render(_ form: inout ContactForm, into canvas: inout Canvas, area: Rect) {
        // Each row's line, then what goes under it.
        var lines: [(row: Int?, text: String, style: Style)] = []
        for (i, row) in form.rows.enumerated() {
            lines.append((i, row.field, Style(.modal)))
            if let problem = row.problem { lines.append((nil, "  ! " + problem, Style(.error))) }
            if row.field == "Book" && i == form.focus { lines.append((nil, "  " + form.bookHint, Style(.muted))) }
        }
        let keys = form.confirmingCancel ? "esc again: throw the changes away · any other key: go on"
            : "tab/↓ next · ctrl-s save · ctrl-o $EDITOR · esc cancel"
        let width = min(max(40, area.width - 4), 80)
        let height = min(area.height, lines.count + 4)
        let rect = area.centered(width: width, height: height)
        guard rect.width >= 20, rect.height >= 5 else { return }
        canvas.fill(rect, style: Style(.modal))
        let inside = canvas.box(rect, style: Style(.borderFocused), characters: .rounded, title: form.title).inset(left: 1, right: 1)
        let room = inside.height - 2
        let focusLine = lines.firstIndex { $0.row == form.focus } ?? 0
        let top = max(0, min(focusLine - room / 2, lines.count - room))
        for (n, line) in lines.dropFirst(top).prefix(room).enumerated() {
            let y = inside.y + n
            guard let i = line.row else {
                canvas.put(TextFit.truncate(line.text, to: inside.width), x: inside.x, y: y, style: line.style, clip: inside)
                continue
            }
            let focused = i == form.focus
            canvas.put(TextFit.truncate(line.text, to: labelWidth - 1), x: inside.x, y: y,
                       style: focused ? Style(.accent, .bold) : Style(.modal), clip: inside)
            let field = Rect(x: inside.x + labelWidth, y: y, width: max(0, inside.width - labelWidth), height: 1)
            let placeholder = switch form.rows[i].field {
            case "Phone": "mobile: +385 91 234 5678"
            case "Email": "name@example.com"
            case "Field": "SHIRT_SIZE: L  (a message uses it as {SHIRT_SIZE})"
            default: ""
            }
            TextFieldView.render(into: &canvas, rect: field, state: &form.rows[i].value, focused: focused,
                                 placeholder: focused ? placeholder : "")
        }
        canvas.put(TextFit.truncate(keys, to: inside.width), x: inside.x, y: inside.maxY - 1,
                   style: Style(form.confirmingCancel ? .warning : .muted), clip: inside)
    }
}
