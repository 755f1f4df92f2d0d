/// The person open in Contacts' detail, and the number under the detail's cursor (an index into its numbers).
nonisolated public struct OpenedPerson: Sendable, Hashable {
    public internal(set) var view: PersonDetailView
    public internal(set) var number: Int
    /// The last messages of the person's conversation (`ContactsViewModel+Conversation.swift`); nil while read or none.
    public internal(set) var conversation: ConversationExcerpt? = nil
}
