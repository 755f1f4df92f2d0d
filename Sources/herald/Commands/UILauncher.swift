import Foundation
import HeraldCardDAV
import HeraldCore
import HeraldServices
import HeraldStore
import HeraldApp
import HeraldTUI
import HeraldViewModels
import Logging

/// `herald` with no subcommand: opens the terminal UI on the user's workspace, or on a throwaway
/// demo workspace with `--demo`. Everything that can fail before the screen is taken (config,
/// theme, keys, data folder) is reported plainly on stderr.
struct UILauncher {
    var demo: Bool
    var options: GlobalOptions
    var themeName: String?
    var dataDir: String? { options.dataDir }

    func run() async throws {
        let paths = options.paths
        var setup = try options.workspaceSetup()      // config.toml (warnings printed once) + environment
        if demo, setup.config.senderName == nil { setup.config.senderName = "Alex" }   // the demo's sender fills {SENDER_NAME}
        // Read a second time for theme and keys (its warnings were printed above); a failure now is said, never the defaults.
        let config: HeraldConfig
        do { config = try HeraldConfig.load(from: paths.configFile) } catch {
            throw Output.failure("\(error)\nFix the file or move it aside to use the defaults.")
        }
        let themes = ThemeLoader()
        let theme: Theme
        do { theme = try themes.load(themeName ?? config.theme ?? "default") } catch {
            throw Output.failure("\(error)\nChoose one with --theme NAME.")
        }
        let keyMap: KeyMap
        do { keyMap = config.keys.isEmpty ? KeyMap() : try KeyMap(overrides: config.keys, source: paths.configFile.path) } catch {
            throw Output.failure("\(error)")
        }
        let attention = try AttentionUI(config: config)      // [notify] and [ui] hyperlinks
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw Output.failure("the UI needs a terminal (stdin and stdout must not be redirected); for scripts use the subcommands, see herald --help")
        }
        let log = Logger(label: "herald.ui")
        // A server older than the wire this terminal needs is said in a toast: stderr is hidden behind the screen.
        let olderServer = NoticeBox()
        if var server = setup.platform as? ServerPlatform {
            server.warn = { olderServer.text = $0 }
            setup.platform = server
        }

        let workspace: Workspace
        let name: String
        var inboxUser: String?
        do {
            if demo {
                let (opened, report) = try await Workspace.demo(directory: dataDir.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) },
                                                                platform: setup.platform, config: setup.config)
                workspace = opened
                inboxUser = report.user
                name = "demo"
                log.info("demo workspace", metadata: ["dir": "\(opened.dataDirectory.path)", "people": "\(report.people)"])
            } else {
                workspace = try await Workspace.open(dataDirectory: paths.dataDirectory, platform: setup.platform,
                                                     config: setup.config)
                name = paths.dataDirectory.lastPathComponent
            }
        } catch let error as UserFacingError {
            throw Output.failure(error.userMessage)
        } catch {
            throw Output.failure("cannot open the workspace: \(error)")
        }
        do { try await workspace.startFeed() } catch {
            workspace.close()
            throw Output.failure("cannot read the workspace: \(StorageFailure.message(for: error) ?? "\(error)")")
        }
        // The address books are read now and again whenever khard, vdirsyncer or anyone changes a card file.
        let books = workspace.books, accounts = setup.bookAccounts
        if !accounts.isEmpty {
            await books.use(remote: { store, name in
                guard let account = accounts[name] else { throw BookError.notAFolder(book: name) }
                return try await CardDAVSync(books: store, account: account).sync(name)
            })
        }
        Task.detached { await books.startWatching() }
        let quitNote = demo && dataDir == nil
            ? "This demo workspace is thrown away when Herald quits (start with --demo --data-dir DIR to keep one)." : nil
        let outcome = await Self.runOnUIThread(workspace: workspace, name: name, inboxUser: inboxUser, theme: theme,
                                               themes: themes, mouse: config.mouse ?? true, keyMap: keyMap,
                                               reload: ConfigReload(file: paths.configFile, themeGiven: themeName != nil), quitNote: quitNote,
                                               notice: olderServer.text, attention: attention, log: log)
        workspace.close()
        switch outcome {
        case .finished(let summary): log.info("ui closed", metadata: ["summary": "\(summary)"])
        case .signalled(let number): log.info("ui closed by signal \(number)")
        case .failed(let message): throw Output.failure(message)
        }
    }

    enum Outcome: Sendable { case finished(String), signalled(Int32), failed(String) }

    /// ncurses and the view-models live on the main actor: the UI modules are main-actor isolated by
    /// default, so the compiler refuses UI code called from anywhere else. The loop holds the main
    /// actor's one thread (on Linux, the thread draining the main dispatch queue) until the UI closes;
    /// nothing else in Herald runs on the main actor.
    @MainActor
    static func runOnUIThread(workspace: Workspace, name: String, inboxUser: String?, theme: Theme, themes: ThemeLoader, mouse: Bool,
                              keyMap: KeyMap, reload: ConfigReload, quitNote: String?, notice: String?, attention: AttentionUI,
                              log: Logger) -> Outcome {
        // That thread blocks most signals, and child processes ($EDITOR, sendmail) inherit its mask: start them clean.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        // Render, keys and events never touch the store: anything that does is logged.
        let uiGuard = UIThreadGuard { access in
            log.warning("storage touched on the UI thread", metadata: ["access": "\(access)"])
        }
        return uiGuard.run {
            runLoop(workspace: workspace, name: name, inboxUser: inboxUser, theme: theme, themes: themes,
                    mouse: mouse, keyMap: keyMap, reload: reload, quitNote: quitNote, notice: notice, attention: attention, log: log)
        }
    }

    @MainActor
    private static func runLoop(workspace: Workspace, name: String, inboxUser: String?, theme: Theme, themes: ThemeLoader, mouse: Bool,
                                keyMap: KeyMap, reload: ConfigReload, quitNote: String?, notice: String?, attention: AttentionUI,
                                log: Logger) -> Outcome {
        let mailbox: Mailbox<AppEvent>
        do { mailbox = try Mailbox<AppEvent>() } catch { return .failed("\(error)") }
        UISignals.install(wakeDescriptor: mailbox.wakeWriteDescriptor)
        defer { UISignals.uninstall() }
        let terminal: NcursesTerminal
        do { terminal = try NcursesTerminal(theme: theme, mouse: mouse) } catch { return .failed("\(error)") }
        defer { terminal.stop() }
        let clock = SystemClock()
        let effects = EffectQueue { mailbox.post(.effect($0)) }
        let subscription = workspace.bus.subscribe { mailbox.post(.service($0)) }
        defer { subscription.cancel() }
        let app = AppViewModel(workspaceName: name, platformName: workspace.connection.kind.shortName,
                               toasts: ToastBoard(clock: clock), clock: clock,
                               // OSC 52 copies (every pane's copy key), $EDITOR (Contacts, Composer), ctrl-z
                               terminal: TerminalHandOver(write: { terminal.writeRaw($0) }, suspend: { terminal.suspend($0) }))
        app.setPlatformLink(workspace.platformLink)
        app.readOnlyReason = workspace.readOnlyReason
        if let notice { app.toasts.post(notice, level: .warning, seconds: 12) }
        let invites = workspace.invites
        app.held = HeldSends(clock: clock, effects: effects, cancel: { try await invites.cancel(bulkId: $0) },
                             onToast: { [weak app] level, text in app?.toasts.post(text, level: level) })
        let env = PaneEnvironment(workspace: workspace, app: app, effects: effects, keyMap: keyMap, clock: clock, inboxUser: inboxUser)
        let screen = AppScreen(app: app, panes: AppPanes.make(env), effects: effects, keyMap: keyMap, theme: theme,
                               themeLoader: themes, clock: clock,
                               quitNote: quitNote,
                               applyTheme: { terminal.setTheme($0) })
        let loop = AppLoop(terminal: terminal, screen: screen, mailbox: mailbox, clock: clock)
        reload.start(effects: effects, screen: screen, terminal: terminal, toasts: app.toasts)
        // Before the tracker's first pass: the watcher hears every change it makes.
        let notices = attention.start(workspace: workspace, app: app, terminal: terminal, effects: effects, inboxUser: inboxUser)
        defer { notices?.cancel() }
        workspace.startTracking()
        Task.detached { await workspace.tracker.refresh() }
        ResizeSignal.install(wakeDescriptor: mailbox.wakeWriteDescriptor)
        defer { ResizeSignal.uninstall() }
        loop.renderIfDue()
        if let started = secondsSinceProcessStart() {
            log.info("first frame", metadata: ["ms_since_process_start": "\(Int(started * 1000))"])
        }
        while !screen.wantsToQuit && UISignals.received == 0 {
            loop.step()
        }
        let stats = screen.renderStats
        let summary = "frames=\(loop.framesRendered) render_mean_ms=\(String(format: "%.2f", stats.meanMilliseconds)) render_max_ms=\(String(format: "%.2f", stats.maxMilliseconds))"
        let signalled = UISignals.received
        return signalled != 0 ? .signalled(signalled) : .finished(summary)
    }
}

/// A text one task leaves for another (the connection's warning, read once the workspace is open).
private final class NoticeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    var text: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
