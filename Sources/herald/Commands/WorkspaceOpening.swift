import ArgumentParser
import Foundation
import HeraldCardDAV
import HeraldCore
import HeraldEmbedded
import HeraldEngine
import HeraldHTTP
import HeraldInfobip
import HeraldServices

/// What opening a workspace needs: the configuration and the platform to connect it to.
struct WorkspaceSetup {
    var config: WorkspaceConfig
    var platform: any PlatformConnector
    /// How to reach the CardDAV books of `[[books]]`, by name.
    var bookAccounts: [String: CardDAVAccount] = [:]
}

extension GlobalOptions {
    /// The workspace configuration and platform from config.toml and the environment
    /// (`HERALD_SANDBOX_TIME_SCALE`, `HERALD_INBOX_JWT_KEY_ID`, `HERALD_INBOX_JWT_SECRET`, `HERALD_HOLD_SECONDS`,
    /// `HERALD_CARRIER_LOG`).
    /// `config`: the file already read (nil: read it now, its warnings printed).
    func workspaceSetup(config read: HeraldConfig? = nil,
                        environment: [String: String] = ProcessInfo.processInfo.environment) throws -> WorkspaceSetup {
        let config = try read ?? self.config()
        var engine = EngineConfig()
        do {
            if let scale = try EngineConfig.timeScale(fromEnvironment: environment) ?? config.timeScale { engine.timeScale = scale }
            engine.faults = try FaultPlan.fromEnvironment(environment)
            // Every hand-over to the simulated carrier, one line each (what tests count to prove "never twice").
            engine.handOverLog = environment["HERALD_CARRIER_LOG"].flatMap { $0.isEmpty ? nil : $0 }
            engine.extraStopWords = Set(config.stopWords ?? [])
        } catch {
            throw Output.failure("\(error)")
        }
        let region = config.region ?? PhoneNumberParser.regionFromEnvironment(environment)
        // The simulated carrier runs `timeScale` times faster; polling keeps pace with it.
        let tracker = TrackerSettings(interval: max(0.25, 8 / engine.timeScale))
        let keyId = environment["HERALD_INBOX_JWT_KEY_ID"].flatMap { $0.isEmpty ? nil : $0 } ?? config.inboxJWTKeyId
        let secret = environment["HERALD_INBOX_JWT_SECRET"].flatMap { $0.isEmpty ? nil : $0 } ?? config.inboxJWTSecret
        var emailCommand = MailProgram.defaultCommand
        if let text = config.emailCommand {
            do { emailCommand = try ExternalCommand(parsing: text) } catch {
                throw Output.failure("share.email_command \"\(Output.safe(text))\" cannot be used: \(error)")
            }
        }
        var workspace = WorkspaceConfig(region: region, sender: config.sender ?? "Herald",
                                        senderName: Self.nonEmpty(environment["HERALD_SENDER_NAME"]) ?? config.senderName
                                            ?? Self.defaultSenderName(environment),
                                        signature: config.signature, tracker: tracker,
                                        inboxJWTKeyId: keyId, inboxJWTSecretHex: secret, ownerEmail: config.ownerEmail,
                                        emailFrom: config.emailFrom, emailCommand: emailCommand)
        workspace.inviteAllMobiles = config.inviteAllMobiles
        engine.localActor = workspace.senderName     // who the audit trail names for what this terminal does
        workspace.holdSeconds = try Self.holdSeconds(config: config, environment: environment)
        workspace.quietHours = config.quietHours
        workspace.maxPerDay = config.maxPerDay
        workspace.prices = config.prices
        workspace.confirmAbove = config.confirmAbove
        workspace.books = config.books
        workspace.requireSenderName = true
        if try isReadOnly(config: config, environment: environment) { workspace.readOnlyReason = ReadOnlyMode.reason }
        if let text = config.clipboardCommand {
            do { workspace.clipboardCommand = try ExternalCommand(parsing: text) } catch {
                throw Output.failure("share.clipboard_command \"\(Output.safe(text))\" cannot be used: \(error)")
            }
        }
        let server = try Self.platform(config: config, environment: environment, configFile: paths.configFile)
        if try Self.wantsInfobip(config: config, environment: environment) {
            if server != nil {
                throw Output.failure("both a Herald server ([platform] url) and Infobip ([platform] kind) are set: keep one")
            }
            let settings = try Self.infobipSettings(config: config, environment: environment, configFile: paths.configFile)
            return WorkspaceSetup(config: workspace, platform: InfobipPlatform(settings: settings, engine: engine,
                                                                               mailProgram: MailProgram(command: emailCommand)),
                                  bookAccounts: config.bookAccounts)
        }
        return WorkspaceSetup(config: workspace, platform: server ?? EmbeddedPlatform(config: engine, mailProgram: MailProgram(command: emailCommand)),
                              bookAccounts: config.bookAccounts)
    }

    /// The undo window: `HERALD_HOLD_SECONDS`, else `[send] hold_seconds`, else 10 seconds.
    static func holdSeconds(config: HeraldConfig, environment: [String: String]) throws -> TimeInterval {
        try config.number(\.holdSeconds, environment: environment) ?? 10
    }

    /// The Herald server to use, from `HERALD_PLATFORM_URL`/`HERALD_PLATFORM_KEY` or `[platform] url` and
    /// `api_key`/`api_key_file`; nil when none is set (the embedded platform).
    static func platform(config: HeraldConfig, environment: [String: String], configFile: URL) throws -> ServerPlatform? {
        guard let text = nonEmpty(environment["HERALD_PLATFORM_URL"]) ?? nonEmpty(config.platformURL) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw Output.failure("the platform URL \"\(Output.safe(text))\" is not an http(s) URL such as http://127.0.0.1:8080")
        }
        var key = nonEmpty(environment["HERALD_PLATFORM_KEY"])
        if key == nil, let inline = nonEmpty(config.platformKey) {
            key = inline
            warnIfOthersCanRead(configFile, holding: "the platform key")
        }
        if key == nil, let file = nonEmpty(config.platformKeyFile) {
            let path = (file as NSString).expandingTildeInPath
            do { key = nonEmpty(try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) } catch {
                throw Output.failure("cannot read platform.api_key_file \(Output.safe(path)): \(error.localizedDescription)")
            }
        }
        guard let key else {
            throw Output.failure("a platform URL is set but no key: set HERALD_PLATFORM_KEY or [platform] api_key (make one with `herald serve keys create`)")
        }
        if ServerTrust.sendsKeysInCleartext(url) {
            Output.warn("the platform key goes to \(Output.safe(text)) over plain http: anyone on the way can read it; use https")
        }
        let caFile = (nonEmpty(environment["HERALD_PLATFORM_CA_FILE"]) ?? nonEmpty(config.platformCAFile)).map {
            ($0 as NSString).expandingTildeInPath
        }
        return ServerPlatform(url: url, key: key, caFile: caFile)
    }

    /// `{SENDER_NAME}` when config sets none: the login name, capitalised ("ana" → "Ana").
    static func defaultSenderName(_ environment: [String: String]) -> String? {
        guard let user = environment["USER"] ?? environment["LOGNAME"], !user.isEmpty, user != "root" else { return nil }
        return user.prefix(1).uppercased() + user.dropFirst()
    }

    /// Opens the workspace of the data folder; errors become a message on stderr and exit 1.
    func openWorkspace() async throws -> Workspace {
        let setup = try workspaceSetup()
        PrivateFiles.warnIfLoose(paths.dataDirectory)
        do {
            let ws = try await Workspace.open(dataDirectory: paths.dataDirectory, platform: setup.platform, config: setup.config)
            if !ws.reconciledOnOpen.isEmpty { Output.note(ws.reconciledOnOpen.summary) }
            return ws
        } catch let error as UserFacingError {
            throw Output.failure(error.userMessage)
        } catch {
            throw Output.failure("cannot open the workspace in \(paths.dataDirectory.path): \(error)")
        }
    }
}

extension Output {
    /// The failure for any service error: its user-facing message.
    static func failure(for error: any Error) -> ExitCode {
        failure(userMessage(for: error))
    }

    /// A time given as ISO 8601 ("2026-01-31T12:00:00Z", or a date "2026-01-31") or as epoch milliseconds.
    static func parseTime(_ text: String, option: String) throws -> Date {
        let t = text.trimmingCharacters(in: .whitespaces)
        if !t.isEmpty, t.allSatisfy(\.isNumber), let ms = Int64(t) { return Date(epochMilliseconds: ms) }
        let full = ISO8601DateFormatter()
        if let d = full.date(from: t) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = fractional.date(from: t) { return d }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        if let d = day.date(from: t) { return d }
        throw failure("\(option) \"\(safe(text))\" is not a time: use ISO 8601 (2026-01-31T12:00:00Z) or epoch milliseconds")
    }

    /// ISO 8601 in UTC with milliseconds.
    static func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}
