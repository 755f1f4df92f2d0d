/// A short link as stored (`shortLink`): a sent message's own link, or a person's referral link.
struct ShortLinkRecord: Sendable, Hashable {
    var code: String
    var applicationKey: String
    var clicks: Int
    var messageId: String?
    var referrer: String?

    init(row: SQLRow) {
        code = row["code"]
        applicationKey = row["applicationKey"]
        clicks = row["clicks"]
        messageId = row["messageId"]
        referrer = row["referrer"]
    }
}

/// Short links and their clicks (`shortLink`).
struct LinkRepository {
    let db: any EngineSQL

    /// Counts `n` openings of the link `code`; the link with its new count, nil when the code is unknown.
    func click(code: String, times n: Int = 1) throws -> ShortLinkRecord? {
        guard try db.execute("UPDATE shortLink SET clicks = clicks + ? WHERE code = ?", [n, code]) > 0 else { return nil }
        return try find(code: code)
    }

    func find(code: String) throws -> ShortLinkRecord? {
        try db.row("SELECT * FROM shortLink WHERE code = ?", [code]).map(ShortLinkRecord.init)
    }

    /// A person's referral link, nil when none was made.
    func find(applicationKey: String, referrer: String) throws -> ShortLinkRecord? {
        try db.row("SELECT * FROM shortLink WHERE applicationKey = ? AND referrer = ?", [applicationKey, referrer]).map(ShortLinkRecord.init)
    }

    /// The link put in a sent message, nil when it has none.
    func find(applicationKey: String, messageId: String) throws -> ShortLinkRecord? {
        try db.row("SELECT * FROM shortLink WHERE applicationKey = ? AND messageId = ?", [applicationKey, messageId]).map(ShortLinkRecord.init)
    }

    /// Stores a person's referral link under `code`; false when the code is taken (the caller draws another).
    func addReferral(code: String, applicationKey: String, referrer: String, at: Int64) throws -> Bool {
        try db.execute("""
            INSERT INTO shortLink(code, applicationKey, referrer, createdAt) VALUES (?, ?, ?, ?) ON CONFLICT(code) DO NOTHING
            """, [code, applicationKey, referrer, at]) > 0
    }

    /// Stores the links of sent messages, `(code, messageId)` each, in one statement; answers the codes stored (a code
    /// taken already is left out: the caller draws another).
    func addMessageLinks(_ links: [(code: String, messageId: String)], applicationKey: String, at: Int64) throws -> Set<String> {
        guard !links.isEmpty else { return [] }
        return Set(try db.rows("""
            INSERT INTO shortLink(code, applicationKey, messageId, createdAt) VALUES \(SQLBatch.values(links.count, columns: 4))
            ON CONFLICT(code) DO NOTHING RETURNING code
            """, links.flatMap { link -> SQLArguments in [link.code, applicationKey, link.messageId, at] }).map { $0["code"] as String })
    }
}
