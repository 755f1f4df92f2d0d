import Foundation
import HeraldAPI

extension PlatformEngine {
    /// Counts one opening of a short link; the new count, nil when the code is unknown.
    @discardableResult
    public func recordClick(code: String) async throws -> Int? {
        let clicks = try await store.write { [self] db -> Int? in
            guard let link = try db.links.click(code: code) else { return nil }
            try clicked(link, db)
            return link.clicks
        }
        if clicks != nil { bell.ring() }
        return clicks
    }

    /// Counts the openings of many short links in one unit of work (a server gathers clicks for a moment instead of
    /// writing once per request); unknown codes are ignored.
    public func recordClicks(_ counts: [String: Int]) async throws {
        guard !counts.isEmpty else { return }
        let changed = try await store.write { [self] db -> Bool in
            var any = false
            for (code, n) in counts.sorted(by: { $0.key < $1.key }) where n > 0 {
                guard let link = try db.links.click(code: code, times: n) else { continue }
                try clicked(link, db)
                any = true
            }
            return any
        }
        if changed { bell.ring() }
    }

    /// Tells of a link's new count: the link itself, and for a message's own link its delivery info with the clicks, so
    /// every terminal following the bulk sees them (Deliveries, status) as it sees a status change.
    private nonisolated func clicked(_ link: ShortLinkRecord, _ db: any EngineSQL) throws {
        let app = link.applicationKey
        try appendEvent(db, applicationKey: app, .linkClicked(wire(link)))
        guard let messageId = link.messageId, var message = try db.bulks.message(applicationKey: app, id: messageId) else { return }
        message.clicks = link.clicks
        try appendEvent(db, applicationKey: app, .deliveryChanged(bulkId: message.bulkId, deliveryInfo: [message.deliveryInfo], isDelta: true))
    }

    /// Whether a short link with this code exists (a read, no write).
    public nonisolated func shortLinkExists(code: String) async throws -> Bool {
        guard WireInput.identifierProblem(code, maxLength: 64) == nil else { return false }
        return try await store.read { db in try db.links.find(code: code) != nil }
    }

    /// A person's referral link when one was made already (a viewer may read it, not create it).
    public nonisolated func existingReferralLink(applicationKey: String, referrer: String) async throws -> ReferralLink? {
        try await store.read { [self] db in try db.links.find(applicationKey: applicationKey, referrer: referrer).map(wire) }
    }

    /// The short link put in a sent message, with its clicks.
    public func shortLink(applicationKey: String, messageId: String) async throws -> ReferralLink? {
        try await store.read { [self] db in try db.links.find(applicationKey: applicationKey, messageId: messageId).map(wire) }
    }

    /// A person's own referral link, created on first ask.
    public func referralLink(applicationKey: String, referrer: String) async throws -> ReferralLink {
        guard !referrer.isEmpty, referrer.count <= 200 else {
            throw EngineError.invalidArgument("a referrer must have 1 to 200 characters")
        }
        let now = nowMs
        return try await store.write { [self] db in
            if let link = try db.links.find(applicationKey: applicationKey, referrer: referrer) { return wire(link) }
            var code = Identifiers.linkCode()
            while try !db.links.addReferral(code: code, applicationKey: applicationKey, referrer: referrer, at: now) {
                code = Identifiers.linkCode()
            }
            return ReferralLink(url: config.link(code: code), code: code, clicks: 0, referrer: referrer)
        }
    }

    /// A stored link as the wire shows it, with its full URL.
    nonisolated func wire(_ link: ShortLinkRecord) -> ReferralLink {
        ReferralLink(url: config.link(code: link.code), code: link.code, clicks: link.clicks, messageId: link.messageId,
                     referrer: link.referrer)
    }

    /// A message's short link, a referrer's own link; and a short link's landing.
    static let shortLinkRoutes: [EngineRoute] = [
        EngineRoute(GetReferralLink.self, .referral) { engine, call in try await engine.referral(call) },
        EngineRoute(.get, clickPath, .open) { engine, _, p in try await engine.click(p) },
    ]

    func referral(_ call: EngineCall<GetReferralLink>) async throws -> ReferralLink {
        let (app, query) = (call.app, call.request.query)
        if let messageId = query["messageId"], !messageId.isEmpty {
            guard let link = try await shortLink(applicationKey: app.key, messageId: messageId) else {
                throw APIError.notFound("No link for message \(messageId)")
            }
            return link
        }
        if let referrer = query["referrer"] {
            do { return try await referralLink(applicationKey: app.key, referrer: referrer) } catch let e as EngineError {
                throw APIError.badRequest(e.description, validationErrors: ["referrer": [e.description]])
            }
        }
        throw APIError.badRequest("give messageId or referrer", validationErrors: ["messageId": ["or referrer is required"]])
    }
}
