import Foundation
import HeraldAPI
import HeraldCore

extension PlatformEngine {
    static let maxInboxLimit = 1000
    static let maxTopicLength = 255
    static let maxUserIdLength = 255

    // MARK: - Admin

    /// Puts a message in a user's inbox (the sandbox application's when `applicationKey` is nil).
    @discardableResult
    public func pushInbox(user: String, topic: String?, title: String?, body: String, at date: Date? = nil,
                          applicationKey: String? = nil, seen: Bool = false) async throws -> InboxMessage {
        guard !user.isEmpty else { throw EngineError.invalidArgument("an inbox user id cannot be empty") }
        guard !body.isEmpty else { throw EngineError.invalidArgument("an inbox message needs a body") }
        var input = WireInput()
        input.identifier("user", user, maxLength: Self.maxUserIdLength)
        input.identifier("topic", topic, maxLength: Self.maxTopicLength)
        // Title and body may hold anything a real platform could deliver (the screens make it safe): the sandbox
        // shows how hostile text is drawn. Who it is for and its topic are identifiers.
        do { try input.check("invalid inbox message") } catch { throw EngineError.invalidArgument(error.description) }
        let appKey: String
        if let applicationKey { appKey = applicationKey } else { appKey = try await bootstrapSandbox().applicationKey }
        _ = try await requireApplication(appKey)
        let message = InboxMessage(messageId: Identifiers.uuid(), title: title, body: body, topic: topic,
                                   sendDateTime: Date(epochMilliseconds: (date ?? clock.now()).epochMilliseconds), seen: seen)
        let wire = InboxWireMessage(messageId: message.messageId, title: title, body: body, topic: topic,
                                    sendDateTime: message.sendDateTime.epochMilliseconds, seen: seen)
        try await store.write { [self] db in
            try db.inbox.add(wire, applicationKey: appKey, user: user)
            try appendEvent(db, applicationKey: appKey, .inboxMessage(externalUserId: user, message: wire))
        }
        bell.ring()
        return message
    }

    /// Fills a user's inbox with demo messages over the last weeks (topics promo, news, account; older
    /// ones seen). Does nothing when the user already has messages; returns how many were added.
    @discardableResult
    public func seedDemo(user: String, count: Int = 30, applicationKey: String? = nil) async throws -> Int {
        let appKey: String
        if let applicationKey { appKey = applicationKey } else { appKey = try await bootstrapSandbox().applicationKey }
        let existing = try await store.read { db in try db.inbox.count(applicationKey: appKey, user: user) }
        guard existing == 0, count > 0 else { return 0 }
        let samples: [(String, String, String)] = [
            ("promo", "Invite three friends", "Invite three friends this week and unlock the team plan for a month."),
            ("news", "Your friend joined", "Someone you invited just joined Herald. Say hello!"),
            ("account", "Welcome to Herald", "Your sandbox is ready: every pane works without an account."),
            ("news", "Delivery reports are live", "Watch invitations move from waiting to delivered in the Delivery pane."),
            ("promo", "Share your referral link", "Your personal link counts every click. Find it in the Share pane."),
            ("account", "Security notice", "A new device read your inbox. If it was not you, rotate your keys."),
        ]
        let now = clock.now()
        for i in 0..<count {
            let (topic, title, body) = samples[i % samples.count]
            let at = now.addingTimeInterval(-Double(i) * 19 * 3600 - Double(i % 7) * 600)
            try await pushInbox(user: user, topic: topic, title: title, body: body, at: at, applicationKey: appKey, seen: i >= 5 && i % 3 != 0)
        }
        return count
    }

    // MARK: - Wire

    /// A user's inbox, read and marked seen.
    static let inboxRoutes: [EngineRoute] = [
        EngineRoute(FetchInbox.self, .inbox) { engine, call in try await engine.fetchInbox(call) },
        EngineRoute(MarkInboxSeen.self, .inboxWrite) { engine, call in try await engine.markSeen(call) },
    ]

    nonisolated func fetchInbox(_ call: EngineCall<FetchInbox>) async throws -> InboxResponse {
        let (app, user) = (call.app, call.path.externalUserId)
        let filter = try Self.inboxFilter(call.request.query)
        return try await store.read { db in try db.inbox.page(applicationKey: app.key, user: user, filter: filter) }
    }

    static func inboxFilter(_ query: [String: String]) throws -> InboxFilter {
        var input = WireInput()
        let topic = query["messageTopic"].flatMap { $0.isEmpty ? nil : $0 }
        input.identifier("messageTopic", topic, maxLength: maxTopicLength)
        let from = input.integer("dateTimeFrom", query["dateTimeFrom"], in: .wireMilliseconds)
        let to = input.integer("dateTimeTo", query["dateTimeTo"], in: .wireMilliseconds)
        let limit = input.integer("limit", query["limit"], in: 1...Int64(maxInboxLimit))
        try input.check("invalid inbox query")
        var filter = InboxFilter(topic: topic, from: from.map(Date.init(epochMilliseconds:)), to: to.map(Date.init(epochMilliseconds:)))
        if let limit { filter.limit = Int(limit) }
        return filter
    }

    /// The application an inbox request reads: by application code (unless the application requires
    /// a JWT: ACCESS_TOKEN_MISSING), or by a JWT whose every claim holds.
    nonisolated func authenticateInbox(_ request: APIRequest, externalUserId: String) async throws -> ApplicationRecord {
        switch request.credential {
        case .app?:
            let app = try await authenticateCode(request)
            if app.inboxAuthMode == .jwt { throw APIError.accessTokenMissing }
            return app
        case .bearer(let token)?:
            let (app, jti, exp) = try await verifyInboxToken(token, externalUserId: externalUserId)
            let now = clock.now()
            let fresh = try await store.write { db in
                try db.inbox.useTokenId(jti, applicationKey: app.key, expiresAt: Int64(max(0, min(exp, 1e15)) * 1000),
                                        now: now.epochMilliseconds)
            }
            guard fresh else { throw APIError.unauthorized }
            return app
        case nil:
            throw APIError.unauthorized
        }
    }

    /// Whether a user's JWT is signed by a key of its application and its claims let `externalUserId` read now;
    /// its jti is not marked used (a server checks a token before it reads the body, the route then uses it).
    public nonisolated func inboxTokenHolds(_ token: String, externalUserId: String) async throws -> Bool {
        do { _ = try await verifyInboxToken(token, externalUserId: externalUserId) } catch APIError.unauthorized { return false }
        return true
    }

    private nonisolated func verifyInboxToken(_ token: String, externalUserId: String) async throws
        -> (app: ApplicationRecord, jti: String, exp: Double) {
        guard token.utf8.count <= 8192, let unverified = InboxTokenVerifier.inspect(token) else { throw APIError.unauthorized }
        let found = try await store.read { db -> (ApplicationRecord, String)? in
            guard let app = try db.applications.find(code: unverified.applicationCode),
                  let hex = try db.keys.jwtSecretHex(applicationKey: app.key, keyId: unverified.keyId) else { return nil }
            return (app, hex)
        }
        guard let (app, hex) = found, let secret = Identifiers.bytes(fromHex: hex),
              let claims = await InboxTokenVerifier.verifySignature(token, keyId: unverified.keyId, secret: secret),
              let jti = InboxTokenVerifier.check(claims, externalUserId: externalUserId, applicationCode: app.code, now: clock.now()),
              let exp = claims.exp else {
            throw APIError.unauthorized
        }
        return (app, jti, exp)
    }

    nonisolated func markSeen(_ call: EngineCall<MarkInboxSeen>) async throws -> EmptyResponse {
        let (app, body) = (call.app, call.body)
        var input = WireInput()
        input.identifier("externalUserId", body.externalUserId, maxLength: Self.maxUserIdLength)
        if body.messages.count > Self.maxInboxLimit { input.refuse("messages", "at most \(Self.maxInboxLimit) marks a request") }
        for (i, mark) in body.messages.enumerated() {
            input.identifier("messages[\(i)].messageId", mark.messageId, maxLength: Self.maxUserIdLength)
        }
        try input.check("invalid seen marks")
        let now = nowMs
        try await store.write { db in
            for mark in body.messages {
                // `timestampDelta` is the seconds between seeing and reporting: the user saw it that long ago.
                let seenAt = now - max(0, min(mark.timestampDelta, 366 * 86_400)) * 1000
                try db.inbox.markSeen(applicationKey: app.key, user: body.externalUserId, messageId: mark.messageId, at: seenAt)
            }
        }
        return EmptyResponse()
    }
}
