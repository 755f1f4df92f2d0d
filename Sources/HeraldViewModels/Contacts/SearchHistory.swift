/// The searches made in Contacts, oldest first, and where ↑ and ↓ stand in them while the field is open.
nonisolated public struct SearchHistory: Sendable, Equatable {
    /// How many searches are kept.
    public static let limit = 50
    public private(set) var entries: [String] = []
    /// The entry shown now (nil: the text being typed).
    private var at: Int?
    /// What was typed before ↑ was first pressed, given back by ↓ past the newest entry.
    private var typed = ""

    public init(_ entries: [String] = []) { load(entries) }

    /// Takes the searches kept from an earlier run (keeping any made since, newest last).
    public mutating func load(_ kept: [String]) {
        let made = entries
        entries = []
        for text in kept + made { _ = remember(text) }
        at = nil
    }

    /// Adds a search just made (not a blank one, and not twice in a row); answers whether the history changed.
    public mutating func remember(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return false }
        at = nil
        if entries.last == trimmed { return false }
        entries.removeAll { $0 == trimmed }
        entries.append(trimmed)
        if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
        return true
    }

    /// A new walk starts from the text being typed.
    public mutating func restart() { at = nil }

    /// One step back (-1) or forward (+1) from the entry shown, `current` being the text in the field; nil when there
    /// is nothing further that way. Forward past the newest entry gives back what was typed.
    public mutating func walk(_ delta: Int, current: String) -> String? {
        guard !entries.isEmpty else { return nil }
        guard let shown = at else {
            guard delta < 0 else { return nil }
            typed = current
            at = entries.count - 1
            return entries[entries.count - 1]
        }
        let next = shown + delta
        if next < 0 { return nil }
        if next >= entries.count {
            at = nil
            return typed
        }
        at = next
        return entries[next]
    }
}
