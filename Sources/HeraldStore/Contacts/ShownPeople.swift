import Foundation
import GRDB
import HeraldCore

/// The people a list showed lately, each with their invitation summary, kept while neither the contacts
/// (their generation) nor the ledger (its change clock, stamped by triggers whoever writes) changed: the
/// next keystroke of a search shows mostly the same people, and reads only the ones it did not show yet.
///
/// Shared by the threads a screen reads on. What a read finds is always of the one snapshot it read the
/// versions in: a read that started before a write never fills the cache of the state after it.
public final class ShownPeople: @unchecked Sendable {
    public struct Row: Sendable {
        public let person: Person
        public let summary: PersonInvitationSummary
    }

    /// Reads of more people than this (select all, a whole listing) go to the database without the cache.
    public static let screenful = 256
    private let limit: Int
    private let lock = NSLock()
    private var versions: Versions?
    private var rows: [Int64: Row] = [:]

    private struct Versions: Equatable {
        let contacts: Int64
        let ledger: Int64
    }

    /// `limit`: people kept before the cache starts over (a few screens' worth).
    public init(limit: Int = 2048) { self.limit = limit }

    /// The people with these ids and their summaries, in the order given; unknown ids are left out.
    public func rows(ids: [Int64], database: HeraldDatabase) throws -> [Row] {
        try read(database) { _ in ids }
    }

    /// People in name order, `limit` of them from `offset`, and their summaries.
    public func rows(sortedBy sort: ContactSort, limit: Int, offset: Int, database: HeraldDatabase) throws -> [Row] {
        try read(database) { db in try PersonRows.ids(sortedBy: sort, limit: limit, offset: offset, db: db) }
    }

    /// The rows of the ids `listed` answers, all read in one snapshot.
    private func read(_ database: HeraldDatabase, listed: (Database) throws -> [Int64]) throws -> [Row] {
        try database.read { db in
            let ids = try listed(db)
            let now = Versions(contacts: try PersonRows.generation(db),
                               ledger: try Int64.fetchOne(db, sql: "SELECT seq FROM ledger_clock WHERE id = 1") ?? 0)
            let cacheable = ids.count <= Self.screenful
            var found: [Int64: Row] = [:]
            if cacheable {
                lock.withLock {
                    if versions != now {
                        versions = now
                        rows.removeAll(keepingCapacity: true)
                    }
                    for id in ids { if let row = rows[id] { found[id] = row } }
                }
            }
            let missing = ids.filter { found[$0] == nil }
            if !missing.isEmpty {
                let people = try PersonRows.fetch(ids: missing, db: db)
                let summaries = try LedgerStore.summaries(for: people, db: db)
                var read: [Int64: Row] = [:]
                for (person, summary) in zip(people, summaries) {
                    if let id = person.id { read[id] = Row(person: person, summary: summary) }
                }
                found.merge(read) { kept, _ in kept }
                if cacheable {
                    lock.withLock {
                        guard versions == now else { return }   // a newer read got there first: these are older
                        if rows.count + read.count > limit { rows.removeAll(keepingCapacity: true) }
                        rows.merge(read) { _, new in new }
                    }
                }
            }
            return ids.compactMap { found[$0] }
        }
    }
}
