import Foundation
import HeraldCore
import HeraldStore
import Logging

/// What attention watches for, from `[notify]` and the command line.
public struct AttentionSettings: Sendable, Hashable {
    /// Failures worth a notice; nil: none for failures (settled bulks still get one).
    public var failures: FailureThreshold?
    /// Inboxes followed from the start (`herald watch --inbox USER`, the demo's user).
    public var inboxUsers: Set<String>
    /// Whether an inbox a screen loads is followed from then on (the terminal UI's Inbox pane).
    public var followLoadedInboxes: Bool
    /// How often followed inboxes are read where the platform pushes no event for a new message (the embedded
    /// platform); nil: only on the platform's events.
    public var inboxPollInterval: TimeInterval?

    public init(failures: FailureThreshold? = .default, inboxUsers: Set<String> = [], followLoadedInboxes: Bool = false,
                inboxPollInterval: TimeInterval? = nil) {
        self.failures = failures
        self.inboxUsers = inboxUsers
        self.followLoadedInboxes = followLoadedInboxes
        self.inboxPollInterval = inboxPollInterval
    }
}

/// Decides the notices of one workspace: it follows the change feed (bulks whose recipients moved) and inbox arrivals,
/// asks `AttentionRules` what is true, and keeps only what no process gave before (`NoticeClaims`, in the client's
/// store). Nothing it reads or writes happens on the UI thread: it is an actor, fed by the bus.
///
/// A store that cannot be read or written costs a notice (logged), never a repeated one.
public actor AttentionWatcher {
    private static let log = Logger(label: "herald.attention")
    static let inboxBaseline = "inbox-baseline"
    private let ledger: LedgerStore
    private let claims: NoticeClaims
    private let inbox: InboxService?
    private let clock: any HeraldClock
    public let settings: AttentionSettings
    private var followed: Set<String>
    /// When this watcher began: an inbox it is the first to follow counts what arrived from then on.
    private let startedAt: Date

    public init(ledger: LedgerStore, claims: NoticeClaims, inbox: InboxService?, settings: AttentionSettings,
                clock: any HeraldClock = SystemClock()) {
        self.ledger = ledger
        self.claims = claims
        self.inbox = inbox
        self.settings = settings
        self.clock = clock
        followed = settings.inboxUsers
        startedAt = clock.now()
    }

    /// The inboxes followed now.
    public var followedInboxes: Set<String> { followed }

    // MARK: bulks

    /// The notices a batch of the change feed calls for, each claimed: the bulks it touched are counted again (one
    /// query) and their notices kept when no process gave them before.
    public func consider(_ change: LedgerChange) -> [AttentionNotice] {
        let ids = Set(change.deliveries.map(\.bulkId)).union(change.bulks.map(\.bulkId))
        return considerBulks(ids)
    }

    /// The notices of the bulks named, each claimed.
    public func considerBulks(_ ids: Set<String>) -> [AttentionNotice] {
        guard !ids.isEmpty else { return [] }
        let tallies: [String: BulkTally]
        do { tallies = try ledger.tallies(ofBulks: ids) } catch {
            Self.log.warning("could not count the recipients of changed bulks", metadata: ["cause": "\(logCause(error))"])
            return []
        }
        let now = clock.now()
        return tallies.keys.sorted().flatMap { id in
            AttentionRules.bulkNotices(tallies[id]!, threshold: settings.failures, at: now).filter(claim)
        }
    }

    private func claim(_ notice: AttentionNotice) -> Bool {
        do { return try claims.claim(kind: notice.kind.rawValue, subject: notice.subject, at: notice.at) } catch {
            Self.log.warning("could not record a notice as given; it is not given",
                             metadata: ["kind": "\(notice.kind.rawValue)", "subject": "\(notice.subject)", "cause": "\(logCause(error))"])
            return false
        }
    }

    // MARK: inboxes

    /// Follows `user`'s inbox from now on (its messages until now are not news).
    public func follow(user: String) {
        guard !user.isEmpty else { return }
        followed.insert(user)
    }

    /// The notice for messages of `user`'s inbox among `messages` that are new: sent since the inbox was first
    /// followed on this data folder (by any process: the first watcher to look records when it began), unseen, not
    /// silent, and not announced before. Nil when there are none.
    public func considerInbox(user: String, messages: [InboxMessage]) -> AttentionNotice? {
        let now = clock.now()
        do {
            // What was there before anyone followed this inbox is not news.
            if try claims.claimedAt(kind: Self.inboxBaseline, subject: user) == nil {
                _ = try claims.claim(kind: Self.inboxBaseline, subject: user, at: startedAt)
            }
            guard let baseline = try claims.claimedAt(kind: Self.inboxBaseline, subject: user) else { return nil }
            let fresh = AttentionRules.newInboxMessages(messages, since: baseline)
            guard !fresh.isEmpty else { return nil }
            let won = Set(try claims.claim(kind: NoticeKind.inboxMessage.rawValue,
                                           subjects: fresh.map { Self.messageSubject(user: user, id: $0.messageId) }, at: now))
            return AttentionRules.inboxNotice(user: user, arrived: fresh.filter { won.contains(Self.messageSubject(user: user, id: $0.messageId)) }, at: now)
        } catch {
            Self.log.warning("could not record inbox messages as announced; they are not announced",
                             metadata: ["user": "\(user)", "cause": "\(logCause(error))"])
            return nil
        }
    }

    static func messageSubject(user: String, id: String) -> String { "\(user)/\(id)" }

    /// Reads `user`'s newest messages from the platform (quietly: screens are not told) and gives their notice.
    public func readInbox(user: String) async -> AttentionNotice? {
        guard let inbox else { return nil }
        do {
            let page = try await inbox.fetch(user: user, announce: false)
            return considerInbox(user: user, messages: page.messages)
        } catch {
            Self.log.info("could not read an inbox for its new messages", metadata: ["user": "\(user)", "cause": "\(error)"])
            return nil
        }
    }

    /// The notice for what the local copy of `user`'s inbox holds (a screen just loaded it).
    public func readCachedInbox(user: String) async -> AttentionNotice? {
        guard let inbox else { return nil }
        let messages = await inbox.cached(user: user)
        return considerInbox(user: user, messages: Array(messages.prefix(200)))
    }

    // MARK: running

    /// Follows `events` (a stream of the workspace's bus) until cancelled and hands each notice to `deliver` (a bulk's in the order they are decided). Followed inboxes
    /// are read at the start and every `settings.inboxPollInterval`.
    /// Take `events` from the bus before the change feed starts, so no batch is missed. With `bulks` false the caller
    /// hands the change feed's batches to `consider(_:)` itself (`herald watch`, to print a notice after its changes).
    public func run(events: AsyncStream<HeraldEvent>, bulks: Bool = true,
                    deliver: @escaping @Sendable (AttentionNotice) async -> Void) async {
        let poller: Task<Void, Never>? = settings.inboxPollInterval.map { interval in
            Task { [weak self] in
                while !Task.isCancelled {
                    guard let self else { return }
                    for user in await self.followedInboxes.sorted() {
                        if let notice = await self.readInbox(user: user) { await deliver(notice) }
                    }
                    try? await Task.sleep(nanoseconds: UInt64(max(0.05, interval) * 1_000_000_000))
                }
            }
        }
        defer { poller?.cancel() }
        if poller == nil {
            for user in followed.sorted() { if let notice = await readInbox(user: user) { await deliver(notice) } }
        }
        for await event in events {
            if Task.isCancelled { break }
            switch event {
            case .ledgerChanged(let change):
                guard bulks else { break }
                for notice in consider(change) { await deliver(notice) }
            case .inboxLoaded(let loaded) where !loaded.isNextPage:
                if settings.followLoadedInboxes { follow(user: loaded.externalUserId) }
                if followed.contains(loaded.externalUserId), let notice = await readCachedInbox(user: loaded.externalUserId) {
                    await deliver(notice)
                }
            case .inboxArrived(let user):
                if followed.contains(user), let notice = await readInbox(user: user) { await deliver(notice) }
            case .repliesChanged(let change):
                if let notice = AttentionRules.replyNotice(change, at: clock.now()), claim(notice) { await deliver(notice) }
            default:
                break
            }
        }
    }
}

extension Workspace {
    /// The attention watcher of this workspace (its ledger, its store's notice claims, its inbox service).
    public func attention(_ settings: AttentionSettings) -> AttentionWatcher {
        AttentionWatcher(ledger: ledger, claims: NoticeClaims(database: database), inbox: inbox, settings: settings, clock: clock)
    }
}
