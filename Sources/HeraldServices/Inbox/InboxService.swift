import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore
import Logging

/// Reads users' inboxes: pages with filters, counters, a local cache, seen marks, and the two ways to
/// authenticate (application code or short-lived JWTs, minted again once when the platform refuses one).
///
/// A seen mark is queued in the database together with the local mark before the platform is called,
/// and cleared once the platform took it: a mark the platform did not take (unreachable, or this
/// process killed mid-call) stays queued and is sent by the next call or the next open, by any process.
///
/// A local read or write that fails is never taken for an empty inbox or an empty queue: it is
/// reported to the caller when the outcome depends on it, and logged (`herald.inbox`) with its cause.
public actor InboxService {
    private static let log = Logger(label: "herald.inbox")
    private let platform: any MessagingPlatform
    private let cache: InboxCacheStore
    private let bus: EventBus
    private let clock: any HeraldClock
    public nonisolated let auth: InboxAuthConfig
    /// Why this terminal changes nothing (`--read-only`, a viewer key); nil when it may. Opening a message then leaves
    /// it unread for its user.
    public nonisolated let readOnlyReason: String?
    private var minter: TokenMinter?
    private let outbox: SeenOutboxStore
    /// Tokens minted since start (for tests and diagnostics).
    public private(set) var tokensMinted = 0

    public init(platform: any MessagingPlatform, cache: InboxCacheStore, bus: EventBus, auth: InboxAuthConfig,
                clock: any HeraldClock = SystemClock(), readOnlyReason: String? = nil) {
        self.readOnlyReason = readOnlyReason
        self.platform = platform
        self.cache = cache
        self.bus = bus
        self.auth = auth
        self.clock = clock
        outbox = SeenOutboxStore(database: cache.database)
    }

    // MARK: reading

    /// The first page for `filter`; cached locally. When the platform cannot be reached, the cache answers.
    /// - Parameter announce: false for a quiet re-read (a pane refreshing what it shows): no
    ///   `.inboxLoaded` event, so other screens keep the counts they folded.
    public func fetch(user: String, filter: InboxFilter = InboxFilter(), announce: Bool = true) async throws(InboxError) -> InboxPage {
        try await load(user: user, filter: filter, request: filter, skip: [], isNextPage: false, announce: announce)
    }

    /// The page after `page`: asks with `dateTimeTo` = the oldest send time seen (plus one millisecond,
    /// so messages sharing that exact time are not lost; repeats are dropped).
    public func nextPage(after page: InboxPage) async throws(InboxError) -> InboxPage {
        guard let oldest = page.oldestSendTime else { return page }
        let boundary = page.messages.filter { $0.sendDateTime == oldest }.map(\.messageId)
        var request = page.filter.nextPage(after: oldest.addingTimeInterval(0.001))
        request.limit = page.filter.limit + boundary.count
        return try await load(user: page.externalUserId, filter: page.filter, request: request,
                              skip: page.seenIds, isNextPage: true)
    }

    /// Messages in the local cache, newest first; empty (and the cause logged) when the cache cannot be read.
    public func cached(user: String, filter: InboxFilter? = nil) -> [InboxMessage] {
        do { return try cache.messages(userId: user, filter: filter) } catch {
            Self.logFailure("could not read the local inbox copy", error, user: user)
            return []
        }
    }

    private func load(user: String, filter: InboxFilter, request: InboxFilter, skip: Set<String>,
                      isNextPage: Bool, announce: Bool = true) async throws(InboxError) -> InboxPage {
        guard !user.isEmpty else { throw .emptyUser }
        await retryPendingSeen(user: user)
        let response: InboxResponse
        do {
            response = try await authorized(user: user) { platform, auth async throws(APIError) in
                try await platform.fetchInbox(externalUserId: user, filter: request, auth: auth)
            }
        } catch {
            if case .platform(let api) = error, api.isRetryable {
                // An unreadable local copy is not an empty inbox: the platform's failure is reported.
                do { return try cachedPage(user: user, filter: filter, request: request, skip: skip) } catch let local {
                    Self.logFailure("could not read the local inbox copy", local, user: user)
                }
            }
            throw error
        }
        let fresh = response.inboxMessages.filter { !skip.contains($0.messageId) }
        let page = Array(fresh.prefix(filter.limit))
        do { try cache.save(page, userId: user) } catch {
            Self.logFailure("could not save the inbox page locally", error, user: user)
        }
        // What we show follows the local copy: a message marked seen while its mark is pending stays seen,
        // one marked unread here stays unread (the platform's counts miss those: they are added).
        let local = Dictionary(cached(user: user).map { ($0.messageId, $0.seen) }, uniquingKeysWith: { a, _ in a })
        let shown = page.map { m -> InboxMessage in
            var m = m
            if let seen = local[m.messageId] { m.seen = seen }
            return m
        }
        var counts = response.counts
        do {
            for kept in try cache.keptUnread(userId: user) {
                counts.unread += 1
                if filter.matches(kept) { counts.unreadFiltered += 1 }
            }
        } catch {
            Self.logFailure("could not read the messages marked unread", error, user: user)
        }
        let result = InboxPage(externalUserId: user, filter: filter, messages: shown, counts: counts,
                               hasMore: response.messages.count >= request.limit, fromCache: false,
                               seenIds: skip.union(page.map(\.messageId)))
        if announce {
            bus.publish(.inboxLoaded(InboxLoaded(externalUserId: user, countTotal: response.countTotal,
                                                 countUnread: response.countUnread, messageCount: shown.count,
                                                 isNextPage: isNextPage)))
        }
        return result
    }

    private func cachedPage(user: String, filter: InboxFilter, request: InboxFilter, skip: Set<String>) throws -> InboxPage {
        let all = try cache.messages(userId: user, filter: nil)
        let matching = all.filter { request.matches($0) && !skip.contains($0.messageId) }
        let page = Array(matching.prefix(filter.limit))
        return InboxPage(externalUserId: user, filter: filter, messages: page,
                         counts: InboxCounts(messages: all, filter: filter), hasMore: matching.count > page.count,
                         fromCache: true, seenIds: skip.union(page.map(\.messageId)))
    }

    // MARK: seen

    /// Marks messages seen: ids already seen are skipped; the marks are queued with the local mark,
    /// sent, and cleared once the platform took them. When the platform cannot take them now they stay
    /// marked and queued (`InboxError.seenNotSaved`); a mark the platform refuses for good is undone.
    @discardableResult
    public func markSeen(user: String, messageIds: [String]) async throws(InboxError) -> SeenResult {
        guard !user.isEmpty else { throw .emptyUser }
        await retryPendingSeen(user: user)
        let known: [String: InboxMessage]
        let queued: Set<String>
        do {
            known = Dictionary(try cache.messages(userId: user, filter: nil).map { ($0.messageId, $0) }, uniquingKeysWith: { a, _ in a })
            queued = Set(try outbox.marks(userId: user).map(\.messageId))
        } catch {
            Self.logFailure("could not read the local inbox copy or its seen queue", error, user: user)
            throw .seenNotSaved(userMessage(for: error), pending: 0)
        }
        var toMark: [String] = []
        var already: [String] = []
        var seenInCall = Set<String>()
        for id in messageIds where seenInCall.insert(id).inserted {
            if known[id]?.seen == true, !queued.contains(id) { already.append(id) } else { toMark.append(id) }
        }
        guard !toMark.isEmpty else { return SeenResult(marked: [], alreadySeen: already) }
        let now = clock.now()
        let marks = toMark.map { QueuedSeenMark(messageId: $0, seenAt: now) }
        do { try outbox.queue(marks, userId: user) } catch {
            throw .seenNotSaved(userMessage(for: error), pending: 0)
        }
        bus.publish(.inboxSeenChanged(InboxSeenChange(externalUserId: user, messageIds: toMark, seen: true)))
        do {
            try await platform.markSeen(externalUserId: user, messages: marks.map { $0.wire(reportedAt: clock.now()) })
        } catch {
            if error.isRetryable {
                throw .seenNotSaved(error.description, pending: toMark.count)
            }
            do { try outbox.clear(messageIds: toMark, userId: user, unmark: true) } catch let local {
                // Left queued and marked: the next retry meets the same refusal and drops them.
                Self.logFailure("could not undo refused seen marks", local, user: user)
            }
            bus.publish(.inboxSeenChanged(InboxSeenChange(externalUserId: user, messageIds: toMark, seen: false)))
            throw .platform(error)
        }
        clearSent(toMark, user: user)
        return SeenResult(marked: toMark, alreadySeen: already)
    }

    /// Marks messages unread here: the platform has no "unseen", so they stay unread on this workspace
    /// (in lists and counts) until opened or marked seen again.
    public func markUnread(user: String, messageIds: [String]) throws(InboxError) {
        guard !user.isEmpty else { throw .emptyUser }
        do { try cache.keepUnread(messageIds: messageIds, userId: user) } catch {
            Self.logFailure("could not mark messages unread", error, user: user)
            throw .unreadNotSaved(userMessage(for: error))
        }
        bus.publish(.inboxSeenChanged(InboxSeenChange(externalUserId: user, messageIds: messageIds, seen: false)))
    }

    /// Seen marks waiting for the platform, of one user; 0 (and the cause logged) when the queue cannot be read.
    public func pendingSeenCount(user: String) -> Int {
        do { return try outbox.marks(userId: user).count } catch {
            Self.logFailure("could not read the seen queue", error, user: user)
            return 0
        }
    }

    /// Sends the marks queued for a user; returns how many went through. Marks the platform refuses
    /// as malformed or unknown are dropped (sending them again cannot succeed); on other failures they wait.
    @discardableResult
    public func retryPendingSeen(user: String) async -> Int {
        let queue: [QueuedSeenMark]
        do { queue = try outbox.marks(userId: user) } catch {
            Self.logFailure("could not read the seen queue", error, user: user)
            return 0
        }
        guard !queue.isEmpty else { return 0 }
        let ids = queue.map(\.messageId)
        do {
            try await platform.markSeen(externalUserId: user, messages: queue.map { $0.wire(reportedAt: clock.now()) })
        } catch {
            switch error {
            case .badRequest, .notFound: clearSent(ids, user: user, dropping: true)
            default: break
            }
            return 0
        }
        clearSent(ids, user: user)
        do { try cache.setSeen(true, messageIds: ids, userId: user) } catch {
            Self.logFailure("could not mark the local copy seen", error, user: user)
        }
        bus.publish(.inboxSeenChanged(InboxSeenChange(externalUserId: user, messageIds: ids, seen: true)))
        return ids.count
    }

    /// Sends every user's queued marks (on open: a process killed mid-call left them).
    @discardableResult
    public func drainSeenOutbox() async -> Int {
        let users: [String]
        do { users = try outbox.users() } catch {
            Self.logFailure("could not read the seen queue", error, user: "*")
            return 0
        }
        var sent = 0
        for user in users { sent += await retryPendingSeen(user: user) }
        return sent
    }

    /// Takes marks the platform answered for out of the queue; when that fails they stay queued (sent
    /// again by the next retry, or dropped when refused again) and the cause is logged.
    private func clearSent(_ ids: [String], user: String, dropping: Bool = false) {
        do { try outbox.clear(messageIds: ids, userId: user) } catch {
            Self.logFailure(dropping ? "could not drop refused seen marks" : "could not clear sent seen marks", error, user: user)
        }
    }

    private static func logFailure(_ what: String, _ error: any Error, user: String) {
        log.error("\(what)", metadata: ["user": "\(user)", "error": "\(logCause(error))"])
    }

    // MARK: auth

    /// Runs `call` with the configured credential; with a JWT, a fresh token per call, and on UNAUTHORIZED one more fresh token and one retry.
    private func authorized<T: Sendable>(
        user: String, _ call: @Sendable (any MessagingPlatform, InboxAuth) async throws(APIError) -> T
    ) async throws(InboxError) -> T {
        switch auth {
        case .applicationCode:
            do { return try await call(platform, .applicationCode) } catch {
                throw Self.map(error, jwt: nil)
            }
        case .jwt(let config):
            let first = try await token(for: user, config: config)
            do { return try await call(platform, .bearer(first)) } catch {
                guard case .unauthorized = error else { throw Self.map(error, jwt: config) }
            }
            let second = try await token(for: user, config: config)
            do { return try await call(platform, .bearer(second)) } catch {
                throw Self.map(error, jwt: config)
            }
        }
    }

    private static func map(_ error: APIError, jwt: InboxTokenConfig?) -> InboxError {
        switch error {
        case .accessTokenMissing: return .accessTokenMissing
        case .unauthorized:
            if let jwt {
                return .tokenRefused(keyId: jwt.keyId, keyIdConfigKey: jwt.keyIdConfigKey, secretConfigKey: jwt.secretConfigKey)
            }
            return .applicationCodeRefused
        default: return .platform(error)
        }
    }

    /// A new token for `user`. Tokens are minted per call: the platform accepts each `jti` once.
    private func token(for user: String, config: InboxTokenConfig) async throws(InboxError) -> String {
        do {
            if minter == nil { minter = try TokenMinter(config: config, clock: clock) }
            guard let minter else { throw InboxError.tokenConfig("no token minter") }
            let token = try await minter.mint(for: user)
            tokensMinted += 1
            return token
        } catch let error as InboxError {
            throw error
        } catch {
            throw .tokenConfig(userMessage(for: error))
        }
    }
}

extension QueuedSeenMark {
    /// The wire mark reported at `reportedAt`: seconds since the user saw it.
    func wire(reportedAt: Date) -> SeenBody.SeenMessage {
        SeenBody.SeenMessage(messageId: messageId, seenAt: seenAt ?? reportedAt, reportedAt: reportedAt)
    }
}
