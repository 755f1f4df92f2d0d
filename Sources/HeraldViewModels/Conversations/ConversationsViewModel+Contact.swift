import Foundation
import HeraldCore
import HeraldServices

/// `a` on a number nobody in the address book has: the contact form opens with the number filled in; saved, the
/// conversation carries the new name.
extension ConversationsViewModel {
    /// The unknown number `a` would add: the open thread's, else the conversation's under the cursor; nil when that
    /// number is in the book already.
    public var unknownNumber: String? {
        if let open = openNumber {
            let known = thread?.number == open ? thread?.personId ?? row(of: open)?.personId : row(of: open)?.personId
            return known == nil ? open : nil
        }
        guard let row = current, row.personId == nil else { return nil }
        return row.number
    }

    /// Why `a` cannot add a number now; nil when it can.
    public var addNumberProblem: String? {
        if let reason = readOnlyReason { return reason }
        if book == nil { return "no address book here to add the number to" }
        if openNumber == nil && current == nil { return "no conversation under the cursor" }
        if unknownNumber == nil { return "this number is in the address book already" }
        return nil
    }

    /// The card of a new contact with `number` filled in (the form `a` opens), naming the address books it may go to.
    public func newContactCard(for number: String) -> String {
        var draft = ContactDraft()
        draft.phones = [ContactDraft.Labeled(label: "mobile", value: number)]
        return draft.newCardText(books: bookNames)
    }

    /// Stores the new contact; the list and the thread are read again so the number shows the name.
    public func addContact(_ draft: ContactDraft) {
        if let reason = readOnlyReason { notify(reason, level: .warning); return }
        guard let book else { notify("no address book here to add the number to", level: .warning); return }
        context.run({ try await book.add(draft, book: draft.book) }, for: self, failure: "not added") { vm, person in
            vm.notify("Added \(TerminalSafeText.sanitize(person.displayName))", level: .success)
            vm.reload()
            vm.readThread()
        }
    }
}
