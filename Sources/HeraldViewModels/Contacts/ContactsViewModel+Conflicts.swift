import Foundation
import HeraldCore
import HeraldServices

/// A conflict shown for settling: whose card, in which book, and the lines that differ between the two versions.
nonisolated public struct ConflictQuestion: Sendable, Hashable {
    public let personId: Int64
    public let book: String
    public let name: String
    /// Lines only Herald's version has, and lines only the server's has (REV left out), sanitised.
    public let mine: [String]
    public let theirs: [String]
    /// How many more conflicts wait after this one.
    public let more: Int

    init(_ conflict: BookConflict, name: String, more: Int) {
        personId = conflict.personId
        book = TerminalSafeText.sanitize(conflict.book)
        self.name = TerminalSafeText.sanitize(name)
        let lines = { (text: String) in
            text.split(whereSeparator: \.isNewline).map { TerminalSafeText.sanitize(String($0)) }.filter { !$0.hasPrefix("REV:") }
        }
        let a = lines(conflict.mine), b = lines(conflict.theirs)
        mine = a.filter { !b.contains($0) }
        theirs = b.filter { !a.contains($0) }
        self.more = more
    }
}

/// `C`: the next card changed on both sides, with a choice between Herald's version and the server's.
extension ContactsViewModel {
    public func askConflict() {
        guard let books else { notify("no address books are configured"); return }
        let book = self.book
        context.run({ () async throws -> ConflictQuestion? in
            let all = try await books.conflicts()
            guard let first = all.first else { return nil }
            let name = try await book.person(id: first.personId)?.displayName ?? "contact \(first.personId)"
            return ConflictQuestion(first, name: name, more: all.count - 1)
        }, for: self, failure: "cannot read the conflicts") { vm, question in
            guard let question else { vm.notify("no conflicts: every card is the same here and on its server"); return }
            vm.conflictQuestion = question
        }
    }

    public func cancelConflict() { conflictQuestion = nil }

    /// Keeps Herald's version (`keepMine`, sent at the next sync) or the server's.
    public func settleConflict(keepMine: Bool) {
        guard let question = conflictQuestion, let books else { return }
        conflictQuestion = nil
        context.run({ try await books.resolve(personId: question.personId, keepMine: keepMine) }, for: self, failure: "not settled") { vm, _ in
            vm.notify(keepMine ? "kept Herald's version of \(question.name): the next sync sends it"
                               : "kept the server's version of \(question.name)", level: .success)
            vm.reload()
        }
    }
}
