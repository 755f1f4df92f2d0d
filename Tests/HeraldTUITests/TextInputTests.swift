@testable import HeraldTUI
import Testing

@Suite struct TextFieldTests {
    @Test func editingWorksByGraphemeNotByScalar() {
        var field = TextFieldState("Jose\u{301}")
        field.deleteBackward()
        #expect(field.text == "Jos")
        field.insert("é 👩‍👩‍👧")
        field.moveLeft()
        field.deleteForward()
        #expect(field.text == "José ")
    }

    @Test func wordJumpsAndKills() {
        var field = TextFieldState("send to Ada Lovelace")
        field.wordLeft()
        #expect(field.cursor == 12)
        field.wordLeft(); field.wordLeft()
        #expect(field.cursor == 5)
        field.wordRight()
        #expect(field.cursor == 7)
        _ = field.handle(.ctrl("w"))
        #expect(field.text == "send  Ada Lovelace")
        _ = field.handle(.ctrl("k"))
        #expect(field.text == "send ")
        #expect(field.handle(.up) == false)
    }

    @Test func pastedControlSequencesNeverEnterTheText() {
        var field = TextFieldState()
        _ = field.handle(.paste("a\u{1B}[2Jb\nc"))
        #expect(field.text == "ab c")
    }

    @Test func longTextScrollsToKeepTheCursorVisible() {
        var canvas = Canvas(size: Size(width: 6, height: 1))
        var field = TextFieldState("abcdefghij")
        TextFieldView.render(into: &canvas, rect: canvas.bounds, state: &field)
        #expect(canvas.snapshot() == "fghij")            // cursor cell (a space) at the end
        #expect(canvas.cell(x: 5, y: 0)?.style.role == .cursor)
        field.moveHome()
        TextFieldView.render(into: &canvas, rect: canvas.bounds, state: &field)
        #expect(canvas.snapshot() == "abcdef")
        #expect(canvas.cell(x: 0, y: 0)?.style.role == .cursor)
    }

    @Test func emptyFieldShowsThePlaceholder() {
        var canvas = Canvas(size: Size(width: 12, height: 1))
        var field = TextFieldState()
        TextFieldView.render(into: &canvas, rect: canvas.bounds, state: &field, focused: false, placeholder: "search…")
        #expect(canvas.snapshot() == "search…")
        #expect(canvas.cell(x: 0, y: 0)?.style.role == .placeholder)
        // Focused, the cursor cell comes first and hides no letter of the placeholder.
        TextFieldView.render(into: &canvas, rect: canvas.bounds, state: &field, focused: true, placeholder: "search…")
        #expect(canvas.snapshot() == " search…")
        #expect(canvas.cell(x: 0, y: 0)?.style.role == .cursor)
        #expect(canvas.cell(x: 1, y: 0)?.style.role == .placeholder)
    }
}

@Suite struct EditorTests {
    @Test func typingNewlinesAndJoiningLines() {
        var editor = EditorState()
        for key: Key in [.char("H"), .char("i"), .enter, .char("y"), .char("o")] { _ = editor.handle(key) }
        #expect(editor.text == "Hi\nyo")
        editor.moveLineStart()
        editor.deleteBackward()
        #expect(editor.text == "Hiyo")
        #expect(editor.column == 2)
    }

    @Test func upAndDownKeepTheDisplayColumn() {
        var editor = EditorState("李小龍 here\nab\nabcdefghijk")
        editor.wrapWidth = 40
        editor.moveLineStart()
        for _ in 0..<5 { editor.moveRight() }                 // line 2, display column 5
        editor.moveVertically(by: -1)
        #expect(editor.line == 1 && editor.column == 2)      // short line: clamped to its end
        editor.moveVertically(by: -1)
        #expect(editor.line == 0 && editor.column == 2)      // before 龍: half a wide char is never entered
        editor.moveVertically(by: 2)
        #expect(editor.line == 2 && editor.column == 5)      // the column is remembered
    }

    @Test func wrappedLinesRenderWithHighlightsAndCursor() {
        var canvas = Canvas(size: Size(width: 10, height: 4))
        var editor = EditorState("Hi {firstName}, join me")
        let highlights = [EditorHighlight(line: 0, range: 3..<14, style: Style(.highlight))]
        EditorView.render(into: &canvas, rect: canvas.bounds, state: &editor, highlights: highlights)
        #expect(canvas.snapshot() == "Hi\n{firstName\n}, join me\n")   // a full last row gets one for the cursor
        #expect(canvas.cell(x: 0, y: 1)?.style.role == .highlight)
        #expect(canvas.cell(x: 0, y: 3)?.style.role == .cursor)
        #expect(canvas.cell(x: 3, y: 2)?.style.role == .input)
    }

    @Test func downMovesThroughWrappedRows() {
        var editor = EditorState("aaaa bbbb cccc")
        editor.wrapWidth = 5
        #expect(editor.visualRows(width: 5).map { [$0.start, $0.end] } == [[0, 5], [5, 10], [10, 14]])
        editor.moveLineStart()
        editor.moveVertically(by: 1)
        #expect(editor.column == 5)
        editor.moveRight()
        editor.moveVertically(by: 1)
        #expect(editor.column == 11)
    }
}
