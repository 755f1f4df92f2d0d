import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldServices

/// The embedded platform: the engine in this process, on `engine.sqlite` in the data folder, acting as
/// the sandbox application (created on first run; its credentials kept in the client's settings).
public struct EmbeddedPlatform: PlatformConnector {
    public static let engineFileName = "engine.sqlite"

    public var config: EngineConfig
    /// Where the engine hands email invitations.
    public var mailProgram: MailProgram

    public init(config: EngineConfig = EngineConfig(), mailProgram: MailProgram = MailProgram()) {
        self.config = config
        self.mailProgram = mailProgram
    }

    public func connect(dataDirectory: URL, saved: SavedCredentials, clock: any HeraldClock) async throws -> PlatformConnection {
        let engine: PlatformEngine
        do {
            engine = try PlatformEngine.open(at: dataDirectory.appendingPathComponent(Self.engineFileName), clock: clock,
                                             config: config, mailer: ProgramMailer(program: mailProgram))
        } catch {
            throw WorkspaceError.platform("cannot start the embedded platform: \(Self.failure(error))")
        }
        let credentials = try await Self.sandboxCredentials(engine: engine, saved: saved)
        // Replies stored from here on reach a running screen, even before it starts following them.
        var newestEvent: Int64?
        do { newestEvent = try await engine.eventRange(applicationKey: credentials.applicationKey).newest } catch {
            // Following then starts from the newest event when it starts.
            EmbeddedEventSource.log.warning("could not read where the engine's events stand",
                                            metadata: ["cause": "\(Self.failure(error))"])
        }
        return PlatformConnection(kind: .embedded, transport: EmbeddedTransport(engine: engine), credentials: credentials,
                                  sandbox: EmbeddedSandbox(engine: engine, applicationKey: credentials.applicationKey),
                                  events: EmbeddedEventSource(engine: engine, applicationKey: credentials.applicationKey, start: newestEvent),
                                  linkExample: engine.config.linkExample)
    }

    /// A client of `engine` acting as the application `credentials` names.
    public static func client(engine: PlatformEngine, credentials: PlatformCredentials) -> PlatformClient {
        PlatformClient(credentials: credentials, transport: EmbeddedTransport(engine: engine))
    }

    /// The saved credentials when the engine still knows them; otherwise the sandbox application's
    /// (bootstrapped on first run), saved for next time.
    public static func sandboxCredentials(engine: PlatformEngine, saved: SavedCredentials) async throws -> PlatformCredentials {
        if let kept = try saved.credentials() {
            // A failed read is not "unknown application": the saved credentials would be replaced.
            let known: ApplicationCredentials?
            do { known = try await engine.credentials(applicationKey: kept.applicationKey) } catch {
                throw WorkspaceError.platform("cannot read the sandbox application: \(failure(error))")
            }
            if let known, known.secret == kept.applicationSecret, known.applicationCode == kept.applicationCode {
                return kept
            }
        }
        let app: ApplicationCredentials
        do { app = try await engine.bootstrapSandbox() } catch {
            throw WorkspaceError.platform("cannot start the embedded platform: \(failure(error))")
        }
        let credentials = PlatformCredentials(applicationKey: app.applicationKey, applicationSecret: app.secret,
                                              applicationCode: app.applicationCode)
        try saved.keep(credentials)
        return credentials
    }

    /// An engine failure in plain words (never SQL text).
    static func failure(_ error: any Error) -> String {
        PlatformEngine.failureText(error)
    }
}

/// The operator's side of the embedded engine: the demo inbox and messages pushed by hand.
struct EmbeddedSandbox: SandboxOperator {
    let engine: PlatformEngine
    let applicationKey: String

    func seedDemoInbox(user: String) async throws -> Int {
        try await engine.seedDemo(user: user, applicationKey: applicationKey)
    }

    func pushInbox(user: String, topic: String?, title: String?, body: String) async throws -> InboxMessage {
        try await engine.pushInbox(user: user, topic: topic, title: title, body: body, applicationKey: applicationKey)
    }

    func receiveReply(from: String, text: String) async throws -> OptOut? {
        try await engine.receiveReply(applicationKey: applicationKey, from: from, text: text)
    }
}

extension Workspace {
    /// The engine of an embedded workspace; nil on any other platform.
    public var embeddedEngine: PlatformEngine? { (connection.sandbox as? EmbeddedSandbox)?.engine }
}

extension EmbeddedPlatform {
    /// A client of the engine's sandbox application (created on first use).
    public static func sandboxClient(engine: PlatformEngine) async throws -> PlatformClient {
        let app = try await engine.bootstrapSandbox()
        return client(engine: engine, credentials: PlatformCredentials(
            applicationKey: app.applicationKey, applicationSecret: app.secret, applicationCode: app.applicationCode))
    }
}

extension Workspace {
    /// Opens the workspace of `dataDirectory` on the embedded platform configured by `engine`.
    public static func open(dataDirectory: URL, config: WorkspaceConfig = WorkspaceConfig(),
                            engine: EngineConfig = EngineConfig(), clock: any HeraldClock = SystemClock()) async throws -> Workspace {
        try await open(dataDirectory: dataDirectory, platform: EmbeddedPlatform(config: engine, mailProgram: MailProgram(command: config.emailCommand)),
                       config: config, clock: clock)
    }

    /// A demo workspace (see `demo(directory:platform:…)`) on the embedded platform.
    public static func demo(directory: URL? = nil, config: WorkspaceConfig = WorkspaceConfig(),
                            engine: EngineConfig = EngineConfig(), seeder: DemoSeeder = DemoSeeder(),
                            clock: any HeraldClock = SystemClock()) async throws -> (Workspace, DemoReport) {
        try await demo(directory: directory, platform: EmbeddedPlatform(config: engine, mailProgram: MailProgram(command: config.emailCommand)),
                       config: config, seeder: seeder,
                       clock: clock)
    }
}
