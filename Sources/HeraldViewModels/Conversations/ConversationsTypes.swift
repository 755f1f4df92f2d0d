import Foundation
import HeraldCore
import HeraldServices

/// The answer being written to one conversation (`r`): the number it goes to, who that is, and the text so far.
nonisolated public struct AnswerDraft: Sendable, Hashable {
    /// E.164 with the plus.
    public var number: String
    /// The address book's name (sanitised), nil for an unknown number.
    public var name: String?
    public var text: String

    public init(number: String, name: String?, text: String = "") {
        self.number = number
        self.name = name
        self.text = text
    }

    /// "Ana Horvat (+385911234567)" or the number alone.
    public var recipient: String { name.map { "\($0) (\(number))" } ?? number }
}

/// The question before an answer leaves: to whom, from which sender, the text and what it weighs.
nonisolated public struct AnswerConfirmation: Sendable, Hashable {
    public var draft: AnswerDraft
    /// "Answer Ana Horvat (+385911234567)?"
    public var title: String
    /// The lines of the question: the sender (and its warning), the text, its segments.
    public var lines: [String]
}

/// What the conversation list shows: every conversation, or only those with unread replies.
nonisolated public enum ConversationFilter: String, Sendable, Hashable, CaseIterable {
    case all
    case unread

    public var next: ConversationFilter { self == .all ? .unread : .all }
}

// The conversation values the Replies pane draws, named for the screens (which see view-models, never services).
/// One conversation of the list.
public typealias ShownConversation = ConversationRow
/// One open thread.
public typealias ShownThread = ConversationDetail
/// One message of a thread.
public typealias ShownMessage = ConversationEntry
