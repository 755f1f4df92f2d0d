import Foundation
import GRDB
import HeraldCore

/// One recipient as an export writes it.
public struct LedgerExportRow: Sendable, Hashable {
    public var bulkId: String
    public var sentAt: Date
    public var sentBy: String?
    public var number: String
    public var name: String?
    public var country: String?
    public var status: DeliveryStatus
    public var reason: String?
    public var price: Double?
    public var currency: String?
    public var attempts: Int
    public var clicks: Int
    /// The text as sent to this recipient, else the bulk's text.
    public var text: String?

    public init(bulkId: String, sentAt: Date, sentBy: String?, number: String, name: String?, country: String?,
                status: DeliveryStatus, reason: String?, price: Double?, currency: String?, attempts: Int, clicks: Int,
                text: String?) {
        self.bulkId = bulkId
        self.sentAt = sentAt
        self.sentBy = sentBy
        self.number = number
        self.name = name
        self.country = country
        self.status = status
        self.reason = reason
        self.price = price
        self.currency = currency
        self.attempts = attempts
        self.clicks = clicks
        self.text = text
    }
}

extension LedgerStore {
    /// Hands every recipient `query` matches to `body`, oldest first, one row at a time from one read (a cursor over
    /// the statement: memory stays flat however many rows there are). `body` throwing stops the walk.
    /// Answers how many rows were handed over.
    @discardableResult
    public func exportRows(_ query: DeliveryQuery, _ body: (LedgerExportRow) throws -> Void) throws -> Int {
        let filter = LedgerFilter(query)
        return try database.read { db in
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT i.bulk_id, i.created_ms, b.sent_by, i.msisdn, \(LedgerFilter.name), i.country, i.status, i.error,
                       i.price, i.currency, i.attempts, i.clicks, \(LedgerFilter.text)
                FROM \(LedgerFilter.joined) WHERE \(filter.sql) ORDER BY i.created_ms, i.id
                """, arguments: filter.arguments)
            var count = 0
            while let row = try cursor.next() {
                let created: Int64 = row[1]
                let status: String = row[6]
                try body(LedgerExportRow(bulkId: row[0], sentAt: Date(epochMilliseconds: created), sentBy: row[2],
                                         number: row[3], name: row[4], country: row[5], status: DeliveryStatus(parsing: status),
                                         reason: row[7], price: row[8], currency: row[9], attempts: row[10],
                                         clicks: row[11], text: row[12]))
                count += 1
            }
            return count
        }
    }
}
