import HeraldCore
import Testing
@testable import HeraldTUI

/// The form of `a` and `e`: rows from the card, typing, a row more for another number, the card's own checks on
/// save (each problem on its row, the cursor on the first), the Book row, and Esc on a changed form.
struct ContactFormTests {
    func type(_ text: String, into form: inout ContactForm) {
        for c in text { #expect(form.handle(.char(c)) == .none) }
    }

    func field(_ form: ContactForm, _ name: String) -> [String] { form.rows.filter { $0.field == name }.map(\.value.text) }

    @Test func aNewContactIsTypedRowByRowAndSaved() {
        var form = ContactForm(card: ContactDraft().cardText, personId: nil, books: [])
        #expect(form.title == "New contact")
        #expect(form.rows.map(\.field) == ["First name", "Last name", "Name", "Organization", "Phone", "Email", "Field", "Note"])
        type("Zvonimir", into: &form)
        _ = form.handle(.tab)
        type("Zec", into: &form)
        _ = form.handle(.tab); _ = form.handle(.tab); _ = form.handle(.tab)
        type("mobile: +385 98 765 4321", into: &form)
        // A number typed: an empty row for the next one appears under it.
        #expect(field(form, "Phone") == ["mobile: +385 98 765 4321", ""])
        _ = form.handle(.down)
        type("+385 91 111 2222", into: &form)
        #expect(field(form, "Phone").count == 3)
        guard case .save(let draft) = form.handle(.ctrl("s")) else { Issue.record("not saved"); return }
        #expect(draft.firstName == "Zvonimir" && draft.lastName == "Zec")
        #expect(draft.phones == [.init(label: "mobile", value: "+385 98 765 4321"), .init(label: nil, value: "+385 91 111 2222")])
        #expect(draft.book == nil)
    }

    @Test func anEditStartsFromTheCardAndAProblemStaysOnItsRow() {
        var person = ContactDraft()
        person.firstName = "Ana"
        person.lastName = "Horvat"
        person.emails = [.init(label: "work", value: "ana@acme.hr")]
        var form = ContactForm(card: person.cardText, personId: 7, books: ["personal"])
        #expect(form.title == "Edit Ana Horvat")
        #expect(!form.rows.contains { $0.field == "Book" })          // a book is changed with a Book line in $EDITOR, or m
        #expect(field(form, "Email") == ["work: ana@acme.hr", ""])
        // The address broken: nothing is saved, the cursor goes to its row, which says why.
        while form.rows[form.focus].field != "Email" { _ = form.handle(.tab) }
        _ = form.handle(.ctrl("u"))
        type("not-an-address", into: &form)
        _ = form.handle(.tab)
        #expect(form.handle(.ctrl("s")) == .none)
        #expect(form.rows[form.focus].field == "Email")
        #expect(form.rows[form.focus].problem?.contains("is not an email address") == true)
        // Mended, the problem goes and the form saves.
        _ = form.handle(.ctrl("u"))
        #expect(form.rows[form.focus].problem == nil)
        type("ana@home.example", into: &form)
        guard case .save(let draft) = form.handle(.ctrl("s")) else { Issue.record("not saved"); return }
        #expect(draft.emails == [.init(label: nil, value: "ana@home.example")])
        #expect(draft.firstName == "Ana")
    }

    @Test func theBookRowTakesOneOfTheBooks() {
        var form = ContactForm(card: ContactDraft().newCardText(books: ["personal", "work"]), personId: nil, books: ["personal", "work"])
        #expect(field(form, "Book") == ["personal"])
        type("Mia", into: &form)
        while form.rows[form.focus].field != "Book" { _ = form.handle(.tab) }
        _ = form.handle(.ctrl("u"))
        type("holiday", into: &form)
        #expect(form.handle(.ctrl("s")) == .none)
        #expect(form.rows[form.focus].problem == "no address book \"holiday\": one of personal, work; empty: no book")
        _ = form.handle(.ctrl("u"))
        type("WORK", into: &form)
        guard case .save(let draft) = form.handle(.ctrl("s")) else { Issue.record("not saved"); return }
        #expect(draft.book == "work")
    }

    @Test func escOnAChangedFormAsksOnceMoreAndCtrlOHandsTheCardOn() {
        var form = ContactForm(card: ContactDraft().cardText, personId: nil, books: [])
        #expect(form.handle(.escape) == .cancel)                      // nothing typed: closes at once
        type("Li", into: &form)
        #expect(form.handle(.escape) == .none && form.confirmingCancel)
        #expect(form.handle(.char("u")) == .none && !form.confirmingCancel)   // any other key goes on
        #expect(form.handle(.escape) == .none)
        #expect(form.handle(.escape) == .cancel)
        guard case .openEditor(let card) = form.handle(.ctrl("o")) else { Issue.record("no card for $EDITOR"); return }
        #expect(card.hasPrefix("First name: Liu\nLast name: \n"))
        #expect((try? ContactDraft.parse(cardText: card))?.firstName == "Liu")
    }

    @Test func controlCharactersTypedOrPastedNeverReachTheCard() {
        var form = ContactForm(card: ContactDraft().cardText, personId: nil, books: [])
        _ = form.handle(.paste("Ev\u{1B}[2Jil\u{07}\nName: x"))
        guard case .save(let draft) = form.handle(.ctrl("s")) else { Issue.record("not saved"); return }
        #expect(!draft.firstName.unicodeScalars.contains { $0.value < 0x20 })
        #expect(draft.name.isEmpty)
    }
}
