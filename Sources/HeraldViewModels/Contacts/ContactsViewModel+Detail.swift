import HeraldServices

/// One person's detail in Contacts: opened from the row under the cursor, read off the UI thread and read again when
/// the ledger changes; a cursor over the person's numbers chooses the one invitations go to.
extension ContactsViewModel {
    public func openDetail() {
        guard let row = currentRow, let id = row.personId else { return }
        let reasons = suggested.first { $0.person.id == id }?.reasons
        readDetail(personId: id, reasons: reasons, opening: true)
    }

    func readDetail(personId id: Int64, reasons: [String]?, opening: Bool) {
        let book = self.book
        effects.perform({ try await book.detail(personId: id) }, then: { [weak self] result in
            guard let self else { return }
            if !opening && self.detail?.personId != id { return }      // closed meanwhile
            switch result {
            case .success(let found?):
                let view = PersonDetailView(detail: found, reasons: reasons)
                let number = opening ? view.numbers.firstIndex(where: \.invited) ?? 0
                                     : min(self.detailNumber, max(0, view.numbers.count - 1))
                let kept = self.detail?.personId == id ? self.opened?.conversation : nil     // shown until read again
                self.opened = OpenedPerson(view: view, number: number, conversation: kept)
                self.readConversation()
            case .success(nil):
                self.opened = nil
                self.toasts.post("this person is no longer in the address book", level: .warning)
                self.reload()
            case .failure(let error):
                self.toasts.post("could not read this person: \(Self.describe(error))", level: .error)
            }
        })
    }

    public func closeDetail() { opened = nil }

    /// Moves the detail's number cursor by `delta`; false when there is no other number to move to.
    @discardableResult
    public func moveDetailNumber(by delta: Int) -> Bool {
        guard let count = detail?.numbers.count, count > 1 else { return false }
        let next = max(0, min(count - 1, detailNumber + delta))
        guard next != detailNumber else { return false }
        opened?.number = next
        return true
    }

    /// Makes the number under the detail's cursor the one this person's invitations go to; on the
    /// chosen number, lets Herald choose again. A number that cannot take an SMS is refused, with why.
    public func chooseDetailNumber() {
        guard let detail, let id = detail.personId, let number = detail.numbers[safe: detailNumber] else { return }
        guard number.choosable, let e164 = number.e164 else {
            toasts.post("\(number.e164 ?? number.raw) cannot be chosen: \(number.skipped ?? number.problem ?? "it cannot take an SMS")",
                        level: .warning)
            return
        }
        let choice: String? = number.chosen ? nil : e164
        let book = self.book
        context.run({ try await book.setSMSNumber(choice, personId: id) }, for: self, failure: "could not save the choice") { vm, _ in
            vm.notify(choice.map { "invitations to \(detail.name) go to \($0)" }
                      ?? "Herald chooses \(detail.name)'s number again", level: .success)
            vm.readDetail(personId: id, reasons: detail.reasons, opening: false)
            vm.refreshRows()
        }
    }
}
