import Foundation
import GRDB
import HeraldCore

/// People who look like one person, with why: the same number, the same email, or names alike once case,
/// accents and word order are folded away ("Ana Kovač", "kovac ana").
public struct DuplicateGroup: Sendable, Hashable, Codable {
    /// The people, lowest id first (the one a merge keeps, unless told otherwise).
    public var ids: [Int64]
    /// Each reason found, e.g. "same number +385912345678", "same email ana@example.com", "names alike: ana kovac".
    public var reasons: [String]
}

extension ContactStore {
    /// Every group of likely duplicates, in the order of their first id. Reads the numbers, addresses and names once
    /// (linear in the book).
    public func duplicates() throws -> [DuplicateGroup] {
        try database.read { db in
            var links: [(ids: [Int64], reason: String)] = []
            let numbers = try Row.fetchAll(db, sql: """
                SELECT e164, group_concat(DISTINCT person_id) FROM phone WHERE e164 IS NOT NULL
                GROUP BY e164 HAVING COUNT(DISTINCT person_id) > 1
                """)
            for row in numbers { links.append((Self.ids(row[1]), "same number \(row[0] as String)")) }
            let emails = try Row.fetchAll(db, sql: """
                SELECT address_norm, group_concat(DISTINCT person_id) FROM email
                GROUP BY address_norm HAVING COUNT(DISTINCT person_id) > 1
                """)
            for row in emails { links.append((Self.ids(row[1]), "same email \(row[0] as String)")) }
            var byName: [String: [Int64]] = [:]
            let names = try Row.fetchCursor(db, sql: "SELECT id, first_name, last_name, formatted_name FROM person")
            let folding = FoldingCache(limit: 4096)
            while let row = try names.next() {
                let first: String = row[1], last: String = row[2], formatted: String = row[3]
                let name = first.isEmpty && last.isEmpty ? formatted : first + " " + last
                guard let key = Self.nameKey(name, folding: folding) else { continue }
                byName[key, default: []].append(row[0])
            }
            for (key, ids) in byName where ids.count > 1 { links.append((ids, "names alike: \(key)")) }
            return Self.groups(links)
        }
    }

    /// A name folded for comparison: lowercase, no accents, no punctuation, words sorted; nil when nothing is left.
    static func nameKey(_ name: String, folding: FoldingCache) -> String? {
        let folded = folding.fold(TerminalSafeText.sanitize(name))
        let words = folded.split { !$0.isLetter && !$0.isNumber }.map(String.init).sorted()
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    private static func ids(_ list: String) -> [Int64] {
        list.split(separator: ",").compactMap { Int64($0) }
    }

    /// People linked by any reason end in one group (union-find), with every reason that linked them.
    static func groups(_ links: [(ids: [Int64], reason: String)]) -> [DuplicateGroup] {
        var parent: [Int64: Int64] = [:]
        func root(_ id: Int64) -> Int64 {
            var r = id
            while let p = parent[r], p != r { r = p }
            var walk = id
            while let p = parent[walk], p != r { parent[walk] = r; walk = p }
            return r
        }
        for link in links {
            for id in link.ids where parent[id] == nil { parent[id] = id }
            guard let first = link.ids.first else { continue }
            for id in link.ids.dropFirst() {
                let a = root(first), b = root(id)
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var members: [Int64: [Int64]] = [:]
        for id in parent.keys { members[root(id), default: []].append(id) }
        var reasons: [Int64: [String]] = [:]
        for link in links.sorted(by: { $0.reason < $1.reason }) {
            guard let first = link.ids.first else { continue }
            let r = root(first)
            if !(reasons[r]?.contains(link.reason) ?? false) { reasons[r, default: []].append(link.reason) }
        }
        return members.map { r, ids in DuplicateGroup(ids: ids.sorted(), reasons: reasons[r] ?? []) }
            .sorted { $0.ids[0] < $1.ids[0] }
    }
}

extension ContactStore {
    /// Ids of the people having this email address (case ignored).
    public func personIDs(withEmail address: String) throws -> [Int64] {
        let normalised = PersonRows.normalisedEmail(address)
        return try database.read { db in
            try Int64.fetchAll(db, sql: "SELECT DISTINCT person_id FROM email WHERE address_norm = ?", arguments: [normalised])
        }
    }

    /// Ids of the people whose name is alike to `name` once case, accents, punctuation and word order are folded
    /// ("Kovač, Ana" is Ana Kovac); none for a name with no letters.
    public func personIDs(namedAlike name: String) throws -> [Int64] {
        let folding = FoldingCache(limit: 4096)
        guard let wanted = Self.nameKey(name, folding: folding) else { return [] }
        return try database.read { db in
            var ids: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT id, first_name, last_name, formatted_name FROM person")
            while let row = try rows.next() {
                let first: String = row[1], last: String = row[2], formatted: String = row[3]
                let own = first.isEmpty && last.isEmpty ? formatted : first + " " + last
                if Self.nameKey(own, folding: folding) == wanted || (!formatted.isEmpty && Self.nameKey(formatted, folding: folding) == wanted) {
                    ids.append(row[0])
                }
            }
            return ids
        }
    }
}
