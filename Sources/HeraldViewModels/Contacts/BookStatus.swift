/// How the address books stand, for Contacts' title: "books: personal ✓ · work: 1 conflict to settle" (nil without
/// books), and the books of the config in order (where `a` may put a new contact).
nonisolated public struct BookStatus: Sendable, Hashable {
    public let line: String?
    public let names: [String]
}
