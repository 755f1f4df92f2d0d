import Foundation

/// One message of a user's in-app inbox.
public struct InboxMessage: Sendable, Hashable, Codable, Identifiable {
    public var messageId: String
    public var title: String?
    public var body: String
    /// The inbox topic ("promo"), nil when the message has none.
    public var topic: String?
    public var sendDateTime: Date
    public var seen: Bool
    /// Silent messages are not announced (no alert) but still listed.
    public var silent: Bool

    public var id: String { messageId }

    public init(messageId: String, title: String?, body: String, topic: String?, sendDateTime: Date,
                seen: Bool = false, silent: Bool = false) {
        self.messageId = messageId
        self.title = title
        self.body = body
        self.topic = topic
        self.sendDateTime = sendDateTime
        self.seen = seen
        self.silent = silent
    }

    /// The inbox order: newest first, then by id so equal times keep a stable order.
    public static func newestFirst(_ a: InboxMessage, _ b: InboxMessage) -> Bool {
        if a.sendDateTime != b.sendDateTime { return a.sendDateTime > b.sendDateTime }
        return a.messageId < b.messageId
    }
}

/// Which inbox messages to fetch: topic, date range (from inclusive, to exclusive), limit.
public struct InboxFilter: Sendable, Hashable, Codable {
    public static let defaultLimit = 20

    public var topic: String?
    public var from: Date?
    public var to: Date?
    public var limit: Int

    public init(topic: String? = nil, from: Date? = nil, to: Date? = nil, limit: Int = InboxFilter.defaultLimit) {
        self.topic = topic
        self.from = from
        self.to = to
        self.limit = limit
    }

    /// Whether a filter narrows anything (topic or dates); the limit alone does not.
    public var isFiltering: Bool { topic != nil || from != nil || to != nil }

    /// Whether `message` falls inside the topic and date range (the limit is not applied here).
    public func matches(_ message: InboxMessage) -> Bool {
        if let topic, message.topic != topic { return false }
        if let from, message.sendDateTime < from { return false }
        if let to, message.sendDateTime >= to { return false }
        return true
    }

    /// The filter for the next page after a page whose oldest message was sent at `oldest`.
    public func nextPage(after oldest: Date) -> InboxFilter {
        var next = self
        next.to = oldest
        return next
    }
}

/// The counters of an inbox answer.
public struct InboxCounts: Sendable, Hashable, Codable {
    public var total: Int
    public var unread: Int
    /// Counts within the current filter (topic, dates).
    public var totalFiltered: Int
    public var unreadFiltered: Int

    public init(total: Int, unread: Int, totalFiltered: Int, unreadFiltered: Int) {
        self.total = total
        self.unread = unread
        self.totalFiltered = totalFiltered
        self.unreadFiltered = unreadFiltered
    }

    public static let zero = InboxCounts(total: 0, unread: 0, totalFiltered: 0, unreadFiltered: 0)

    /// Counts the messages of an inbox, the filtered ones through `filter`.
    public init(messages: [InboxMessage], filter: InboxFilter) {
        var counts = InboxCounts.zero
        for m in messages {
            counts.total += 1
            if !m.seen { counts.unread += 1 }
            if filter.matches(m) {
                counts.totalFiltered += 1
                if !m.seen { counts.unreadFiltered += 1 }
            }
        }
        self = counts
    }

    /// The counts after `marked` unread messages were marked seen, `markedInFilter` of them inside
    /// the filter. Never goes below zero.
    public func markingSeen(_ marked: Int, inFilter markedInFilter: Int) -> InboxCounts {
        InboxCounts(total: total, unread: max(0, unread - marked), totalFiltered: totalFiltered,
                    unreadFiltered: max(0, unreadFiltered - markedInFilter))
    }
}
