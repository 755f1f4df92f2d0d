import Foundation
import HeraldCore
import HeraldViewModels

/// The whole Herald screen: tab bar, the focused pane, hint and status lines, toasts, and the
/// help and command-palette overlays. Keys go to overlays first, then to the focused pane, then
/// to the shell's global actions; service events go to the app view-model and to every pane.
public final class AppScreen: Screen {
    public typealias Event = AppEvent

    /// The smallest terminal the layout is made for.
    /// Below this Herald says the terminal is too small; between it and `comfortableSize` it degrades
    /// (no key hints, short tab titles) rather than refusing.
    public static let minimumSize = Size(width: 40, height: 12)
    public static let comfortableSize = Size(width: 80, height: 24)

    public let app: AppViewModel
    /// The five panes, in tab order. Change a pane here and nowhere else.
    public private(set) var panes: [any Pane]
    public let effects: EffectQueue
    public private(set) var keyMap: KeyMap
    public private(set) var theme: Theme
    private let themeLoader: ThemeLoader
    private let applyTheme: (Theme) -> Void
    private let clock: any HeraldClock
    public private(set) var help: HelpOverlay?
    public private(set) var palette: PaletteOverlay?
    /// Command lines run from the palette this session, oldest first (↑ walks them).
    public private(set) var paletteHistory: [String] = []
    /// What quitting would lose, while the person is asked whether to quit anyway.
    public private(set) var quitQuestion: [String]?
    /// Said before quitting whatever the panes hold (the demo: its workspace is thrown away).
    private let quitNote: String?
    private var tabFrames: [Rect] = []
    private var paneRect = Rect.zero
    /// Theme names for the palette's completion, listed off the UI thread each time the palette opens.
    private var themeNames: [String] = []
    /// Time spent drawing frames (measured around `render`).
    public private(set) var renderStats = RenderStats()
    /// Keeps a question from taking keys typed before it was shown, or a paste.
    private var questionGuard = QuestionGuard()

    /// - Parameter applyTheme: shows a new theme (the terminal's `setTheme`).
    public init(app: AppViewModel, panes: [any Pane], effects: EffectQueue, keyMap: KeyMap = KeyMap(), theme: Theme,
                themeLoader: ThemeLoader, clock: any HeraldClock = SystemClock(), quitNote: String? = nil,
                applyTheme: @escaping (Theme) -> Void) {
        self.app = app
        self.quitNote = quitNote
        self.panes = panes
        self.effects = effects
        self.keyMap = keyMap
        self.theme = theme
        self.themeLoader = themeLoader
        self.clock = clock
        self.applyTheme = applyTheme
        (panes.first as? any LivePane)?.didAppear()
    }

    public var wantsToQuit: Bool { app.wantsToQuit }
    public var workMark: Int { effects.mark }
    public func awaitsWork(startedSince mark: Int) -> Bool { effects.inFlight(startedSince: mark) }
    public var focusedPane: any Pane { pane(app.selectedPane) }
    /// The pane `id` names (the last one when a test gives fewer panes).
    private func pane(_ id: PaneID) -> any Pane { panes[min(id.rawValue, panes.count - 1)] }
    /// The palette's commands, with the theme names listed off the UI thread when the palette last opened.
    var paletteModel: CommandPalette { CommandPalette(themeNames: themeNames) }

    // MARK: layout and drawing

    /// The screen's rows: tabs, the pane, the key hints (none short of the comfortable height: ? still lists
    /// every key), the status line.
    private static func rows(for size: Size) -> [Rect] {
        let roomy = size.height >= Self.comfortableSize.height
        return Layout.rows(Rect(size), [.fixed(1), .flex(1), .fixed(roomy ? 1 : 0), .fixed(1)])
    }

    private static func fits(_ size: Size) -> Bool {
        size.width >= Self.minimumSize.width && size.height >= Self.minimumSize.height
    }

    public func layout(size: Size) {
        guard Self.fits(size) else { return }
        paneRect = Self.rows(for: size)[1]
        focusedPane.layout(in: paneRect)
    }

    public func render(into canvas: inout Canvas, size: Size) {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { renderStats.record(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
        guard Self.fits(size) else {
            renderTooSmall(into: &canvas, area: Rect(size))
            questionGuard.drew(question: false)         // not on screen: nothing may answer it yet
            return
        }
        questionGuard.drew(question: asksQuestion)
        let rows = Self.rows(for: size)
        let roomy = rows[2].height > 0
        let narrow = size.width < Self.comfortableSize.width
        tabFrames = TabsView.render(into: &canvas, rect: rows[0],
                                    titles: panes.enumerated().map { "\($0.offset + 1) \(narrow ? String($0.element.title.prefix(3)) : $0.element.title)" },
                                    selected: app.selectedPane.rawValue)
        paneRect = rows[1]
        focusedPane.render(into: &canvas, in: paneRect, theme: theme)
        if roomy {
            AppStatusBar.renderHints(into: &canvas, rect: rows[2], hints: ReadOnlyKeys.restrict(focusedPane.hints, reason: app.readOnlyReason),
                                     context: focusedPane.keyContext, keyMap: keyMap)
        }
        AppStatusBar.renderStatus(into: &canvas, rect: rows[3], app: app, themeName: theme.name)
        // The undo window's countdown stays below the toasts until the send leaves or is taken back.
        let countdown = app.held?.notice(key: keyName(.takeBack)).map { Toast($0, level: .warning, expiresAt: .distantFuture) }
        ToastView.render(into: &canvas, area: paneRect.inset(top: 1, left: 1, bottom: 1, right: 1),
                         toasts: app.toasts.notes.map(Self.toast) + [countdown].compactMap { $0 })
        if help != nil { help?.render(into: &canvas, area: paneRect) }
        if palette != nil { palette?.render(into: &canvas, line: rows[3], palette: paletteModel) }
        if let quitQuestion {
            ModalView.render(into: &canvas, area: paneRect, title: "Quit Herald?", lines: quitQuestion,
                             buttons: ["Quit (\(keyName(.yes)))", "Stay (\(keyName(.no)))"])
        }
    }

    private func renderTooSmall(into canvas: inout Canvas, area: Rect) {
        let lines = ["Terminal too small: \(area.width)×\(area.height)",
                     "Herald needs at least \(Self.minimumSize.width)×\(Self.minimumSize.height).",
                     "Enlarge the window, or press q to quit."]
        let top = max(0, (area.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let text = TextFit.truncate(line, to: area.width)
            let x = area.x + max(0, (area.width - TextWidth.of(text)) / 2)
            canvas.put(text, x: x, y: top + i, style: Style(i == 0 ? .warning : .text), clip: area)
        }
    }

    static func toast(_ note: ToastNote) -> Toast {
        let level: Toast.Level
        switch note.level {
        case .info, .success: level = .info
        case .warning: level = .warning
        case .error: level = .error
        }
        return Toast(note.text, level: level, expiresAt: note.expiresAt)
    }

    // MARK: keys

    public func handle(key: Key) -> Bool {
        if asksQuestion, !questionGuard.admits(key) {
            refuseForQuestion(key, guard: &questionGuard)
            return true
        }
        let handled = dispatch(key: key)
        let changed = takeRequests() || handled
        questionGuard.settle(question: asksQuestion)
        return changed
    }

    /// True while a question waits for an answer: the quit question, or the focused pane's (send, resend, merge…).
    var asksQuestion: Bool { quitQuestion != nil || focusedPane.keyContext == .question }

    public func takeQuestionShown() -> Bool { questionGuard.takeFirstShown() }

    public func dropTypedAhead(_ keys: [Key]) -> Bool {
        guard !keys.isEmpty, asksQuestion else { return false }
        for key in keys { refuseForQuestion(key, guard: &questionGuard) }
        return true
    }

    /// What a view-model asked of the shell while a key or an event was handled: a pane to show, a palette line.
    private func takeRequests() -> Bool {
        var changed = false
        if let id = app.takeFocusRequest() { focus(id); changed = true }
        return openRequestedPalette() || changed
    }

    private func dispatch(key: Key) -> Bool {
        if case .mouse(let mouse) = key { return handle(mouse: mouse) }
        if quitQuestion != nil {
            _ = quitQuestionBindings.run(keyMap.action(for: key, in: .question))
            return true                 // the question keeps every key
        }
        if palette != nil { return paletteBindings.run(keyMap.action(for: key, in: .palette)) || type(inPalette: key) }
        if case .paste(let text) = key { return paste(text) }
        if help != nil { return helpBindings.run(keyMap.action(for: key, in: .list)) }
        let pane = focusedPane
        let live = pane as? any LivePane
        let context = pane.keyContext
        guard let action = keyMap.action(for: key, in: context) else {
            return pane.handle(unboundKey: key)
        }
        let bindings = offeredBindings(of: pane)
        if let reason = bindings.binding(for: action)?.disabledReason {
            app.toasts.post(reason, level: .warning)       // listed but not now: the key says why
            return true
        }
        if bindings.run(action) { return true }
        if live?.capturesAllKeys == true && action != .quit { return true }
        if context.isTextEntry && ![.quit, .back, .help, .suspend, .takeBack].contains(action) { return false }
        return globalBindings.run(action)
    }

    // MARK: the shell's and the overlays' bindings (one dispatcher: `[PaneBinding].run`)

    /// The shell's own bindings, offered in every pane after the pane declined the key.
    var globalBindings: [PaneBinding] {
        [
            PaneBinding(.quit) { self.askBeforeQuitting() },
            PaneBinding(.help) { self.showHelp() },
            PaneBinding(.commandPalette) { self.openPalette() },
            PaneBinding(.paneContacts) { self.focus(.contacts) },
            PaneBinding(.paneShare) { self.focus(.share) },
            PaneBinding(.paneComposer) { self.focus(.composer) },
            PaneBinding(.paneInbox) { self.focus(.inbox) },
            PaneBinding(.paneDeliveries) { self.focus(.deliveries) },
            PaneBinding(.paneReplies) { self.focus(.replies) },
            PaneBinding(.nextPane) { self.focus(self.app.selectedPane.moved(by: 1)) },
            PaneBinding(.previousPane) { self.focus(self.app.selectedPane.moved(by: -1)) },
            PaneBinding(.redraw) { self.applyTheme(self.theme) },
            PaneBinding(.suspend) {
                guard let suspend = self.app.terminal.suspend else {
                    self.app.toasts.post("no terminal to suspend here", level: .info)
                    return
                }
                suspend { ForegroundCommand.stopUntilContinued() }
            },
            PaneBinding(.reload) { self.reloadFocusedPane() },
            PaneBinding(.takeBack) {
                if self.app.held?.takeBack() != true {
                    self.app.toasts.post("nothing to take back: no send is waiting to leave", level: .info)
                }
            },
        ]
    }

    /// The quit question's bindings (it keeps every other key).
    private var quitQuestionBindings: [PaneBinding] {
        PaneBinding.each([.yes, .pressButton, .quit]) { self.quitQuestion = nil; self.app.quit() }
            + PaneBinding.each([.no, .back]) { self.quitQuestion = nil }
    }

    /// The help overlay's bindings: the list's movement keys scroll it; esc, ? and q close it (q closes the
    /// innermost overlay first; a second q quits).
    private var helpBindings: [PaneBinding] {
        let visible = HelpOverlay.visibleLines(in: paneRect)
        let page = max(1, visible - 1)
        let scroll = ListNavigation(page: page, halfPage: page, move: { self.help?.scroll(by: $0, visible: visible) },
                                    first: { self.help?.scroll(by: -10_000, visible: visible) },
                                    last: { self.help?.scroll(by: 10_000, visible: visible) })
        return PaneBinding.each([.back, .help, .quit]) { self.help = nil } + scroll.bindings
    }

    /// The palette's bindings; other keys edit its line (`type(inPalette:)`).
    private var paletteBindings: [PaneBinding] {
        [
            PaneBinding(.closePalette) { self.palette = nil },
            PaneBinding(.runCommand) {
                let line = self.palette?.text ?? ""
                self.palette = nil
                self.remember(commandLine: line)
                self.run(commandLine: line)
            },
            PaneBinding(.complete) { self.palette?.complete(with: self.paletteModel) },
            PaneBinding(.previousCommand) { self.palette?.move(-1, palette: self.paletteModel, history: self.paletteHistory) },
            PaneBinding(.nextCommand) { self.palette?.move(1, palette: self.paletteModel, history: self.paletteHistory) },
        ]
    }

    /// A key for the palette's line: backspace on an empty line closes it.
    private func type(inPalette key: Key) -> Bool {
        if key == .backspace && palette?.text.isEmpty == true { palette = nil; return true }
        guard palette?.field.handle(key) == true else { return false }
        palette?.edited()
        return true
    }

    /// `?`: the keys of the focused pane, those it does not offer now muted (with why, when a binding says).
    func showHelp() {
        let bindings = offeredBindings(of: focusedPane)
        var reasons = bindings.disabledReasons
        if let reason = app.readOnlyReason {
            for action in ReadOnlyKeys.changing { reasons[action] = reason }     // greyed with why, listed now or not
        }
        help = HelpOverlay(context: focusedPane.keyContext, keyMap: keyMap, offered: bindings.offered, reasons: reasons)
    }

    /// What `pane` offers now, as this terminal may use it: in a read-only workspace (`AppViewModel.readOnlyReason`)
    /// every key that changes something is disabled with the reason (`ReadOnlyKeys`).
    func offeredBindings(of pane: any Pane) -> [PaneBinding] {
        ReadOnlyKeys.restrict(pane.bindings, reason: app.readOnlyReason)
    }

    /// ctrl-r: the focused pane reads its data again (a toast when it has none).
    func reloadFocusedPane() {
        if !focusedPane.handle(action: .reload) { app.toasts.post("nothing to read again in this pane", level: .info) }
    }

    /// The keys of `action` as a button shows them ("n, esc"): a capital letter bound beside its small one is left out.
    private func keyName(_ action: Action) -> String {
        let keys = keyMap.keys(for: action)
        return keys.filter { key in
            guard case .char(let c) = key, c.isUppercase else { return true }
            return !keys.contains(.char(Character(c.lowercased())))
        }.map(KeyName.label(of:)).joined(separator: ", ")
    }

    /// Quits, unless something would be lost or thrown away: then asks first.
    func askBeforeQuitting() {
        let warnings = panes.compactMap { ($0 as? any LivePane)?.quitWarning } + [quitNote].compactMap { $0 }
        if warnings.isEmpty { app.quit() } else { quitQuestion = warnings }
    }

    /// THE focus path: every jump (keys, clicks, palette, a view-model's request) goes through here, so the pane
    /// left hears `didDisappear` and the pane shown `didAppear`, once each.
    public func focus(_ id: PaneID) {
        guard id != app.selectedPane else { return }
        (focusedPane as? any LivePane)?.didDisappear()
        app.select(pane: id)
        (focusedPane as? any LivePane)?.didAppear()
    }

    /// Opens the palette with the line a pane asked the person to finish (the composer asking who invites); true
    /// when it did.
    private func openRequestedPalette() -> Bool {
        guard let line = app.takePaletteRequest() else { return false }
        help = nil
        openPalette(text: line)
        return true
    }

    /// Opens the palette and lists the themes for its completion off the UI thread (a folder on disk).
    private func openPalette(text: String = "") {
        palette = PaletteOverlay(text: text)
        let loader = themeLoader
        effects.perform({ loader.availableNames() }, then: { [weak self] result in
            if case .success(let names) = result { self?.themeNames = names }
        })
    }

    /// Keeps a command line for ↑ in the palette (the last 100, without repeating the newest).
    private func remember(commandLine line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, paletteHistory.last != trimmed else { return }
        paletteHistory.append(trimmed)
        if paletteHistory.count > 100 { paletteHistory.removeFirst(paletteHistory.count - 100) }
    }

    /// Runs a palette command line (without the `:`); an unknown or broken command shows an error toast.
    public func run(commandLine line: String) {
        do throws(PaletteError) {
            let (command, argument) = try paletteModel.parse(line).get()
            if let reason = app.readOnlyReason, ReadOnlyKeys.changingCommands.contains(command.name) { throw PaletteError(reason) }
            try command.run(argument, self)
        } catch {
            app.toasts.post(error.description, level: .error)
        }
    }

    /// Focuses pane `id` and hands it to `work` when it is a `P` (a test's stand-in is not): a palette command
    /// meant for that pane. Otherwise says the pane cannot do that yet.
    func forward<P: Pane>(to id: PaneID, as type: P.Type, _ work: (P) -> Void) {
        focus(id)
        guard let target = pane(id) as? P else {
            app.toasts.post("the \(pane(id).title) pane cannot do that yet", level: .warning)
            return
        }
        work(target)
    }

    /// Settings read again from the config file while running: the key map at once (an open help shows the
    /// new keys when opened again), the theme when `themeName` differs from the one shown.
    public func apply(keyMap: KeyMap, themeName: String?) {
        self.keyMap = keyMap
        if let themeName, themeName != theme.name { switchTheme(themeName) }
    }

    /// Reads theme `name` off the UI thread (a file), then shows it; an error toast when it cannot be loaded.
    public func switchTheme(_ name: String) {
        let loader = themeLoader
        effects.perform({ try loader.load(name) }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let loaded):
                theme = loaded
                applyTheme(loaded)
                app.toasts.post("theme \(name)")
            case .failure(let error):
                app.toasts.post("\(error)", level: .error)
            }
        })
    }

    // MARK: mouse

    private func handle(mouse: MouseEvent) -> Bool {
        if help != nil {
            switch mouse.kind {
            case .wheelDown: help?.scroll(by: 3, visible: HelpOverlay.visibleLines(in: paneRect))
            case .wheelUp: help?.scroll(by: -3, visible: HelpOverlay.visibleLines(in: paneRect))
            case .click, .rightClick: help = nil
            }
            return true
        }
        if mouse.kind == .click, let index = tabFrames.firstIndex(where: { $0.contains(x: mouse.x, y: mouse.y) }),
           let id = PaneID(rawValue: index) {
            palette = nil
            focus(id)
            return true
        }
        guard paneRect.contains(x: mouse.x, y: mouse.y) else { return false }
        return focusedPane.handle(mouse: mouse)
    }

    // MARK: events and time

    public func handle(event: AppEvent) -> Bool {
        var changed: Bool
        switch event {
        case .effect(let completion):
            changed = effects.complete(completion)
        case .service(let serviceEvent):
            changed = app.fold(serviceEvent)
            for case let pane as any LivePane in panes where pane.handle(serviceEvent: serviceEvent) { changed = true }
        }
        changed = takeRequests() || changed
        questionGuard.settle(question: asksQuestion)
        return changed
    }

    public func tick(now: Date) -> Bool {
        var changed = app.toasts.expire(now: now)
        if app.held?.tick(now: now) == true { changed = true }
        for case let pane as any LivePane in panes {
            if let due = pane.nextDeadline(), due <= now, pane.tick(now: now) { changed = true }
        }
        return changed
    }

    public func nextDeadline() -> Date? {
        var dates = panes.compactMap { ($0 as? any LivePane)?.nextDeadline() }
        if let toast = app.toasts.nextDeadline { dates.append(toast) }
        if let countdown = app.held?.nextDeadline() { dates.append(countdown) }
        return dates.min()
    }
}
