import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldEnginePostgres
import HeraldInfobip
import HeraldServer
import HeraldSMTP

/// `herald serve`: the platform for a team, over HTTP.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the platform as a server that many terminals use.",
        discussion: """
            Terminals reach it with [platform] url and api_key in their config (or HERALD_PLATFORM_URL and \
            HERALD_PLATFORM_KEY). Make keys with `herald serve keys create --role sender`.
            """,
        subcommands: [ServeRun.self, ServeKeys.self, ServeReply.self], defaultSubcommand: ServeRun.self)
}

/// Where the server keeps its data.
struct ServerDatabaseOption: ParsableArguments {
    @Option(name: .customLong("database"), help: ArgumentHelp(
        "sqlite:PATH (default: engine.sqlite in the data folder), or postgres://user@host:port/database for replicas.",
        valueName: "url"))
    var database: String?

    @OptionGroup var global: GlobalOptions

    /// Opens the engine the server runs on: `carrier` delivers (nil: the simulated one); `shortLinkBase` starts every
    /// short link (nil: the made-up default); `plainLink` replaces them; `mailer` sends email invitations (nil: none).
    /// `heraldConfig` is config.toml when the caller read it already (nil: read here).
    func openEngine(collectReportsOnRead: Bool, carrier: (any Carrier)? = nil, mailer: (any Mailer)? = nil,
                    shortLinkBase: String? = nil, plainLink: String? = nil,
                    heraldConfig: HeraldConfig? = nil, tuning: (inout EngineConfig) -> Void = { _ in }) async throws -> PlatformEngine {
        var config = EngineConfig()
        tuning(&config)
        if let shortLinkBase { config.shortLinkBase = shortLinkBase }
        config.plainLink = plainLink
        let environment = ProcessInfo.processInfo.environment
        do {
            if let scale = try EngineConfig.timeScale(fromEnvironment: environment) { config.timeScale = scale }
            config.faults = try FaultPlan.fromEnvironment(environment)
        } catch {
            throw Output.failure("\(error)")
        }
        config.collectReportsOnRead = collectReportsOnRead
        config.handOverOnSend = false       // only the carrier lease's holder talks to the carrier
        config.handOverLog = environment["HERALD_CARRIER_LOG"].flatMap { $0.isEmpty ? nil : $0 }
        config.extraStopWords = Set(try (heraldConfig ?? global.config()).stopWords ?? [])
        if let database, Self.isPostgres(database) {
            let shown = (try? PostgresLocation(parsing: database).description) ?? "the PostgreSQL database"
            do {
                return try PlatformEngine.open(store: try await PostgresEngineStore.open(url: database), config: config, carrier: carrier,
                                               mailer: mailer)
            } catch {
                throw Output.failure("cannot open the server's database \(shown): \(PlatformEngine.failureText(error))")
            }
        }
        let url = try Self.sqlitePath(database, dataDirectory: global.paths.dataDirectory)
        PrivateFiles.warnIfLoose(url.deletingLastPathComponent())
        do { return try PlatformEngine.open(at: url, config: config, carrier: carrier, mailer: mailer) } catch {
            throw Output.failure("cannot open the server's database \(url.path): \(PlatformEngine.failureText(error))")
        }
    }

    static func isPostgres(_ option: String) -> Bool {
        option.hasPrefix("postgres://") || option.hasPrefix("postgresql://")
    }

    static func sqlitePath(_ option: String?, dataDirectory: URL) throws -> URL {
        guard let option, !option.isEmpty else { return dataDirectory.appendingPathComponent("engine.sqlite") }
        if option.hasPrefix("sqlite:") {
            let path = String(option.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw Output.failure("--database sqlite: needs a path, e.g. sqlite:/srv/herald/engine.sqlite") }
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        }
        throw Output.failure("--database \(Output.safe(option)) is not understood: use sqlite:PATH or postgres://user@host:port/database")
    }
}

struct ServeRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Serve (the default).")

    @Option(name: .customLong("listen"), help: ArgumentHelp("Address to listen on (port 0: any free port).", valueName: "host:port"))
    var listen = "127.0.0.1:8080"

    @Option(name: .customLong("messaging-version"), help: ArgumentHelp(
        "Messaging feature version announced (2: event stream; 1: terminals short-poll).", valueName: "n"))
    var messagingVersion = 2

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("PEM certificate chain to serve HTTPS with (read again on SIGHUP).", valueName: "path"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("PEM private key of --tls-cert.", valueName: "path"))
    var tlsKey: String?

    @Option(name: .customLong("max-connections"), help: ArgumentHelp("Connections open at once; more are answered 503.", valueName: "n"))
    var maxConnections = 4096

    @Option(name: .customLong("max-connections-per-address"), help: ArgumentHelp(
        "Connections one client address (an IPv6 /64) may hold; more are answered 429 (default: a quarter of --max-connections; "
            + "behind a reverse proxy every client has the proxy's address: give --max-connections).", valueName: "n"))
    var maxConnectionsPerAddress: Int?

    @Option(name: .customLong("max-streams-per-key"), help: ArgumentHelp(
        "Event streams one key may hold open (one per terminal); more are answered 429.", valueName: "n"))
    var maxStreamsPerKey = 64

    @Option(name: .customLong("inbox-auth"), help: ArgumentHelp(
        "token: an inbox opens with a user's JWT or a server key; app-code: also with the bare application code.", valueName: "mode"))
    var inboxAuth = InboxAuthPolicy.tokenOrKey.rawValue

    @Option(name: .customLong("metrics-role"), help: ArgumentHelp("Key role /metrics needs (viewer, sender, admin); default: none.", valueName: "role"))
    var metricsRole: String?

    @Option(name: .customLong("log-format"), help: ArgumentHelp(
        "text: log to the log file; json: one JSON line per request and event to stderr.", valueName: "format"))
    var logFormat = "text"

    @Option(name: .customLong("replica-id"), help: ArgumentHelp("Names this replica on every log line (default: the host name).", valueName: "name"))
    var replicaId: String?

    @Option(name: .customLong("carrier"), help: ArgumentHelp(
        "simulated, or infobip: real SMS through the [infobip] account of config.toml (HERALD_INFOBIP_* win).", valueName: "kind"))
    var carrier = "simulated"

    @Option(name: .customLong("public-url"), help: ArgumentHelp(
        "The address people reach this server at (https://invite.example.com): invitations' short links start with it.",
        valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("download-url"), help: ArgumentHelp(
        "The page an opened invitation or referral link leads to (your app's download or sign-up page).", valueName: "url"))
    var downloadURL: String?

    @Option(name: .customLong("emails-per-key-hour"), help: ArgumentHelp(
        "Email invitations one key may send in an hour (per replica); more are answered 429.", valueName: "n"))
    var emailsPerKeyPerHour = 500

    @Flag(name: .customLong("mask-numbers-for-viewers"), help: ArgumentHelp(
        "Viewer keys see phone numbers and email addresses masked (country code, first and last digits; an address's first letter and domain) in every answer and event; senders and admins see them whole."))
    var maskNumbersForViewers = false

    @OptionGroup var storage: ServerDatabaseOption

    func run() async throws {
        let options = try serverOptions()
        let linkBase = try publicURL.map { try GlobalOptions.httpURL($0, what: "--public-url").absoluteString }
            .map { ($0.hasSuffix("/") ? $0 : $0 + "/") + "r/" }
        let landing = try downloadURL.map { try GlobalOptions.httpURL($0, what: "--download-url").absoluteString }
        try Self.checkLinks(publicURL: linkBase, downloadURL: landing, realCarrier: carrier != "simulated")
        if let format = LogSink.Format(rawValue: logFormat), format == .json {
            FileLogging.sink?.redirectToStandardError(format: format, fields: [
                ("replica", options.replicaId), ("pid", String(ProcessInfo.processInfo.processIdentifier)),
            ])
        }
        // config.toml read once (its warnings said once) for the carrier, the mailer and the engine.
        let heraldConfig = try storage.global.config()
        let infobip = try infobipSettings(linkBase: linkBase, config: heraldConfig)
        let carrier = infobip.map { InfobipCarrier(settings: $0) }
        // Email invitations go out over `[smtp]`, from its `from` alone; without it the server refuses them, saying so.
        let mailer = try heraldConfig.smtp.map { SMTPMailer(settings: try $0.settings()) }
        let identity = try heraldConfig.smtp?.identity()
        guard (1...1_000_000).contains(emailsPerKeyPerHour) else {
            throw Output.failure("--emails-per-key-hour is a number from 1 to 1000000")
        }
        let engine = try await storage.openEngine(collectReportsOnRead: false, carrier: carrier, mailer: mailer,
                                                  shortLinkBase: linkBase, plainLink: linkBase == nil ? infobip?.link : nil,
                                                  heraldConfig: heraldConfig) { config in
            config.mailIdentity = identity
            config.emailsPerKeyPerHour = emailsPerKeyPerHour
            if let landing { config.downloadURL = landing }
        }
        if let carrier, let publicURL {
            // Infobip pushes delivery reports to this server at an address only this deployment knows.
            let base = try GlobalOptions.httpURL(publicURL, what: "--public-url")
            do {
                carrier.pushReports(to: try await engine.carrierReportsURL(under: base))
                // Received SMS are pushed only where the operator points the number's forward action (Infobip's portal).
                Output.note("Infobip's inbound SMS webhook (forward received SMS here): \(try await engine.carrierInboundURL(under: base))")
            } catch {
                throw Output.failure("cannot prepare the report webhook: \(PlatformEngine.failureText(error))")
            }
        }
        // Beside the start, not before it: an Infobip that does not answer must not keep the team's server from listening.
        if let infobip { Task { await Self.checkInfobip(infobip) } }
        do { _ = try await engine.bootstrapSandbox() } catch {
            throw Output.failure("cannot prepare the application: \(PlatformEngine.failureText(error))")
        }
        if options.tls == nil, !LoopbackHost.contains(options.host) {
            Output.warn("serving plain HTTP on \(options.host): keys travel in cleartext; give --tls-cert and --tls-key")
        }
        let server = HeraldServer(engine: engine, options: options)
        do {
            try await server.run { address in
                FileHandle.standardError.write(Data("listening on \(address)\n".utf8))
            }
        } catch let error as ServerTLSError {
            throw Output.failure("cannot serve HTTPS: \(error.description)")
        } catch {
            throw Output.failure("the server stopped: \(error)")
        }
    }

    /// Where links lead. People who open a short link land on `--download-url`; the links start with `--public-url`.
    /// Without them they lead to herald.invalid, nowhere: a server whose messages reach real phones (a real carrier,
    /// short links of its own) refuses to start so; a sandbox says it plainly.
    static func checkLinks(publicURL: String?, downloadURL: String?, realCarrier: Bool) throws {
        let nowhere = EngineConfig().downloadURL
        if realCarrier, publicURL != nil, downloadURL == nil {
            throw Output.failure("""
                people open this server's short links (--public-url): give --download-url, the page they land on \
                (without it they land on \(nowhere), nowhere)
                """)
        }
        if publicURL == nil {
            Output.warn("invitation and referral links start with \(EngineConfig().shortLinkBase) and lead nowhere: "
                        + "give --public-url (the address people reach this server at)")
        }
        if downloadURL == nil {
            Output.warn("an opened link leads to \(nowhere), nowhere: give --download-url (the page people land on)")
        }
    }

    /// The Infobip account that carries the messages (`--carrier infobip`), nil for the simulated carrier. Invitations
    /// need a link people can open: this server's short links (`--public-url`) or `[infobip] link`.
    func infobipSettings(linkBase: String?, config: HeraldConfig) throws -> InfobipSettings? {
        switch carrier {
        case "simulated": return nil
        case "infobip": break
        default: throw Output.failure("--carrier \(Output.safe(carrier)) is not understood: use simulated or infobip")
        }
        let global = storage.global
        var settings = try GlobalOptions.infobipSettings(config: config, environment: ProcessInfo.processInfo.environment,
                                                         configFile: global.paths.configFile, requireLink: false)
        // Delivery reports as Infobip means them: pushed to --public-url, else collected from its report queue.
        settings.reports = .reports
        if linkBase == nil, settings.link == nil {
            throw Output.failure("""
                with --carrier infobip, real people open the invitations' links: give --public-url (the address this server \
                is reached at; its short links start with it) or set [infobip] link (a page of your own)
                """)
        }
        return settings
    }

    /// Says at start what Infobip thinks of the key (sending and logs apart); the server starts either way, since
    /// Infobip may only be unreachable for now, and sends once it answers.
    static func checkInfobip(_ settings: InfobipSettings) async {
        for finding in await InfobipCheck.run(settings, inbox: false) where finding.subject.hasPrefix("SMS ") {
            if finding.ok {
                Output.note("carrier: Infobip \(finding.subject): \(finding.detail)")
            } else {
                Output.warn("carrier: Infobip \(finding.subject): \(finding.detail)\(finding.fix.map { "; \($0)" } ?? "")")
            }
        }
    }

    /// The options as given, each checked.
    func serverOptions() throws -> ServerOptions {
        let (host, port) = try Self.parseListen(listen)
        guard (1...2).contains(messagingVersion) else { throw Output.failure("--messaging-version is 1 or 2") }
        var options = ServerOptions(host: host, port: port, messagingVersion: messagingVersion)
        options.build = HeraldBuild.current
        options.maskNumbersForViewers = maskNumbersForViewers
        guard (1...1_000_000).contains(maxConnections) else { throw Output.failure("--max-connections is a number from 1 to 1000000") }
        options.maxConnections = maxConnections
        if let maxConnectionsPerAddress {
            guard (1...maxConnections).contains(maxConnectionsPerAddress) else {
                throw Output.failure("--max-connections-per-address is a number from 1 to --max-connections (\(maxConnections))")
            }
            options.maxConnectionsPerAddress = maxConnectionsPerAddress
        }
        guard (1...100_000).contains(maxStreamsPerKey) else { throw Output.failure("--max-streams-per-key is a number from 1 to 100000") }
        options.maxStreamsPerKey = maxStreamsPerKey
        guard let policy = InboxAuthPolicy(rawValue: inboxAuth) else {
            throw Output.failure("--inbox-auth \(Output.safe(inboxAuth)) is not understood: use token or app-code")
        }
        options.inboxAuth = policy
        if let metricsRole {
            guard let role = KeyRole(rawValue: metricsRole) else {
                throw Output.failure("--metrics-role \(Output.safe(metricsRole)) is not a role: use viewer, sender or admin")
            }
            options.metricsRole = role
        }
        guard LogSink.Format(rawValue: logFormat) != nil else { throw Output.failure("--log-format is text or json") }
        switch (tlsCertificate, tlsKey) {
        case (let cert?, let key?): options.tls = ServerTLSFiles(certificatePath: cert, keyPath: key)
        case (nil, nil): break
        default: throw Output.failure("--tls-cert and --tls-key go together")
        }
        if let replicaId {
            guard WireInput.identifierProblem(replicaId, maxLength: 100) == nil else {
                throw Output.failure("--replica-id has 1 to 100 characters and no control characters")
            }
            options.replicaId = replicaId
        }
        return options
    }

    static func parseListen(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw Output.failure("--listen \(Output.safe(text)) is not host:port (for example 127.0.0.1:8080, or :0 for any free port)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }
}

struct ServeKeys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Make, list and revoke the keys terminals use.",
        subcommands: [ServeKeysCreate.self, ServeKeysList.self, ServeKeysRevoke.self])
}

struct ServeKeysCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Make a key (printed once, only its hash is kept).")

    @Option(help: ArgumentHelp("admin, sender or viewer (support staff: reads and watches, sends nothing).", valueName: "role"))
    var role: String
    @Option(help: "A name to know the key by (default: the role and a number).") var name: String?
    @Option(name: .customLong("max-spend-per-day"), help: ArgumentHelp(
        "Refuse a send by this key that would take what it spent today (UTC: reported prices, else the server's estimates) past this amount.",
        valueName: "amount"))
    var maxSpendPerDay: Double?
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var storage: ServerDatabaseOption

    struct Made: Encodable { var key: String; var role: String; var name: String; var id: String; var maxSpendPerDay: Double? }

    func run() async throws {
        guard let role = KeyRole(rawValue: role.lowercased()) else {
            throw Output.failure("--role \(Output.safe(role)) is not a role: use admin, sender or viewer")
        }
        let engine = try await storage.openEngine(collectReportsOnRead: false)
        do {
            var name = self.name ?? ""
            if name.isEmpty { name = "\(role.rawValue)-\(try await engine.serverKeys().count + 1)" }
            let (key, info) = try await engine.createServerKey(role: role, name: name, maxSpendPerDay: maxSpendPerDay)
            if json {
                try Output.printJSON(Made(key: key, role: info.role.rawValue, name: info.name, id: info.id,
                                          maxSpendPerDay: info.maxSpendPerDay))
            } else {
                print(key)
                Output.note("key \(info.id) \"\(Output.safe(info.name))\" (\(info.role.rawValue)) made; it is shown only now")
            }
        } catch let error as EngineError {
            throw Output.failure(error.description)
        } catch {
            throw Output.failure("cannot make the key: \(PlatformEngine.failureText(error))")
        }
    }
}

struct ServeKeysList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List keys (never the keys themselves).")
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var storage: ServerDatabaseOption

    struct Listed: Encodable {
        var id: String; var name: String; var role: String; var createdAt: String; var revokedAt: String?
        /// `--max-spend-per-day`; absent when the key has no cap.
        var maxSpendPerDay: Double?
    }

    func run() async throws {
        let engine = try await storage.openEngine(collectReportsOnRead: false)
        let keys: [ServerKeyInfo]
        do { keys = try await engine.serverKeys() } catch {
            throw Output.failure("cannot read the keys: \(PlatformEngine.failureText(error))")
        }
        let listed = keys.map { Listed(id: $0.id, name: $0.name, role: $0.role.rawValue, createdAt: Output.iso($0.createdAt),
                                       revokedAt: $0.revokedAt.map(Output.iso), maxSpendPerDay: $0.maxSpendPerDay) }
        if json { try Output.printJSON(listed); return }
        if listed.isEmpty { Output.note("no keys yet: herald serve keys create --role sender"); return }
        for k in listed {
            print("\(k.id)  \(k.role.padding(toLength: 7, withPad: " ", startingAt: 0))  \(Output.safe(k.name))  made \(k.createdAt)"
                  + (k.maxSpendPerDay.map { "  spends at most \(PlatformEngine.amount($0)) a day" } ?? "")
                  + (k.revokedAt.map { "  revoked \($0)" } ?? ""))
        }
    }
}

struct ServeKeysRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a key by id or name (at once, on every replica).")
    @Argument(help: "The key's id or name.") var key: String
    @OptionGroup var storage: ServerDatabaseOption

    func run() async throws {
        let engine = try await storage.openEngine(collectReportsOnRead: false)
        let revoked: ServerKeyInfo?
        do { revoked = try await engine.revokeServerKey(key) } catch {
            throw Output.failure("cannot revoke the key: \(PlatformEngine.failureText(error))")
        }
        guard let revoked else { throw Output.failure("no live key with id or name \(Output.safe(key)): see herald serve keys list") }
        Output.note("revoked key \(revoked.id) \"\(Output.safe(revoked.name))\"")
    }
}

/// `herald serve reply --from NUMBER --text TEXT`: the server's simulated carrier receives an SMS reply (on the server's
/// database, beside a running server); one that says stop opts the number out for the whole team.
struct ServeReply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply", abstract: "Receive an SMS reply from a number: kept in its conversation (STOP also opts it out for the team).")
    @Option(help: "The number the reply comes from (E.164).") var from: String
    @Option(help: "What it says.") var text: String
    @Option(name: .customLong("message-id"), help: "The carrier's id of the reply: a reply is kept once under it (default: a fresh id).")
    var messageId: String?
    @Option(help: "The number the reply was sent to (the account's number).") var to: String?
    @OptionGroup var storage: ServerDatabaseOption

    func run() async throws {
        let engine = try await storage.openEngine(collectReportsOnRead: false)
        do {
            let app = try await engine.bootstrapSandbox()
            let reply = CarrierReply(messageId: messageId, from: from, to: to, text: text, receivedAt: nil)
            let received = try await engine.receiveReply(applicationKey: app.applicationKey, reply: reply)
            if let kept = received.reply {
                let thread = kept.bulkId.map { "answers bulk \(Output.safe($0))" } ?? "no invitation was sent to it before"
                print("kept reply \(Output.safe(kept.messageId)) from +\(kept.from) (\(thread))")
            } else {
                print("reply \(Output.safe(messageId ?? "")) was kept already; nothing changed")
            }
            if let entry = received.optOut {
                print("\(entry.number) opted out (\(Output.safe(entry.source)))")
            }
        } catch {
            throw Output.failure("the reply was not taken: \((error as? APIError)?.description ?? PlatformEngine.failureText(error))")
        }
    }
}
