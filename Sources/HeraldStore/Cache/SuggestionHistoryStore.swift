import Foundation
import GRDB
import HeraldCore

/// When a person was last suggested, and whether the suggestion was seen.
public struct SuggestionRecord: Sendable, Hashable {
    public var personId: Int64
    public var lastSuggestedAt: Date
    public var seen: Bool

    public init(personId: Int64, lastSuggestedAt: Date, seen: Bool) {
        self.personId = personId
        self.lastSuggestedAt = lastSuggestedAt
        self.seen = seen
    }
}

/// Suggestion history: who was shown as a suggestion, and seen flags that reset when everyone was seen.
public struct SuggestionHistoryStore: Sendable {
    public let database: HeraldDatabase

    public init(database: HeraldDatabase) { self.database = database }

    /// Records that these people were suggested (and seen) at `date`.
    public func markSuggested(_ personIds: [Int64], at date: Date, seen: Bool = true) throws {
        try database.write { db in
            for id in personIds {
                try db.execute(sql: """
                    INSERT INTO suggestion_history (person_id, last_suggested_ms, seen) VALUES (?, ?, ?)
                    ON CONFLICT(person_id) DO UPDATE SET last_suggested_ms = excluded.last_suggested_ms, seen = excluded.seen
                    """, arguments: [id, date.epochMilliseconds, seen])
            }
        }
    }

    /// Every record, by person id.
    public func all() throws -> [Int64: SuggestionRecord] {
        try database.read { db in
            var out: [Int64: SuggestionRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT person_id, last_suggested_ms, seen FROM suggestion_history") {
                let ms: Int64 = row[1]
                let r = SuggestionRecord(personId: row[0], lastSuggestedAt: Date(epochMilliseconds: ms), seen: row[2])
                out[r.personId] = r
            }
            return out
        }
    }

    public func record(personId: Int64) throws -> SuggestionRecord? {
        try all()[personId]
    }

    /// Ids of people whose suggestion was seen.
    public func seenIDs() throws -> Set<Int64> {
        try database.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT person_id FROM suggestion_history WHERE seen = 1"))
        }
    }

    /// Clears every seen flag (when every contact has been suggested), keeping the dates.
    public func resetSeen() throws {
        try database.write { db in try db.execute(sql: "UPDATE suggestion_history SET seen = 0") }
    }
}
