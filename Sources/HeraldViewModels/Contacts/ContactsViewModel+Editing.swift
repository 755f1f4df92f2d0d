import Foundation
import HeraldCore
import HeraldServices

/// What a merge would store, as the question shows it (terminal-safe text).
public struct MergePreview: Sendable, Hashable {
    public let ids: [Int64]
    /// The person kept, and those merged into it.
    public let kept: String
    public let removed: [String]
    /// "label: number" and "label: address" of the merged person.
    public let phones: [String]
    public let emails: [String]
    /// Numbers and emails over a contact's limits, left out.
    public let leftOut: Int

    init(_ plan: ContactMergePlan) {
        let safe = { (text: String) in TerminalSafeText.sanitize(text) }
        ids = plan.ids
        kept = safe(plan.merged.displayName)
        removed = plan.removed.map { safe($0.displayName) }
        phones = plan.merged.phones.map { safe(($0.label.map { "\($0): " } ?? "") + $0.number.raw) }
        emails = plan.merged.emails.map { safe(($0.label.map { "\($0): " } ?? "") + $0.address) }
        leftOut = plan.leftOut
    }
}

/// Changing the address book in Contacts: `a` adds and `e` edits a contact from its card (the pane hands the card to
/// the person's editor), `x` deletes with an undo (`u`), `M` merges the selected people after a preview, `=` shows only
/// the people who look like one person. Every store write is an effect; the list is read again when it is done.
extension ContactsViewModel {
    /// Who `e` edits: the person open in the detail, else the one under the cursor.
    public var editTarget: Int64? { detail?.personId ?? currentRow?.personId }

    /// The card of the person `e` edits, read off the UI thread, handed to `then` on it (nil: nobody to edit).
    public func withCard(_ then: @escaping (Int64, String) -> Void) {
        guard let id = editTarget else { notify("nobody to edit: move the cursor to a person"); return }
        let book = self.book
        context.run({ try await book.card(personId: id) }, for: self, failure: "could not read the contact") { vm, card in
            guard let card else { vm.notify("that person is no longer in the address book"); return }
            then(id, card)
        }
    }

    /// Stores a card the person edited: a new contact (`personId` nil) or changes to one.
    public func save(_ draft: ContactDraft, personId: Int64?) {
        let book = self.book
        context.run({ () async throws -> (Person?, Bool) in
            if let personId { return (try await book.save(draft, personId: personId), false) }
            return (try await book.add(draft, book: draft.book), true)
        }, for: self, failure: "not saved") { vm, saved in
            guard let person = saved.0 else { vm.notify("nothing changed", level: .info); return }
            let name = TerminalSafeText.sanitize(person.displayName)
            vm.notify(saved.1 ? "Added \(name)" : "Saved \(name)", level: .success)
            vm.reload(keepingCursor: true)
            if let id = vm.detail?.personId, id == person.id { vm.readDetail(personId: id, reasons: vm.detail?.reasons, opening: false) }
        }
    }

    /// Deletes the selection (or the person under the cursor) at once; `u` brings them back.
    public func deleteContacts() {
        let ids = targets()
        guard !ids.isEmpty else { notify("nobody to delete: move the cursor to a person"); return }
        let book = self.book
        context.run({ try await book.delete(ids: ids) }, for: self, failure: "not deleted") { vm, people in
            vm.deletedForUndo = people
            vm.picks.clear()
            let what = people.count == 1 ? TerminalSafeText.sanitize(people[0].displayName) : "\(people.count) people"
            vm.notify("Deleted \(what) — u brings \(people.count == 1 ? "them" : "them all") back", level: .success)
            vm.reload(keepingCursor: false)
        }
    }

    /// `u`: brings back the people just deleted, else the selection a select-none or invert cleared.
    public func undo() {
        guard let people = deletedForUndo else { restoreSelection(); return }
        deletedForUndo = nil
        let book = self.book
        effects.perform({ try await book.restore(people) }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                self.notify(people.count == 1 ? "\(TerminalSafeText.sanitize(people[0].displayName)) is back" : "\(people.count) people are back",
                            level: .success)
                self.reload(keepingCursor: true)
            case .failure(let error):
                self.deletedForUndo = people
                self.notify("could not bring them back: \(Self.describe(error))", level: .error)
            }
        })
    }

    /// `M`: asks to merge the selected people (into the one first in the list), showing what would be kept.
    public func askMerge() {
        let ids = selectionInListOrder()
        guard ids.count >= 2 else { notify("select the people to merge (space), at least two"); return }
        let book = self.book
        context.run({ try await book.mergePlan(ids: ids) }, for: self, failure: "cannot merge") { vm, plan in
            vm.mergeQuestion = MergePreview(plan)
        }
    }

    public func cancelMerge() { mergeQuestion = nil }

    /// Merges as the question showed.
    public func confirmMerge() {
        guard let plan = mergeQuestion else { return }
        mergeQuestion = nil
        let book = self.book
        context.run({ try await book.merge(ids: plan.ids) }, for: self, failure: "not merged") { vm, done in
            vm.picks.clear()
            vm.notify("Merged \(done.removed.count + 1) people into \(TerminalSafeText.sanitize(done.merged.displayName))", level: .success)
            vm.reload(keepingCursor: false)
        }
    }

    /// `=`: only the people who look like one person, group after group; again (or esc) shows everyone.
    public func toggleDuplicates() {
        feed.showsDuplicates.toggle()
        cursor = 0
        _ = picks.cancelRange()
        reload(keepingCursor: false)
    }

    /// The selected ids in the order the list shows them (the first is the one a merge keeps): a search's or the
    /// duplicates view's order, else the rows read so far; the rest come after, by id.
    func selectionInListOrder() -> [Int64] {
        let ordered = listing.ids ?? rows(in: 0..<count).compactMap { $0?.personId }
        let inOrder = ordered.filter { selection.contains($0) }
        return inOrder + selection.subtracting(inOrder).sorted()
    }
}
