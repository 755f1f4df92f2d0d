import Foundation
import HeraldCore
import HeraldEngine
import HeraldStore

/// One data directory wired into a running client: the local store (`herald.sqlite`), the embedded
/// platform (`engine.sqlite`) with the sandbox application's credentials kept in the client's
/// settings, the event bus, and every service. The CLI and the terminal UI both start here.
public final class Workspace: @unchecked Sendable {
    public static let engineFileName = "engine.sqlite"
    /// Client settings holding the application's credentials.
    static let keyApplication = "platform.application_key"
    static let keySecret = "platform.application_secret"
    static let keyCode = "platform.application_code"

    public let dataDirectory: URL
    public let config: WorkspaceConfig
    public let clock: any HeraldClock
    public let database: HeraldDatabase
    public let engine: PlatformEngine
    public let credentials: PlatformCredentials
    public let platform: any MessagingPlatform
    public let bus: EventBus
    public let parser: PhoneNumberParser

    public let contacts: ContactStore
    public let ledger: LedgerStore
    public let settings: SettingsStore
    public let templates: TemplateService
    public let invites: InviteService
    public let tracker: DeliveryTracker
    /// What changed in the local store, from any process: the source of live screens and `herald watch`.
    public let feed: ChangeFeed
    public let inbox: InboxService
    public let suggestions: SuggestionService
    public let share: ShareService
    /// Sends email invitations from `config.emailFrom`; nil when no sender is configured.
    public let emailInviter: EmailInviter?

    /// What opening did with invitations an interrupted run had left queued.
    public private(set) var reconciledOnOpen = ReconcileReport()

    private let lease: SendLease
    private let lock = NSLock()
    private var trackerTask: Task<Void, Never>?
    private var feedTask: Task<Void, Never>?
    private var feedSubscription: EventSubscription?
    private let removeOnClose: Bool

    private init(dataDirectory: URL, config: WorkspaceConfig, clock: any HeraldClock, database: HeraldDatabase,
                 engine: PlatformEngine, credentials: PlatformCredentials, parser: PhoneNumberParser, lease: SendLease,
                 emailSender: EmailAddress?, removeOnClose: Bool) throws {
        self.dataDirectory = dataDirectory
        self.config = config
        self.clock = clock
        self.database = database
        self.engine = engine
        self.credentials = credentials
        self.parser = parser
        self.removeOnClose = removeOnClose
        self.lease = lease
        let platform = EmbeddedPlatform.client(engine: engine, credentials: credentials)
        self.platform = platform
        let bus = EventBus()
        self.bus = bus
        contacts = ContactStore(database: database, clock: clock)
        ledger = LedgerStore(database: database, clock: clock)
        settings = SettingsStore(database: database)
        templates = TemplateService(platform: platform, cache: TemplateCacheStore(database: database),
                                    applicationKey: credentials.applicationKey, clock: clock)
        invites = InviteService(platform: platform, ledger: ledger, contacts: contacts, templates: templates,
                                lease: lease, bus: bus, parser: parser,
                                settings: InviteSettings(sender: config.sender, senderName: config.senderName,
                                                         messageKey: config.messageKey,
                                                         firstPollDelay: config.tracker.interval,
                                                         retry: config.sendRetry),
                                clock: clock)
        tracker = DeliveryTracker(platform: platform, ledger: ledger, bus: bus, clock: clock, settings: config.tracker)
        feed = ChangeFeed(ledger: ledger, bus: bus, interval: config.feedInterval)
        inbox = InboxService(platform: platform, cache: InboxCacheStore(database: database), bus: bus,
                             auth: config.inboxAuth(applicationCode: credentials.applicationCode), clock: clock)
        suggestions = SuggestionService(contacts: contacts, ledger: ledger, history: SuggestionHistoryStore(database: database),
                                        owner: RankingOwner(email: config.ownerEmail, region: parser.defaultRegion), clock: clock)
        let inviter = emailSender.map { EmailInviter(sender: $0, command: config.emailCommand, clock: clock) }
        emailInviter = inviter
        share = ShareService(platform: platform, emailInviter: inviter)
    }

    /// Opens the workspace of `dataDirectory` (created when missing): store, engine, sandbox
    /// application (bootstrapped on first run; its credentials kept in the client's settings),
    /// services; then reconciles invitations an earlier run left queued.
    public static func open(dataDirectory: URL, config: WorkspaceConfig = WorkspaceConfig(),
                            clock: any HeraldClock = SystemClock()) async throws -> Workspace {
        try await open(dataDirectory: dataDirectory, config: config, clock: clock, removeOnClose: false)
    }

    static func open(dataDirectory: URL, config: WorkspaceConfig, clock: any HeraldClock,
                     removeOnClose: Bool) async throws -> Workspace {
        // A sender that is set but unusable is said at once, not taken for "no email sender".
        let emailSender = try config.emailFrom.map { try EmailAddress($0, field: "email_from") }
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
        let engine: PlatformEngine
        do {
            engine = try PlatformEngine.open(at: dataDirectory.appendingPathComponent(engineFileName), clock: clock,
                                             config: config.engine)
        } catch {
            throw WorkspaceError.engine(engineFailure(error))
        }
        let credentials = try await sandboxCredentials(engine: engine, settings: SettingsStore(database: database))
        let lease: SendLease
        do { lease = try SendLease.take(for: database) } catch {
            throw WorkspaceError.store("cannot take a send lease in \(dataDirectory.path): \(error)")
        }
        lease.sweep()
        let workspace = try Workspace(dataDirectory: dataDirectory, config: config, clock: clock, database: database,
                                      engine: engine, credentials: credentials, parser: parser, lease: lease,
                                      emailSender: emailSender, removeOnClose: removeOnClose)
        workspace.reconciledOnOpen = await workspace.invites.reconcileQueued()
        await workspace.inbox.drainSeenOutbox()
        return workspace
    }

    /// The credentials kept in the client's settings when the engine still knows them; otherwise the
    /// sandbox application's (bootstrapped on first run), saved for next time.
    static func sandboxCredentials(engine: PlatformEngine, settings: SettingsStore) async throws -> PlatformCredentials {
        if let key = try settings.string(keyApplication), let secret = try settings.string(keySecret),
           let code = try settings.string(keyCode) {
            // A failed read is not "unknown application": the saved credentials would be replaced.
            let known: ApplicationCredentials?
            do { known = try await engine.credentials(applicationKey: key) } catch {
                throw WorkspaceError.engine("cannot read the sandbox application: \(engineFailure(error))")
            }
            if let known, known.secret == secret, known.applicationCode == code {
                return PlatformCredentials(applicationKey: key, applicationSecret: secret, applicationCode: code)
            }
        }
        let app: ApplicationCredentials
        do { app = try await engine.bootstrapSandbox() } catch {
            throw WorkspaceError.engine(engineFailure(error))
        }
        try settings.set(keyApplication, app.applicationKey)
        try settings.set(keySecret, app.secret)
        try settings.set(keyCode, app.applicationCode)
        return PlatformCredentials(applicationKey: app.applicationKey, applicationSecret: app.secret,
                                   applicationCode: app.applicationCode)
    }

    /// What an engine failure means for people: a storage error in plain words (never SQL text).
    static func engineFailure(_ error: any Error) -> String {
        StorageFailure.message(for: error) ?? String(describing: error)
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
            trackerTask = Task { await tracker.run(rescanEvery: following ? 30 : nil) }
        }
    }

    /// Starts following the change feed (once): `.ledgerChanged` and `.contactsChanged` are published
    /// on the bus until `close()`. The feed starts from the store as it is now.
    public func startFeed() async throws {
        try await feed.start()
        lock.withLock {
            guard feedTask == nil else { return }
            let feed = self.feed, tracker = self.tracker
            feedTask = Task { await feed.run() }
            feedSubscription = bus.subscribe { event in
                if case .ledgerChanged = event { tracker.nudge() }
            }
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
        lock.withLock { feedTask }?.cancel()
        lease.release()
        bus.close()
        if removeOnClose { try? FileManager.default.removeItem(at: dataDirectory) }
    }
}
