import Foundation
import GRDB
import HeraldCore

/// Reading and writing people with their phones and emails; shared by the store and the importer.
enum PersonRows {
    static let personColumns =
        "id, uid, first_name, last_name, formatted_name, organization, has_photo, revision_ms, created_ms, updated_ms, sms_number, note, custom_fields"

    /// The derived keys stored beside a person for sorting and searching.
    struct Keys: Sendable {
        var sortFirst: String
        var sortLast: String
        var searchKey: String
        var phoneKey: String
        /// What an import matches the person by: UID, E.164 numbers and normalised emails
        /// (`normalisedEmail`), each in order, hashed where the keys are made.
        var uid: MatchKey?
        var numbers: [MatchKey]
        var emails: [MatchKey]
        /// Each number's digits as written (at least 6): the same number read with another region, or none.
        var writtenNumbers: [MatchKey] = []
        /// The folded name of a card with no UID, number or email: the only way to know it again.
        var nameOnly: MatchKey?
    }

    static func keys(for p: Person, cache: FoldingCache = FoldingCache(limit: 64)) -> Keys {
        // Control characters and escape sequences never take part in sorting.
        func clean(_ s: String) -> String { FastText.trimSpaces(TerminalSafeText.sanitize(s)) }
        let first = cache.fold(clean(p.firstName))
        let last = cache.fold(clean(p.lastName))
        let sortFirst: String, sortLast: String
        if first.isEmpty && last.isEmpty {
            let display = cache.fold(clean(p.displayName))
            sortFirst = display
            sortLast = display
        } else {
            sortFirst = first.isEmpty ? last : first + " " + last
            sortLast = last.isEmpty ? first : last + " " + first
        }
        let otherName = isPlainName(p) ? "" : p.formattedName
        var searchKey = SearchIndex.clean(cache.searchForm(p.firstName))
        for field in [p.lastName, otherName, p.organization ?? ""] {
            searchKey += "\u{1F}"
            searchKey += SearchIndex.clean(cache.searchForm(field))
        }
        searchKey += "\u{1F}"
        for (i, e) in p.emails.enumerated() {
            if i > 0 { searchKey += " " }
            searchKey += SearchIndex.clean(FastText.isASCII(e.address) ? FastText.asciiLowercased(e.address) : e.address.lowercased())
        }
        var phoneKey: [UInt8] = []
        phoneKey.reserveCapacity(p.phones.count * 32)
        for (i, ph) in p.phones.enumerated() {
            if i > 0 { phoneKey.append(0x20) }
            appendPhoneDigits(ph, to: &phoneKey)
        }
        let nameOnly = p.uid == nil && p.phones.isEmpty && p.emails.isEmpty && !sortFirst.isEmpty
        return Keys(sortFirst: sortFirst, sortLast: sortLast, searchKey: searchKey,
                    phoneKey: String(decoding: phoneKey, as: UTF8.self), uid: p.uid.map(MatchKey.init),
                    numbers: p.phones.compactMap { $0.number.e164.map(MatchKey.init) },
                    emails: p.emails.map { MatchKey(normalisedEmail($0.address)) },
                    writtenNumbers: p.phones.compactMap { writtenDigits($0.number.raw).map(MatchKey.init) },
                    nameOnly: nameOnly ? MatchKey(sortFirst) : nil)
    }

    /// The digits of a number as written, when there are enough of them to tell one number from another.
    static func writtenDigits(_ raw: String) -> String? {
        let digits = String(raw.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init))
        return digits.count >= 6 ? digits : nil
    }

    /// Whether the formatted name is just "first last" (then it adds nothing to search).
    private static func isPlainName(_ p: Person) -> Bool {
        let f = p.formattedName.utf8, a = p.firstName.utf8, b = p.lastName.utf8
        guard f.count == a.count + 1 + b.count else { return false }
        return f.starts(with: a) && f.dropFirst(a.count).first == 0x20 && f.dropFirst(a.count + 1).elementsEqual(b)
    }

    /// Appends the digits a number can be found by to `out`: E.164, national form with a leading 0, and
    /// as written, separated by spaces; without a string for each form (this runs for every number of an
    /// import).
    static func appendPhoneDigits(_ phone: LabeledPhone, to out: inout [UInt8]) {
        let start = out.count
        var forms: (first: Range<Int>, second: Range<Int>?)?
        if let e164 = phone.number.e164 {
            let digits = e164.utf8.dropFirst()
            let first = out.count
            out.append(contentsOf: digits)
            forms = (first..<out.count, nil)
            if let region = phone.number.region, let code = PhoneNumberParser.callingCode(forRegion: region) {
                let cc = String(code).utf8
                if digits.starts(with: cc) {
                    out.append(0x20)
                    let second = out.count
                    out.append(0x30)
                    out.append(contentsOf: digits.dropFirst(cc.count))
                    forms?.second = second..<out.count
                }
            }
        }
        // The digits as written, unless they are one of the forms already there.
        let raw = phone.number.raw.utf8.lazy.filter { $0 >= 0x30 && $0 <= 0x39 }
        if raw.isEmpty { return }
        if let forms, raw.elementsEqual(out[forms.first]) || forms.second.map({ raw.elementsEqual(out[$0]) }) == true {
            return
        }
        if out.count > start { out.append(0x20) }
        out.append(contentsOf: raw)
    }

    static func normalisedEmail(_ address: String) -> String {
        let trimmed = FastText.trimSpaces(address)
        return FastText.isASCII(trimmed) ? FastText.asciiLowercased(trimmed) : trimmed.lowercased()
    }

    /// Inserts a person with its phones and emails; returns the new id.
    @discardableResult
    static func insert(_ p: Person, db: Database, now: Date, folding: FoldingCache? = nil) throws -> Int64 {
        try insert(p, keys: folding.map { keys(for: p, cache: $0) } ?? keys(for: p), db: db, now: now)
    }

    /// Inserts a person whose keys were computed already (the importer does that on its reading thread); under
    /// `id` when given (a deleted person put back), else under a new one.
    @discardableResult
    static func insert(_ p: Person, keys k: Keys, db: Database, now: Date, id: Int64? = nil) throws -> Int64 {
        let ms = now.epochMilliseconds
        let insert = RowInsert(try db.cachedStatement(sql: """
            INSERT INTO person (id, uid, first_name, last_name, formatted_name, organization, has_photo, revision_ms,
                                created_ms, updated_ms, sort_first, sort_last, search_key, phone_key, note, sms_number,
                                custom_fields)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """), db: db)
        insert.bind(1, id)
        insert.bind(2, p.uid)
        insert.bind(3, p.firstName)
        insert.bind(4, p.lastName)
        insert.bind(5, p.formattedName)
        insert.bind(6, p.organization)
        insert.bind(7, p.hasPhoto)
        insert.bind(8, p.revision?.epochMilliseconds)
        insert.bind(9, p.createdAt?.epochMilliseconds ?? ms)
        insert.bind(10, ms)
        insert.bind(11, k.sortFirst)
        insert.bind(12, k.sortLast)
        insert.bind(13, k.searchKey)
        insert.bind(14, k.phoneKey)
        insert.bind(15, p.note)
        insert.bind(16, p.smsNumber)
        insert.bind(17, p.customFields.isEmpty ? nil : CustomFieldsColumn.encode(p.customFields))
        try insert.run()
        let id = db.lastInsertedRowID
        try insertChildren(p, id: id, emails: k.emails, db: db)
        return id
    }

    /// Replaces a stored person (matched by `p.id`) with `p`; returns the keys it was stored under.
    @discardableResult
    static func update(_ p: Person, id: Int64, db: Database, now: Date, folding: FoldingCache? = nil) throws -> Keys {
        let k = folding.map { keys(for: p, cache: $0) } ?? keys(for: p)
        try db.cachedStatement(sql: """
            UPDATE person SET uid = ?, first_name = ?, last_name = ?, formatted_name = ?, organization = ?,
                has_photo = ?, revision_ms = ?, updated_ms = ?, sort_first = ?, sort_last = ?, search_key = ?,
                phone_key = ?, note = ?, sms_number = ?, custom_fields = ? WHERE id = ?
            """).execute(arguments: [p.uid, p.firstName, p.lastName, p.formattedName, p.organization, p.hasPhoto,
                                     p.revision?.epochMilliseconds, now.epochMilliseconds, k.sortFirst, k.sortLast,
                                     k.searchKey, k.phoneKey, p.note, p.smsNumber,
                                     CustomFieldsColumn.encode(p.customFields), id])
        try db.cachedStatement(sql: "DELETE FROM phone WHERE person_id = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM email WHERE person_id = ?").execute(arguments: [id])
        // The person's own groups are replaced; those a group card gives (`via`) stay the card's.
        try db.cachedStatement(sql: "DELETE FROM person_group WHERE person_id = ? AND via IS NULL").execute(arguments: [id])
        try insertChildren(p, id: id, emails: k.emails, db: db)
        return k
    }

    /// Inserts the phones and emails of person `id`; `emails` are its addresses normalised.
    private static func insertChildren(_ p: Person, id: Int64, emails: [MatchKey], db: Database) throws {
        if !p.phones.isEmpty {
            let phone = RowInsert(try db.cachedStatement(sql: """
                INSERT INTO phone (person_id, position, label, raw, e164, kind, region, invalid_reason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """), db: db)
            for (i, ph) in p.phones.enumerated() {
                let n = ph.number
                phone.bind(1, id)
                phone.bind(2, i)
                phone.bind(3, ph.label)
                phone.bind(4, n.raw)
                phone.bind(5, n.e164)
                phone.bind(6, n.kind.rawValue)
                phone.bind(7, n.region)
                phone.bind(8, n.invalidReason)
                try phone.run()
            }
        }
        if !p.emails.isEmpty {
            let email = RowInsert(try db.cachedStatement(sql: """
                INSERT INTO email (person_id, position, label, address, address_norm) VALUES (?, ?, ?, ?, ?)
                """), db: db)
            for (i, e) in p.emails.enumerated() {
                email.bind(1, id)
                email.bind(2, i)
                email.bind(3, e.label)
                email.bind(4, e.address)
                email.bind(5, emails[i].text)
                try email.run()
            }
        }
        if !p.groups.isEmpty { try insertGroups(p.groups, id: id, via: nil, db: db) }
    }

    /// Puts person `id` in `groups` (one row per folded name; a name the person is in already is left as it is).
    static func insertGroups(_ groups: [String], id: Int64, via: String?, db: Database) throws {
        let group = RowInsert(try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO person_group (person_id, name, folded, via) VALUES (?, ?, ?, ?)
            """), db: db)
        for name in PersonGroups.unique(groups) {
            group.bind(1, id)
            group.bind(2, name)
            group.bind(3, PersonGroups.fold(name))
            group.bind(4, via)
            try group.run()
        }
    }

    /// The person's own groups (not those a group card gives), as stored.
    static func ownGroups(id: Int64, db: Database) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT name FROM person_group WHERE person_id = ? AND via IS NULL ORDER BY folded"),
                            arguments: [id])
    }

    /// Ids of people in name order, `limit` of them (all when nil) from `offset`.
    static func ids(sortedBy sort: ContactSort, limit: Int? = nil, offset: Int = 0, db: Database) throws -> [Int64] {
        let column = sort == .firstName ? "sort_first" : "sort_last"
        return try Int64.fetchAll(db, sql: "SELECT id FROM person ORDER BY \(column), id LIMIT ? OFFSET ?",
                                  arguments: [limit ?? -1, offset])
    }

    /// Marks the contacts as changed so in-memory search indexes catch up, and forgets all but the latest
    /// `keptChanges` of the people's changes (the newest is always kept, so change numbers only grow).
    static func bumpGeneration(_ db: Database) throws {
        try db.execute(sql: "UPDATE store_meta SET value = value + 1 WHERE key = 'contacts_generation'")
        try db.execute(sql: "DELETE FROM person_change WHERE seq <= (SELECT MAX(seq) FROM person_change) - ?",
                       arguments: [keptChanges])
    }

    /// How many of the latest person changes are kept for search indexes to catch up with.
    static let keptChanges = 1024

    /// The number of the latest person change (0 when none is kept).
    static func lastChange(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM person_change") ?? 0
    }

    static func generation(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'contacts_generation'") ?? 0
    }

    /// Placeholder counts the fetch statements are prepared for; a list is padded with NULLs (which
    /// match nothing) up to the next one, so a handful of cached statements serve every size.
    private static let chunkSizes = [8, 64, 512]

    /// The placeholder count a list of `count` values is padded to (`count` itself above the largest size).
    static func paddedCount(_ count: Int) -> Int { chunkSizes.first { $0 >= count } ?? count }

    /// `count` comma-separated placeholders.
    static func marks(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ",") }

    /// People with these ids, in the order of `ids` (missing ids are left out).
    static func fetch(ids: [Int64], db: Database) throws -> [Person] {
        // Each id read once, however often it is asked for (its numbers must not be added twice).
        var seen = Set<Int64>(minimumCapacity: ids.count)
        let unique = ids.filter { seen.insert($0).inserted }
        var people: [Person] = []
        people.reserveCapacity(unique.count)
        // Where each id's person is in `people`.
        var at: [Int64: Int] = [:]
        at.reserveCapacity(unique.count)
        var start = 0
        while start < unique.count {
            let end = min(start + 512, unique.count)
            let size = paddedCount(end - start)
            var values: [DatabaseValue] = unique[start..<end].map { $0.databaseValue }
            values.append(contentsOf: repeatElement(DatabaseValue.null, count: size - values.count))
            let arguments = StatementArguments(values)
            start = end
            let marks = marks(size)
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT \(personColumns) FROM person WHERE id IN (\(marks))"),
                                           arguments: arguments)
            while let row = try rows.next() {
                let p = person(from: row)
                guard let id = p.id else { continue }
                at[id] = people.count
                people.append(p)
            }
            let phones = try db.cachedStatement(sql: """
                SELECT person_id, label, raw, e164, kind, region, invalid_reason FROM phone
                WHERE person_id IN (\(marks)) ORDER BY person_id, position
                """)
            let phoneRows = try Row.fetchCursor(phones, arguments: arguments)
            while let row = try phoneRows.next() {
                guard let i = at[row[0]] else { continue }
                let number = PhoneNumber(raw: row[2], e164: row[3], kind: PhoneNumberKind(rawValue: row[4]) ?? .unknown,
                                         region: row[5], invalidReason: row[6])
                people[i].phones.append(LabeledPhone(label: row[1], number: number))
            }
            let emails = try db.cachedStatement(sql: """
                SELECT person_id, label, address FROM email WHERE person_id IN (\(marks)) ORDER BY person_id, position
                """)
            let emailRows = try Row.fetchCursor(emails, arguments: arguments)
            while let row = try emailRows.next() {
                guard let i = at[row[0]] else { continue }
                people[i].emails.append(LabeledEmail(label: row[1], address: row[2]))
            }
            let groups = try db.cachedStatement(sql: """
                SELECT person_id, name FROM person_group WHERE person_id IN (\(marks)) ORDER BY person_id, folded
                """)
            let groupRows = try Row.fetchCursor(groups, arguments: arguments)
            while let row = try groupRows.next() {
                guard let i = at[row[0]] else { continue }
                people[i].groups.append(row[1])
            }
        }
        return ids.compactMap { at[$0].map { people[$0] } }
    }

    static func person(from row: Row) -> Person {
        // Columns by position, in the order of `personColumns`.
        let revision: Int64? = row[7]
        let created: Int64 = row[8]
        let updated: Int64 = row[9]
        let fields: String? = row[12]
        return Person(id: row[0], uid: row[1], firstName: row[2], lastName: row[3],
                      formattedName: row[4], organization: row[5],
                      hasPhoto: row[6], revision: revision.map { Date(epochMilliseconds: $0) },
                      createdAt: Date(epochMilliseconds: created), updatedAt: Date(epochMilliseconds: updated),
                      smsNumber: row[10], note: row[11], customFields: CustomFieldsColumn.decode(fields))
    }
}
