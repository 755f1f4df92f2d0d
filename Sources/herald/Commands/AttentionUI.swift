import Foundation
import HeraldCore
import HeraldServices
import HeraldTUI
import HeraldViewModels

/// Notices and links in the terminal UI, from `[notify]` and `[ui] hyperlinks`: the attention watcher runs off the UI
/// thread (it reads the store, runs the notice command or notify-send); each notice comes back to the app loop's thread
/// as an effect, where it goes into the status bar and the terminal's bell or notification is written between frames.
struct AttentionUI: Sendable {
    /// `[notify]`; nil when notices are off.
    let notify: NotifySettings?
    let hyperlinks: HyperlinkSetting
    let environment: [String: String]

    init(config: HeraldConfig, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let settings = try NotifySettings(config)
        notify = settings.enabled ? settings : nil
        hyperlinks = config.hyperlinks.flatMap(HyperlinkSetting.init(rawValue:)) ?? .auto
        self.environment = environment
    }

    /// Turns links on where they can be, and starts the watcher (following `inboxUser`'s inbox, and any the Inbox pane
    /// loads). Call on the app loop's thread; returns the watcher's task (cancel it when the screen closes).
    @MainActor
    func start(workspace: Workspace, app: AppViewModel, terminal: NcursesTerminal, effects: EffectQueue,
               inboxUser: String?) -> Task<Void, Never>? {
        terminal.hyperlinks = hyperlinks.isEnabled(environment: environment)
        guard let notify else { return nil }
        let route = notify.route(terminal: TerminalNotification.detect(environment: environment), environment: environment)
        let watcher = workspace.attention(notify.attention(inboxUsers: inboxUser.map { [$0] } ?? [], followLoadedInboxes: true,
                                                           inboxPollInterval: workspace.connection.kind.inboxRefreshInterval))
        let queue = NoticeQueue()
        let environment = self.environment
        let events = workspace.bus.stream()
        let task = Task.detached {
            await watcher.run(events: events) { notice in
                await queue.push(notice)
                await route.program?.run(notice, environment: environment)
            }
        }
        Self.show(from: queue, app: app, terminal: terminal, route: route, effects: effects)
        return task
    }

    /// Waits (off the loop thread) for the next notice, shows it on the loop thread, and waits again.
    @MainActor
    private static func show(from queue: NoticeQueue, app: AppViewModel, terminal: NcursesTerminal, route: NoticeRoute,
                             effects: EffectQueue) {
        effects.perform({ await queue.next() }) { [weak app, weak terminal] result in
            guard let app, let terminal, case .success(let notice?) = result else { return }
            app.notice = "\(clockTime(notice.at)) \(notice.line)"
            if let sequence = route.terminal { terminal.announce(sequence, title: "Herald: " + notice.title, body: notice.body) }
            show(from: queue, app: app, terminal: terminal, route: route, effects: effects)
        }
    }
}

/// "HH:mm:ss" in the local time zone.
private func clockTime(_ date: Date) -> String {
    let c = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
    return [c.hour, c.minute, c.second].map { String(format: "%02d", $0 ?? 0) }.joined(separator: ":")
}

/// Notices waiting for the loop thread, oldest first; `next()` waits for one.
private actor NoticeQueue {
    private var waiting: [AttentionNotice] = []
    private var reader: CheckedContinuation<AttentionNotice?, Never>?

    func push(_ notice: AttentionNotice) {
        if let reader {
            self.reader = nil
            reader.resume(returning: notice)
        } else {
            waiting.append(notice)
        }
    }

    func next() async -> AttentionNotice? {
        if !waiting.isEmpty { return waiting.removeFirst() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in reader = continuation }
        } onCancel: {
            Task { await self.cancelReader() }
        }
    }

    private func cancelReader() {
        reader?.resume(returning: nil)
        reader = nil
    }
}
