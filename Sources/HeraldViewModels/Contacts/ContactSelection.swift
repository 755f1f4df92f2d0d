/// Who is selected in Contacts, with what undo and a visual range need: the ids, the selection a select-none, an
/// invert or an addition replaced (`u` brings it back), and where a range (`v`) started. Rules only, no I/O: which ids
/// a listing holds is read by the view-model and handed in.
nonisolated public struct ContactSelection: Sendable, Equatable {
    public private(set) var ids = Set<Int64>()
    /// The selection before the last change `u` undoes.
    public private(set) var previous: Set<Int64>?
    /// Where a visual range started (a row index); nil when none is being marked.
    public private(set) var rangeAnchor: Int?

    public init() {}

    public var isEmpty: Bool { ids.isEmpty }

    /// Selects or unselects one person.
    public mutating func toggle(_ id: Int64) {
        if ids.remove(id) == nil { ids.insert(id) }
    }

    /// Adds these people; `undoable` keeps the selection before for `u`.
    public mutating func add<S: Sequence>(_ more: S, undoable: Bool = false) where S.Element == Int64 {
        if undoable { previous = ids }
        ids.formUnion(more)
    }

    /// Selects none (`u` brings them back); nothing happens when none is selected.
    public mutating func clear() {
        guard !ids.isEmpty else { return }
        previous = ids
        ids.removeAll()
    }

    /// Brings back the selection the last undoable change replaced (and keeps this one for another `u`).
    public mutating func restore() {
        guard let earlier = previous else { return }
        previous = ids
        ids = earlier
    }

    /// Selects those of `shown` that were not selected and unselects the others.
    public mutating func invert(shown: Set<Int64>) {
        previous = ids
        ids = shown.subtracting(ids).union(ids.subtracting(shown))
    }

    /// Starts a range at row `index`.
    public mutating func beginRange(at index: Int) { rangeAnchor = index }

    /// Leaves range marking; false when no range was being marked.
    public mutating func cancelRange() -> Bool {
        guard rangeAnchor != nil else { return false }
        rangeAnchor = nil
        return true
    }

    /// The rows between the range's start and `cursor`, ending the range; nil when none was being marked.
    public mutating func endRange(at cursor: Int) -> ClosedRange<Int>? {
        guard let anchor = rangeAnchor else { return nil }
        rangeAnchor = nil
        return min(anchor, cursor)...max(anchor, cursor)
    }

    /// True for the rows between the range's start and `cursor` while a range is being marked.
    public func isInRange(_ index: Int, cursor: Int) -> Bool {
        guard let anchor = rangeAnchor else { return false }
        return (min(anchor, cursor)...max(anchor, cursor)).contains(index)
    }
}
