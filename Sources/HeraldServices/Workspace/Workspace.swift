import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore
import Logging

/// One data directory wired into a running client: the local store (`herald.sqlite`), the platform the
/// executable connected it to (embedded, a Herald server…) with the application's credentials, the event
/// bus, and every service. The CLI and the terminal UI both start here.
public final class Workspace: @unchecked Sendable {
    /// Client settings holding the application's credentials.
    static let keyApplication = "platform.application_key"
    static let keySecret = "platform.application_secret"
    static let keyCode = "platform.application_code"
    /// The id of the last event of a server's stream this workspace stored.
    static let keyLastEvent = "platform.last_event_id"

    public let dataDirectory: URL
    public let config: WorkspaceConfig
    public let clock: any HeraldClock
    let database: HeraldDatabase
    /// The platform this workspace talks to.
    public let connection: PlatformConnection
    public var credentials: PlatformCredentials { connection.credentials }
    /// Why this workspace changes nothing (`WorkspaceConfig.readOnlyReason`, else a viewer key's connection); nil when
    /// it may. Services refuse sends by it; the screens grey every key that changes something.
    public var readOnlyReason: String? { config.readOnlyReason ?? connection.readOnlyReason }
    /// A link of the form invitations get, for previews (the made-up one when the platform could not say).
    public var linkExample: String { connection.linkExample ?? Self.unknownLinkExample }
    public static let unknownLinkExample = "https://herald.invalid/r/AbCd2345"
    public let platform: any MessagingPlatform
    public let bus: EventBus
    public let parser: PhoneNumberParser

    let contacts: ContactStore
    /// The contact store itself, for tests' support that fills a workspace directly: an SPI rather than a
    /// `@testable import`, which a release build (`make release`) cannot compile.
    @_spi(Testing) public var contactStore: ContactStore { contacts }
    let ledger: LedgerStore
    let settings: SettingsStore
    public let templates: TemplateService
    public let invites: InviteService
    public let tracker: DeliveryTracker
    /// What changed in the local store, from any process: the source of live screens and `herald watch`.
    public let feed: ChangeFeed
    public let inbox: InboxService
    /// The replies people sent back, threaded per number, and answers to them.
    public let conversations: ConversationService
    /// What the screens read of the contacts and the ledger (async, so never on the UI thread).
    public var book: ContactBook { ContactBook(contacts: contacts, ledger: ledger, settings: settings, parser: parser) }
    /// Deliveries' query, breakdown and export.
    public var deliveries: DeliverySearch { DeliverySearch(ledger: ledger, settings: settings, clock: clock) }
    public let suggestions: SuggestionService
    public let share: ShareService
    /// The address books (`[[books]]`): synced with their folders, live while watching.
    public let books: BookSyncer
    /// The From of email invitations (`config.emailFrom`); nil when none is configured.
    public let emailSender: EmailAddress?
    /// The mail program this machine's platform hands email invitations to; nil on a Herald server, which sends them
    /// over its own SMTP.
    public let mailProgram: MailProgram?

    /// What opening did with invitations an interrupted run had left queued.
    public private(set) var reconciledOnOpen = ReconcileReport()

    private let lease: SendLease
    private let lock = NSLock()
    private var trackerTask: Task<Void, Never>?
    private var feedTask: Task<Void, Never>?
    private var feedSubscription: EventSubscription?
    private var platformTask: Task<Void, Never>?
    private var link: PlatformLink?

    /// How the link to a remote platform stands now; nil on the embedded platform or before the first try.
    public var platformLink: PlatformLink? { lock.withLock { link } }
    private let removeOnClose: Bool

    private init(dataDirectory: URL, config: WorkspaceConfig, clock: any HeraldClock, database: HeraldDatabase,
                 connection: PlatformConnection, parser: PhoneNumberParser, lease: SendLease,
                 emailSender: EmailAddress?, removeOnClose: Bool) throws {
        self.dataDirectory = dataDirectory
        self.config = config
        self.clock = clock
        self.database = database
        self.connection = connection
        let credentials = connection.credentials
        self.parser = parser
        self.removeOnClose = removeOnClose
        self.lease = lease
        let platform = PlatformClient(credentials: credentials, transport: connection.transport)
        self.platform = platform
        let bus = EventBus()
        self.bus = bus
        contacts = ContactStore(database: database, clock: clock)
        ledger = LedgerStore(database: database, clock: clock, sentBy: config.senderName ?? NSUserName())
        settings = SettingsStore(database: database)
        templates = TemplateService(platform: platform, cache: TemplateCacheStore(database: database),
                                    applicationKey: credentials.applicationKey, clock: clock, settings: settings)
        invites = InviteService(platform: platform, ledger: ledger, contacts: contacts, templates: templates,
                                lease: lease, bus: bus, parser: parser,
                                settings: InviteSettings(sender: config.sender, senderName: config.senderName,
                                                         messageKey: config.messageKey,
                                                         firstPollDelay: config.tracker.interval,
                                                         retry: config.sendRetry, allMobiles: config.inviteAllMobiles,
                                                         requireSenderName: config.requireSenderName,
                                                         holdSeconds: config.holdSeconds, quietHours: config.quietHours,
                                                         maxPerDay: config.maxPerDay, emailFrom: config.emailFrom,
                                                         prices: config.prices, confirmAbove: config.confirmAbove),
                                clock: clock, names: settings, readOnlyReason: config.readOnlyReason ?? connection.readOnlyReason)
        tracker = DeliveryTracker(platform: platform, ledger: ledger, bus: bus, clock: clock, settings: config.tracker)
        feed = ChangeFeed(ledger: ledger, bus: bus, interval: config.feedInterval)
        inbox = InboxService(platform: platform, cache: InboxCacheStore(database: database), bus: bus,
                             auth: config.inboxAuth(applicationCode: credentials.applicationCode), clock: clock,
                             readOnlyReason: config.readOnlyReason ?? connection.readOnlyReason)
        conversations = ConversationService(platform: platform, contacts: contacts, ledger: ledger, invites: invites, bus: bus,
                                            parser: parser, sender: config.sender,
                                            readOnlyReason: config.readOnlyReason ?? connection.readOnlyReason)
        suggestions = SuggestionService(contacts: contacts, ledger: ledger, history: SuggestionHistoryStore(database: database),
                                        owner: RankingOwner(email: config.ownerEmail, region: parser.defaultRegion), clock: clock)
        books = BookSyncer(books: AddressBooks(database: database, parser: parser, clock: clock), bus: bus, clock: clock)
        self.emailSender = emailSender
        if case .server = connection.kind { mailProgram = nil } else { mailProgram = MailProgram(command: config.emailCommand) }
        share = ShareService(platform: platform)
    }

    /// Opens the workspace of `dataDirectory` (created when missing) on the platform `platform` connects
    /// to: store, credentials (kept in the client's settings), services; then reconciles invitations an
    /// earlier run left queued.
    public static func open(dataDirectory: URL, platform: any PlatformConnector, config: WorkspaceConfig = WorkspaceConfig(),
                            clock: any HeraldClock = SystemClock()) async throws -> Workspace {
        try await open(dataDirectory: dataDirectory, platform: platform, config: config, clock: clock, removeOnClose: false)
    }

    static func open(dataDirectory: URL, platform connector: any PlatformConnector, config: WorkspaceConfig,
                     clock: any HeraldClock, removeOnClose: Bool) async throws -> Workspace {
        // A sender that is set but unusable is said at once, not taken for "no email sender".
        let emailSender = try config.emailFrom.map { try EmailAddress(mailbox: $0, field: "email_from") }
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw WorkspaceError.cannotCreate(dataDirectory.path, error.localizedDescription)
        }
        let parser: PhoneNumberParser
        do { parser = try PhoneNumberParser(defaultRegion: config.region) } catch {
            throw WorkspaceError.region(String(describing: error))
        }
        let database: HeraldDatabase
        do { database = try HeraldDatabase.open(inDirectory: dataDirectory) } catch {
            throw WorkspaceError.store(StorageFailure.message(for: error) ?? String(describing: error))
        }
        do { try AddressBooks(database: database, parser: parser, clock: clock).register(config.books) } catch {
            throw WorkspaceError.store("cannot record the address books of the config: \(StorageFailure.message(for: error) ?? String(describing: error))")
        }
        let connection = try await connector.connect(dataDirectory: dataDirectory,
                                                     saved: savedCredentials(SettingsStore(database: database)), clock: clock)
        let lease: SendLease
        do { lease = try SendLease.take(for: database) } catch {
            throw WorkspaceError.store("cannot take a send lease in \(dataDirectory.path): \(error)")
        }
        lease.sweep()
        let workspace = try Workspace(dataDirectory: dataDirectory, config: config, clock: clock, database: database,
                                      connection: connection, parser: parser, lease: lease,
                                      emailSender: emailSender, removeOnClose: removeOnClose)
        workspace.reconciledOnOpen = await workspace.invites.reconcileQueued()
        await workspace.inbox.drainSeenOutbox()
        return workspace
    }

    /// The application credentials kept in the client's settings.
    static func savedCredentials(_ settings: SettingsStore) -> SavedCredentials {
        SavedCredentials(load: {
            guard let key = try settings.string(keyApplication), let secret = try settings.string(keySecret),
                  let code = try settings.string(keyCode) else { return nil }
            return PlatformCredentials(applicationKey: key, applicationSecret: secret, applicationCode: code)
        }, save: { credentials in
            try settings.set(keyApplication, credentials.applicationKey)
            try settings.set(keySecret, credentials.applicationSecret)
            try settings.set(keyCode, credentials.applicationCode)
        })
    }

    // MARK: background work

    /// Starts the delivery tracker's loop (once); it runs until `stopTracking()` or `close()`.
    public func startTracking() {
        lock.withLock {
            guard trackerTask == nil else { return }
            let tracker = self.tracker
            // With the change feed running, the tracker is nudged when the ledger moves and otherwise
            // sleeps until its next pass (a slow rescan stays as a safety net).
            let following = feedTask != nil
            trackerTask = Task.detached { await tracker.run(rescanEvery: following ? 30 : nil) }
        }
    }

    /// Starts following the change feed (once): `.ledgerChanged` and `.contactsChanged` are published
    /// on the bus until `close()`. The feed starts from the store as it is now.
    public func startFeed() async throws {
        try await feed.start()
        lock.withLock {
            guard feedTask == nil else { return }
            let feed = self.feed, tracker = self.tracker
            feedTask = Task.detached { await feed.run() }
            feedSubscription = bus.subscribe { event in
                if case .ledgerChanged = event { tracker.nudge() }
            }
        }
        followPlatform()
    }

    /// Follows the platform's own event stream when it has one (a Herald server): delivery states of this
    /// workspace's bulks are stored as they are pushed (the change feed shows them), the link's state goes
    /// on the bus, and after missed events the tracker polls again.
    private func followPlatform() {
        guard let source = connection.events else { return }
        lock.withLock {
            guard platformTask == nil else { return }
            let tracker = self.tracker, bus = self.bus, settings = self.settings, invites = self.invites
            let conversations = self.conversations
            let log = Logger(label: "herald.workspace")
            var after: Int64?
            do { after = try settings.string(Self.keyLastEvent).flatMap { Int64($0) } } catch {
                log.warning("cannot read where the event stream stopped; reading every event kept", metadata: ["cause": "\(logCause(error))"])
            }
            platformTask = Task.detached { [after] in
                await source.follow(after: after) { update in
                    switch update {
                    case .event(let event, let id):
                        switch event {
                        case .deliveryChanged(let bulkId, let infos, _, let text, let sentBy):
                            await tracker.applyPushed(infos, bulkId: bulkId, messageText: text, sentBy: sentBy)
                        case .inboxMessage(let user, _):
                            bus.publish(.inboxArrived(externalUserId: user))
                        case .replyReceived, .conversationSeen:
                            await conversations.apply(event)
                        default:
                            break
                        }
                        // Where to resume next time (this run resumes by itself).
                        if let id {
                            do { try settings.set(Self.keyLastEvent, String(id)) } catch {
                                log.warning("cannot keep the event stream's position", metadata: ["cause": "\(logCause(error))"])
                            }
                        }
                    case .reset:
                        tracker.nudge()
                    case .link(let state):
                        self.lock.withLock { self.link = PlatformLink(state) }
                        bus.publish(.platformLink(PlatformLink(state)))
                        if case .connected = state {
                            tracker.nudge()
                            // What this run queued while the platform was away goes now, not at the next start.
                            await Self.sendQueued(invites: invites, bus: bus)
                        }
                    }
                }
            }
        }
    }

    /// Sends what waits queued (the platform is back) and says so on the bus; the ledger's change shows in every pane.
    static func sendQueued(invites: InviteService, bus: EventBus) async {
        let report = await invites.reconcileQueued()
        if report.reconciled > 0 {
            bus.publish(.toast(level: .success, text: "back online: sent \(counted(report.reconciled, "invitation")) queued while the platform was away"))
        }
        if report.failed > 0 {
            bus.publish(.toast(level: .warning, text: "back online: \(counted(report.failed, "queued invitation")) failed; Deliveries says why"))
        }
    }

    /// Stops the tracker's loop.
    public func stopTracking() {
        let task = lock.withLock {
            defer { trackerTask = nil }
            return trackerTask
        }
        task?.cancel()
    }

    /// Stops background work and ends every event subscription; a demo workspace's folder is removed.
    public func close() {
        stopTracking()
        let books = self.books
        Task { await books.stopWatching() }
        lock.withLock { feedTask }?.cancel()
        lock.withLock { platformTask }?.cancel()
        lease.release()
        bus.close()
        if removeOnClose {
            do { try FileManager.default.removeItem(at: dataDirectory) } catch {
                Logger(label: "herald.workspace").warning("could not remove the throwaway data folder",
                                                          metadata: ["folder": "\(dataDirectory.path)", "cause": "\(logCause(error))"])
            }
        }
    }
}
