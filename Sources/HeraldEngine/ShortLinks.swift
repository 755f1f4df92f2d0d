import Foundation
import GRDB
import HeraldAPI

extension PlatformEngine {
    /// Counts one opening of a short link; the new count, nil when the code is unknown.
    @discardableResult
    public func recordClick(code: String) throws -> Int? {
        let clicks = try pool.write { db -> Int? in
            try db.execute(sql: "UPDATE shortLink SET clicks = clicks + 1 WHERE code = ?", arguments: [code])
            guard db.changesCount > 0,
                  let row = try Row.fetchOne(db, sql: "SELECT * FROM shortLink WHERE code = ?", arguments: [code]) else { return nil }
            try appendEvent(db, applicationKey: row["applicationKey"], .linkClicked(link(row)))
            return row["clicks"]
        }
        if clicks != nil { bell.ring() }
        return clicks
    }

    /// The short link put in a sent message, with its clicks.
    public func shortLink(applicationKey: String, messageId: String) throws -> ReferralLink? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM shortLink WHERE applicationKey = ? AND messageId = ?",
                             arguments: [applicationKey, messageId]).map(link)
        }
    }

    /// A person's own referral link, created on first ask.
    public func referralLink(applicationKey: String, referrer: String) throws -> ReferralLink {
        guard !referrer.isEmpty, referrer.count <= 200 else {
            throw EngineError.invalidArgument("a referrer must have 1 to 200 characters")
        }
        let now = nowMs
        return try pool.write { db in
            let sql = "SELECT * FROM shortLink WHERE applicationKey = ? AND referrer = ?"
            if let row = try Row.fetchOne(db, sql: sql, arguments: [applicationKey, referrer]) { return link(row) }
            let code = try Self.newLinkCode(db)
            try db.execute(sql: "INSERT INTO shortLink(code, applicationKey, referrer, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [code, applicationKey, referrer, now])
            return ReferralLink(url: config.link(code: code), code: code, clicks: 0, referrer: referrer)
        }
    }

    nonisolated func link(_ row: Row) -> ReferralLink {
        let code: String = row["code"]
        return ReferralLink(url: config.link(code: code), code: code, clicks: row["clicks"],
                            messageId: row["messageId"], referrer: row["referrer"])
    }

    static func newLinkCode(_ db: Database) throws -> String {
        while true {
            let code = Identifiers.linkCode()
            if try Row.fetchOne(db, sql: "SELECT 1 FROM shortLink WHERE code = ?", arguments: [code]) == nil { return code }
        }
    }

    func referral(_ request: APIRequest, _ p: [String: String]) throws -> APIResponse {
        let app = try authenticateSecret(request, applicationKey: p["applicationKey"])
        if let messageId = request.query["messageId"], !messageId.isEmpty {
            guard let link = try shortLink(applicationKey: app.key, messageId: messageId) else {
                throw APIError.notFound("No link for message \(messageId)")
            }
            return try Self.json(link)
        }
        if let referrer = request.query["referrer"] {
            do { return try Self.json(try referralLink(applicationKey: app.key, referrer: referrer)) } catch let e as EngineError {
                throw APIError.badRequest(e.description, validationErrors: ["referrer": [e.description]])
            }
        }
        throw APIError.badRequest("give messageId or referrer", validationErrors: ["messageId": ["or referrer is required"]])
    }
}
