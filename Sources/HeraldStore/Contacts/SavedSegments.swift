import Foundation
import GRDB
import HeraldCore

/// A Contacts query kept under a name (`:save NAME`, `herald contacts segments save`): only the query is kept, so a
/// segment used later finds the people who match it then.
public struct SavedSegment: Sendable, Hashable, Codable {
    public var name: String
    public var query: String
    public var savedAt: Date

    public init(name: String, query: String, savedAt: Date) {
        self.name = name
        self.query = query
        self.savedAt = savedAt
    }
}

/// What a segment cannot be saved as, and why.
public enum SegmentError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyName
    case emptyQuery
    case unknown(String, known: [String])

    public var description: String {
        switch self {
        case .emptyName: return "a segment needs a name"
        case .emptyQuery: return "a segment needs a query (an empty one would be everyone: use no segment instead)"
        case .unknown(let name, let known):
            return known.isEmpty ? "no segment named \(name): none are saved"
                : "no segment named \(name): saved are \(known.joined(separator: ", "))"
        }
    }
}

/// The saved segments of the contacts' database.
public struct SavedSegments: Sendable {
    let database: HeraldDatabase
    let clock: any HeraldClock

    public init(contacts: ContactStore) {
        database = contacts.database
        clock = contacts.clock
    }

    /// Every segment, by name.
    public func list() throws -> [SavedSegment] {
        try database.read { db in try Self.all(db) }
    }

    static func all(_ db: Database) throws -> [SavedSegment] {
        try Row.fetchAll(db, sql: "SELECT name, query, saved_ms FROM saved_segment ORDER BY folded").map {
            SavedSegment(name: $0[0], query: $0[1], savedAt: Date(epochMilliseconds: $0[2]))
        }
    }

    /// The segment named `name` (case and diacritics ignored), nil when there is none.
    public func segment(named name: String) throws -> SavedSegment? {
        try database.read { db in try Self.segment(named: name, db: db) }
    }

    static func segment(named name: String, db: Database) throws -> SavedSegment? {
        try Row.fetchOne(db, sql: "SELECT name, query, saved_ms FROM saved_segment WHERE folded = ?",
                         arguments: [PersonGroups.fold(name)]).map {
            SavedSegment(name: $0[0], query: $0[1], savedAt: Date(epochMilliseconds: $0[2]))
        }
    }

    /// Saves `query` as `name` (replacing a segment of that name). A query that cannot be read, names a segment not
    /// saved, or uses the segment being saved (directly or through another) is refused with the reason.
    @discardableResult
    public func save(_ name: String, query: String) throws -> SavedSegment {
        let cleaned = PersonGroups.clean(name)
        guard !cleaned.isEmpty else { throw SegmentError.emptyName }
        let parsed = try ContactQuery(query)
        guard !parsed.isEmpty else { throw SegmentError.emptyQuery }
        let now = clock.now()
        return try database.write { db in
            try Self.checkUses(parsed, saving: cleaned, db: db)
            try db.execute(sql: "INSERT OR REPLACE INTO saved_segment (folded, name, query, saved_ms) VALUES (?, ?, ?, ?)",
                           arguments: [PersonGroups.fold(cleaned), cleaned, query, now.epochMilliseconds])
            return SavedSegment(name: cleaned, query: query, savedAt: now)
        }
    }

    /// Deletes the segment named `name`; an unknown name is said with the segments there are.
    public func delete(_ name: String) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM saved_segment WHERE folded = ?", arguments: [PersonGroups.fold(name)])
            guard db.changesCount > 0 else {
                throw SegmentError.unknown(name, known: try Self.all(db).map(\.name))
            }
        }
    }

    /// Walks the segments `query` uses: each must be saved, and none may lead back to `saving`.
    static func checkUses(_ query: ContactQuery, saving name: String, db: Database) throws {
        var chain = [name]
        func walk(_ query: ContactQuery) throws {
            for term in query.terms where term.field == .segment {
                if chain.contains(where: { PersonGroups.fold($0) == PersonGroups.fold(term.value) }) {
                    throw ContactQueryError.segmentCycle(chain + [term.value])
                }
                guard let used = try segment(named: term.value, db: db) else {
                    throw ContactQueryError.unknownSegment(term.value, known: try all(db).map(\.name))
                }
                chain.append(used.name)
                try walk(try ContactQuery(used.query))
                chain.removeLast()
            }
        }
        try walk(query)
    }
}
