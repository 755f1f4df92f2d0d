import Foundation
import GRDB
import HeraldCore

/// Reading and writing people with their phones and emails; shared by the store and the importer.
enum PersonRows {
    static let personColumns =
        "id, uid, first_name, last_name, formatted_name, organization, has_photo, revision_ms, created_ms, updated_ms"

    /// The derived keys stored beside a person for sorting and searching.
    struct Keys {
        var sortFirst: String
        var sortLast: String
        var searchKey: String
        var phoneKey: String
    }

    static func keys(for p: Person) -> Keys {
        // Control characters and escape sequences never take part in sorting.
        func clean(_ s: String) -> String { TerminalSafeText.sanitize(s).trimmingCharacters(in: .whitespaces) }
        let first = TextFolding.fold(clean(p.firstName))
        let last = TextFolding.fold(clean(p.lastName))
        let display = TextFolding.fold(clean(p.displayName))
        let sortFirst = first.isEmpty ? (last.isEmpty ? display : last) : first + " " + last
        let sortLast = last.isEmpty ? (first.isEmpty ? display : first) : last + " " + first
        let otherName = p.formattedName == "\(p.firstName) \(p.lastName)" ? "" : p.formattedName
        let fields = [
            TextFolding.searchForm(p.firstName), TextFolding.searchForm(p.lastName),
            TextFolding.searchForm(otherName), TextFolding.searchForm(p.organization ?? ""),
            p.emails.map { $0.address.lowercased() }.joined(separator: " "),
        ].map(SearchIndex.clean)
        let searchKey = fields.joined(separator: "\u{1F}")
        let phoneKey = p.phones.map(phoneDigits).joined(separator: " ")
        return Keys(sortFirst: sortFirst, sortLast: sortLast, searchKey: searchKey, phoneKey: phoneKey)
    }

    /// Digits a number can be found by: E.164, national form with a leading 0, and as written.
    static func phoneDigits(_ phone: LabeledPhone) -> String {
        var forms: [String] = []
        let raw = phone.number.raw.filter { $0.isASCII && $0.isNumber }
        if let e164 = phone.number.e164 {
            let digits = String(e164.dropFirst())
            forms.append(digits)
            if let region = phone.number.region, let code = PhoneNumberParser.callingCode(forRegion: region) {
                let cc = String(code)
                if digits.hasPrefix(cc) { forms.append("0" + digits.dropFirst(cc.count)) }
            }
        }
        if !raw.isEmpty && !forms.contains(raw) { forms.append(raw) }
        return forms.joined(separator: " ")
    }

    static func normalisedEmail(_ address: String) -> String {
        address.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Inserts a person with its phones and emails; returns the new id.
    @discardableResult
    static func insert(_ p: Person, db: Database, now: Date) throws -> Int64 {
        let k = keys(for: p)
        let ms = now.epochMilliseconds
        let stmt = try db.cachedStatement(sql: """
            INSERT INTO person (uid, first_name, last_name, formatted_name, organization, has_photo, revision_ms,
                                created_ms, updated_ms, sort_first, sort_last, search_key, phone_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try stmt.execute(arguments: [p.uid, p.firstName, p.lastName, p.formattedName, p.organization, p.hasPhoto,
                                     p.revision?.epochMilliseconds, p.createdAt?.epochMilliseconds ?? ms, ms,
                                     k.sortFirst, k.sortLast, k.searchKey, k.phoneKey])
        let id = db.lastInsertedRowID
        try insertChildren(p, id: id, db: db)
        return id
    }

    /// Replaces a stored person (matched by `p.id`) with `p`.
    static func update(_ p: Person, id: Int64, db: Database, now: Date) throws {
        let k = keys(for: p)
        try db.cachedStatement(sql: """
            UPDATE person SET uid = ?, first_name = ?, last_name = ?, formatted_name = ?, organization = ?,
                has_photo = ?, revision_ms = ?, updated_ms = ?, sort_first = ?, sort_last = ?, search_key = ?,
                phone_key = ? WHERE id = ?
            """).execute(arguments: [p.uid, p.firstName, p.lastName, p.formattedName, p.organization, p.hasPhoto,
                                     p.revision?.epochMilliseconds, now.epochMilliseconds, k.sortFirst, k.sortLast,
                                     k.searchKey, k.phoneKey, id])
        try db.cachedStatement(sql: "DELETE FROM phone WHERE person_id = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM email WHERE person_id = ?").execute(arguments: [id])
        try insertChildren(p, id: id, db: db)
    }

    private static func insertChildren(_ p: Person, id: Int64, db: Database) throws {
        let phoneStmt = try db.cachedStatement(sql: """
            INSERT INTO phone (person_id, position, label, raw, e164, kind, region, invalid_reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (i, ph) in p.phones.enumerated() {
            let n = ph.number
            try phoneStmt.execute(arguments: [id, i, ph.label, n.raw, n.e164, n.kind.rawValue, n.region, n.invalidReason])
        }
        let emailStmt = try db.cachedStatement(sql: """
            INSERT INTO email (person_id, position, label, address, address_norm) VALUES (?, ?, ?, ?, ?)
            """)
        for (i, e) in p.emails.enumerated() {
            try emailStmt.execute(arguments: [id, i, e.label, e.address, normalisedEmail(e.address)])
        }
    }

    /// Marks the contacts as changed so in-memory search indexes rebuild.
    static func bumpGeneration(_ db: Database) throws {
        try db.execute(sql: "UPDATE store_meta SET value = value + 1 WHERE key = 'contacts_generation'")
    }

    static func generation(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'contacts_generation'") ?? 0
    }

    /// People with these ids, in the order of `ids` (missing ids are left out).
    static func fetch(ids: [Int64], db: Database) throws -> [Person] {
        var byId: [Int64: Person] = [:]
        byId.reserveCapacity(ids.count)
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            start += 500
            let list = chunk.map(String.init).joined(separator: ",")
            for row in try Row.fetchAll(db, sql: "SELECT \(personColumns) FROM person WHERE id IN (\(list))") {
                let p = person(from: row)
                if let id = p.id { byId[id] = p }
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT person_id, label, raw, e164, kind, region, invalid_reason FROM phone
                WHERE person_id IN (\(list)) ORDER BY person_id, position
                """) {
                let pid: Int64 = row[0]
                let number = PhoneNumber(raw: row[2], e164: row[3], kind: PhoneNumberKind(rawValue: row[4]) ?? .unknown,
                                         region: row[5], invalidReason: row[6])
                byId[pid]?.phones.append(LabeledPhone(label: row[1], number: number))
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT person_id, label, address FROM email WHERE person_id IN (\(list)) ORDER BY person_id, position
                """) {
                let pid: Int64 = row[0]
                byId[pid]?.emails.append(LabeledEmail(label: row[1], address: row[2]))
            }
        }
        return ids.compactMap { byId[$0] }
    }

    static func person(from row: Row) -> Person {
        let revision: Int64? = row["revision_ms"]
        let created: Int64 = row["created_ms"]
        let updated: Int64 = row["updated_ms"]
        return Person(id: row["id"], uid: row["uid"], firstName: row["first_name"], lastName: row["last_name"],
                      formattedName: row["formatted_name"], organization: row["organization"],
                      hasPhoto: row["has_photo"], revision: revision.map { Date(epochMilliseconds: $0) },
                      createdAt: Date(epochMilliseconds: created), updatedAt: Date(epochMilliseconds: updated))
    }
}
