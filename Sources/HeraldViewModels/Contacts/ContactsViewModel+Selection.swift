import HeraldCore
import HeraldServices

/// Selecting people in Contacts: one, all shown, none, the inverse, a range, everyone in a state; `u` undoes. The
/// rules are `ContactSelection`'s; what a listing holds is read off the UI thread.
extension ContactsViewModel {
    /// The selection before the last select-none, invert or addition, for undo.
    public var previousSelection: Set<Int64>? { picks.previous }

    public func toggleSelection() {
        guard let id = currentRow?.personId else { return }
        picks.toggle(id)
    }

    /// Selects everyone the list shows (every match of a search).
    public func selectAll() {
        withIdsOfListing { [weak self] ids in self?.picks.add(ids) }
    }

    public func selectNone() { picks.clear() }

    /// Brings back the selection a select-none or invert cleared.
    public func restoreSelection() { picks.restore() }

    /// Selects those shown that were not selected and unselects the others.
    public func invertSelection() {
        withIdsOfListing { [weak self] ids in self?.picks.invert(shown: Set(ids)) }
    }

    /// Starts marking a range at the cursor (`v`); a second `v` selects the rows between.
    public func toggleRange() {
        if picks.rangeAnchor == nil { picks.beginRange(at: cursor) } else { commitRange() }
    }

    /// True for the rows between the range's start and the cursor while a range is being marked.
    public func isInRange(_ index: Int) -> Bool { picks.isInRange(index, cursor: cursor) }

    /// Leaves range marking without selecting anything; false when no range was being marked.
    @discardableResult
    public func cancelRange() -> Bool { picks.cancelRange() }

    /// Adds the rows between the range's start and the cursor to the selection.
    public func commitRange() {
        guard let positions = picks.endRange(at: cursor) else { return }
        let suggestions = visibleSuggestions.count
        let fromSuggestions = positions.filter { $0 < suggestions }.compactMap { feed.row(at: $0)?.personId }
        let listed = max(0, positions.lowerBound - suggestions)..<max(0, positions.upperBound + 1 - suggestions)
        picks.add(fromSuggestions, undoable: true)
        guard !listed.isEmpty else { return }
        withIdsOfListing { [weak self] ids in
            let upper = min(listed.upperBound, ids.count)
            if listed.lowerBound < upper { self?.picks.add(ids[listed.lowerBound..<upper]) }
        }
    }

    /// Adds everyone shown who is in `state` to the selection (read off the UI thread), and says how many.
    public func select(_ state: StateSelection) {
        let book = self.book, listing = self.listing
        context.run({ try await book.ids(of: listing, in: state) }, for: self, failure: "could not read the contacts") { vm, ids in
            let added = Set(ids).subtracting(vm.selection)
            vm.picks.add(ids, undoable: true)
            let people = ids.count == 1 ? "1 person" : "\(ids.count) people"
            vm.notify(ids.isEmpty ? "nobody shown is \(state.phrase)"
                      : "\(people) \(state.phrase) selected (\(added.count) new; u undoes)", level: .info)
        }
    }

    /// Every id of the listing shown: at hand for a search, read off the UI thread for everyone.
    private func withIdsOfListing(_ body: @escaping ([Int64]) -> Void) {
        if let ids = listing.ids { body(ids); return }
        let book = self.book, listing = self.listing
        context.run({ try await book.ids(of: listing) }, for: self, failure: "could not read the contacts") { _, ids in body(ids) }
    }
}
