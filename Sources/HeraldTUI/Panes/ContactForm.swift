import HeraldCore

/// The form `a` and `e` open in Contacts: one row per field of the contact's card (First name … Note, a row per
/// number, address and custom field — "SHIRT_SIZE: L" — and always an empty one more to add another), each a text
/// field; a custom field emptied is removed. Saving reads the rows as the
/// card they stand for, with the card's own checks: a row with a problem keeps the form open, marked, with the
/// cursor on it. Ctrl-o hands the same card to $EDITOR.
nonisolated struct ContactForm {
    struct Row {
        /// One of `ContactDraft.fields`.
        let field: String
        var value: TextFieldState
        /// Why the last save refused this row.
        var problem: String?
    }

    /// What a key did to the form.
    enum Outcome: Equatable {
        case none
        /// The rows read: store this draft.
        case save(ContactDraft)
        /// Leave the form (nothing stored).
        case cancel
        /// Hand this card to $EDITOR instead.
        case openEditor(String)
    }

    /// "New contact", or "Edit" and the name as it was when the form opened.
    let title: String
    /// The person edited; nil for a new contact.
    let personId: Int64?
    /// The address books a new contact may go to (its Book row), empty without `[[books]]`.
    let books: [String]
    var rows: [Row]
    private(set) var focus = 0
    /// Set by a first Esc on a changed form: a second one throws the changes away.
    private(set) var confirmingCancel = false
    private var opened = ""

    /// A form over `card` (as `ContactDraft.cardText` or `newCardText` writes it): a row per field line.
    init(card: String, personId: Int64?, books: [String]) {
        self.personId = personId
        self.books = books
        var rows: [Row] = []
        for line in card.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            guard !line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard let field = ContactDraft.fields.first(where: { $0.lowercased() == key.lowercased() }) else { continue }
            if field == "Book" && personId != nil { continue }
            rows.append(Row(field: field, value: TextFieldState(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))))
        }
        self.rows = rows
        func value(_ field: String) -> String { rows.first { $0.field == field }?.value.text ?? "" }
        let name = [value("First name"), value("Last name")].filter { !$0.isEmpty }.joined(separator: " ")
        title = personId == nil ? "New contact" : "Edit " + (name.isEmpty ? value("Name") : name)
        for field in Self.repeating { keepOneEmpty(field) }
        opened = cardText
    }

    /// The rows as the card they stand for, one line each.
    var cardText: String { card(namingBooks: false) }

    /// The card for $EDITOR: the rows, and before a Book row the books it may name.
    var editorCard: String { card(namingBooks: true) }

    private func card(namingBooks: Bool) -> String {
        rows.map { (namingBooks && $0.field == "Book" ? "# Book: \(bookHint)\n" : "") + "\($0.field): \($0.value.text)" }
            .joined(separator: "\n") + "\n"
    }

    var isChanged: Bool { cardText != opened }

    /// What the Book row is for: the books to write in it.
    var bookHint: String { "one of \(books.joined(separator: ", ")); empty: no book" }

    mutating func handle(_ key: Key) -> Outcome {
        if key != .escape { confirmingCancel = false }
        switch key {
        case .tab, .down: move(by: 1)
        case .backTab, .up: move(by: -1)
        case .enter:
            if focus == rows.count - 1 { return save() }
            move(by: 1)
        case .ctrl("s"): return save()
        case .ctrl("o"): return .openEditor(editorCard)
        case .escape:
            guard isChanged, !confirmingCancel else { return .cancel }
            confirmingCancel = true
        default:
            guard rows.indices.contains(focus), rows[focus].value.handle(key) else { return .none }
            rows[focus].problem = nil
            keepOneEmpty(rows[focus].field)
        }
        return .none
    }

    mutating func move(by step: Int) {
        guard !rows.isEmpty else { return }
        focus = min(rows.count - 1, max(0, focus + step))
    }

    /// The draft the rows make; else nothing, with each problem on its row and the cursor on the first.
    mutating func save() -> Outcome {
        for i in rows.indices { rows[i].problem = nil }
        do throws(ContactDraft.ProblemList) {
            var draft = try ContactDraft.parse(cardText: cardText)
            if let named = draft.book {
                guard let book = books.first(where: { $0.lowercased() == named.lowercased() }) else {
                    let row = rows.firstIndex { $0.field == "Book" } ?? focus
                    return refuse([ContactDraft.Problem(line: row + 1, field: "Book",
                                                        reason: "no address book \"\(named)\": \(bookHint)")])
                }
                draft.book = book
            }
            return .save(draft)
        } catch {
            return refuse(error.problems)
        }
    }

    private mutating func refuse(_ problems: [ContactDraft.Problem]) -> Outcome {
        var first: Int?
        for problem in problems {
            // A line's problem goes to its row; one of the whole card (too many numbers) to the first row of its field.
            let row = problem.line > 0 ? problem.line - 1 : rows.firstIndex { problem.field.hasPrefix($0.field) } ?? 0
            guard rows.indices.contains(row) else { continue }
            rows[row].problem = rows[row].problem.map { "\($0); \(problem.reason)" } ?? problem.reason
            first = min(first ?? row, row)
        }
        if let first { focus = first }
        return .none
    }

    /// The fields a card repeats, each with an empty row more to type another in.
    static let repeating = ["Phone", "Email", "Field"]

    /// Rows of `field` (Phone, Email, Field) end with exactly one empty row, where another one is typed.
    private mutating func keepOneEmpty(_ field: String) {
        guard Self.repeating.contains(field), let last = rows.lastIndex(where: { $0.field == field }) else { return }
        if !rows[last].value.text.isEmpty {
            rows.insert(Row(field: field, value: TextFieldState()), at: last + 1)
            return
        }
        var i = last - 1
        while i >= 0, rows[i].field == field, rows[i].value.text.isEmpty, i != focus {
            rows.remove(at: i)
            if focus > i { focus -= 1 }
            i -= 1
        }
    }
}

extension PaneBinding {
    /// The bindings of an open contact form, whichever pane hosts it: each key goes to the form (`formKey`), which
    /// saves on ctrl-s, moves between rows and closes on esc.
    static func contactForm(_ formKey: @escaping (Key) -> Void) -> [PaneBinding] {
        [PaneBinding(.send) { formKey(.ctrl("s")) },
         PaneBinding(.nextPane) { formKey(.tab) },
         PaneBinding(.previousPane) { formKey(.backTab) },
         PaneBinding(.laterSearch) { formKey(.down) },
         PaneBinding(.earlierSearch) { formKey(.up) }]
            + PaneBinding.each([.finishEditing, .back, .quit]) { formKey(.escape) }
    }
}
