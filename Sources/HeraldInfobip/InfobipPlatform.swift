import Foundation
import HeraldAPI
import HeraldCore
import HeraldEmbedded
import HeraldEngine
import HeraldServices

/// An Infobip account as the platform. The engine runs in this process on its own file
/// (`infobip-engine.sqlite`: templates, settings, bulks and the statuses Infobip reported) with Infobip's SMS
/// API as its carrier; the inbox is read from Infobip Mobile Messaging. Every command and pane works as on
/// the embedded platform, except pushing demo inbox messages (Infobip's inbox is written by Infobip).
public struct InfobipPlatform: PlatformConnector {
    public static let engineFileName = "infobip-engine.sqlite"
    /// Keeps a Mobile Messaging base URL Infobip moved the application to (`New-Base-URL`).
    public static let mobileBaseURLFileName = "infobip-mobile-base-url"

    public var settings: InfobipSettings
    public var engine: EngineConfig
    /// Where the engine hands email invitations (Infobip carries the SMS only).
    public var mailProgram: MailProgram

    public init(settings: InfobipSettings, engine: EngineConfig = EngineConfig(), mailProgram: MailProgram = MailProgram()) {
        self.mailProgram = mailProgram
        self.settings = settings
        var engine = engine
        engine.plainLink = settings.link
        // Reports come from Infobip's logs, one call for every bulk that has some due.
        engine.collectReportsOnRead = true
        engine.collectAcrossBulksOnRead = true
        self.engine = engine
    }

    public func connect(dataDirectory: URL, saved: SavedCredentials, clock: any HeraldClock) async throws -> PlatformConnection {
        let engine: PlatformEngine
        do {
            engine = try PlatformEngine.open(at: dataDirectory.appendingPathComponent(Self.engineFileName), clock: clock,
                                             config: self.engine, carrier: InfobipCarrier(settings: settings),
                                             mailer: ProgramMailer(program: mailProgram))
        } catch {
            throw WorkspaceError.platform("cannot start the Infobip platform: \(PlatformEngine.failureText(error))")
        }
        var credentials = try await EmbeddedPlatform.sandboxCredentials(engine: engine, saved: saved)
        // Inbox reads name the Mobile Messaging application, not the local one.
        credentials.applicationCode = settings.applicationCode ?? ""
        let mobile = MobileMessagingTransport(baseURL: settings.mobileBaseURL, applicationCode: settings.applicationCode,
                                              memory: dataDirectory.appendingPathComponent(Self.mobileBaseURLFileName))
        return PlatformConnection(kind: .infobip(settings.baseURL),
                                  transport: InfobipTransport(local: EmbeddedTransport(engine: engine), mobile: mobile),
                                  credentials: credentials,
                                  events: InfobipEventSource(engine: engine, applicationKey: credentials.applicationKey),
                                  linkExample: engine.config.linkExample)
    }
}
