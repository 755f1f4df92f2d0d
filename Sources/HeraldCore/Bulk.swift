import Foundation

/// One bulk of invitations as the platform answered it, and where its delivery polling stands.
public struct BulkRecord: Sendable, Hashable, Codable {
    public var bulkId: String
    public var createdAt: Date
    public var messageKey: String?
    public var messageText: String?
    public var sender: String?
    public var recipientCount: Int
    /// Delivery-info passes already made for this bulk.
    public var passesDone: Int
    public var nextPollAt: Date?
    public var lastPolledAt: Date?
    /// False for a colleague's bulk learnt from a Herald server's events.
    public var sentHere: Bool
    /// The bulk whose failed numbers this one sent again, when it is a resend.
    public var resendOf: String?
    /// When a held bulk leaves (the undo window, a scheduled send); nil when it left at once.
    public var sendAt: Date?
    /// What the send estimated this bulk would cost (`PriceEstimate`, kept by the send), beside the prices the carrier
    /// reports; nil when none was kept.
    public var estimate: Double?
    public var estimateCurrency: String?

    public init(bulkId: String, createdAt: Date, messageKey: String? = nil, messageText: String? = nil,
                sender: String? = nil, recipientCount: Int, passesDone: Int = 0, nextPollAt: Date? = nil,
                lastPolledAt: Date? = nil, sentHere: Bool = true, resendOf: String? = nil, sendAt: Date? = nil) {
        self.sendAt = sendAt
        self.sentHere = sentHere
        self.resendOf = resendOf
        self.bulkId = bulkId
        self.createdAt = createdAt
        self.messageKey = messageKey
        self.messageText = messageText
        self.sender = sender
        self.recipientCount = recipientCount
        self.passesDone = passesDone
        self.nextPollAt = nextPollAt
        self.lastPolledAt = lastPolledAt
    }
}

/// A bulk with how many of its recipients stand in each status: one row of the Deliveries table.
public struct BulkCounts: Sendable, Hashable {
    public let record: BulkRecord
    public let counts: [DeliveryStatus: Int]

    public init(record: BulkRecord, counts: [DeliveryStatus: Int]) {
        self.record = record
        self.counts = counts
    }
}

/// Every bulk with its counts, as of one change sequence.
public struct BulkCountsSnapshot: Sendable, Hashable {
    public let sequence: Int64
    public let bulks: [BulkCounts]

    public init(sequence: Int64, bulks: [BulkCounts]) {
        self.sequence = sequence
        self.bulks = bulks
    }
}
