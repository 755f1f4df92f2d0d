import Foundation
import HeraldCore
import HeraldServices

/// The shell's state: which pane is focused, what the status bar says, the toasts, and whether
/// the user asked to quit. Folds the service events that concern the whole app.
public final class AppViewModel {
    /// Name of the workspace shown in the status bar ("demo", the data folder's name…).
    public var workspaceName: String
    /// Where the platform runs ("embedded", "server host:port").
    public var platformName: String
    /// How the link to a remote platform stands; nil on the embedded platform.
    public private(set) var platformLink: PlatformLink?
    /// The pane shown. Only the shell changes it (`AppScreen.focus`), so that leaving and showing a pane run once.
    public private(set) var selectedPane = PaneID.contacts
    /// A pane a view-model asked to show (the Composer after Contacts' `I`); the shell focuses it once the key or
    /// event that asked is handled.
    public private(set) var focusRequest: PaneID?
    /// Recipients still waiting for a final delivery status (from the tracker).
    public private(set) var pendingDeliveries = 0
    /// Unread messages of the inbox being read.
    public private(set) var unreadInbox: Int?
    /// Unread replies over every conversation (the Replies pane and the reply events keep it); nil until known.
    public private(set) var unreadReplies: Int?
    /// A one-line description of the latest service event.
    public private(set) var lastEvent: String?
    public let toasts: ToastBoard
    /// The latest notice ("14:02:11 bulk 3f9a2c1b settled: …", set by the launcher's attention watcher): the status
    /// bar shows it until the next one.
    public var notice: String?
    /// Why this terminal changes nothing (a viewer key, `--read-only`): the workspace's read-only reason; nil when it
    /// may. The shell greys every key that changes something with it, and the status bar says "read-only".
    public var readOnlyReason: String?
    /// This terminal's sends the platform still holds (the undo window's countdown); nil where nothing sends.
    public var held: HeldSends?
    public private(set) var wantsToQuit = false
    private let clock: any HeraldClock
    /// The terminal the screen runs on (the launcher's), lent to the panes: `.none` in tests and the benchmark.
    public let terminal: TerminalHandOver

    public init(workspaceName: String, platformName: String = "embedded",
                toasts: ToastBoard, clock: any HeraldClock = SystemClock(), terminal: TerminalHandOver = .none) {
        self.workspaceName = TerminalSafeText.sanitize(workspaceName)
        self.platformName = platformName
        self.toasts = toasts
        self.clock = clock
        self.terminal = terminal
    }

    /// Records the pane now shown; call from the shell's one focus path only.
    public func select(pane: PaneID) { selectedPane = pane }
    /// Asks the shell to show `pane` (it runs the focus path: the pane left hears it, the pane shown too).
    public func requestFocus(_ pane: PaneID) { focusRequest = pane }
    public func takeFocusRequest() -> PaneID? {
        defer { focusRequest = nil }
        return focusRequest
    }
    public func quit() { wantsToQuit = true }

    /// A command line a pane wants the person to finish in the `:` palette (the shell opens it with this line as soon as
    /// the key or event that asked is handled).
    public private(set) var paletteRequest: String?
    public func ask(inPalette line: String) { paletteRequest = line }
    public func takePaletteRequest() -> String? {
        defer { paletteRequest = nil }
        return paletteRequest
    }

    /// Sets the platform link directly (as it stood when the screen started).
    public func setPlatformLink(_ link: PlatformLink?) { platformLink = link }
    /// Sets the unread count directly (the inbox pane knows best).
    public func setUnreadInbox(_ count: Int?) { unreadInbox = count.map { max(0, $0) } }
    /// Sets the unread replies directly (the Replies pane knows best).
    public func setUnreadReplies(_ count: Int?) { unreadReplies = count.map { max(0, $0) } }

    /// Folds a service event into the status bar and toasts; true when something shown changed.
    @discardableResult
    public func fold(_ event: HeraldEvent) -> Bool {
        let time = Self.clockTime(clock.now())
        switch event {
        case .ledgerChanged(let change):
            guard let last = change.deliveries.last else { return false }
            let more = change.deliveries.count > 1 ? " (+\(change.deliveries.count - 1) more)" : ""
            lastEvent = "\(time) +\(last.address) → \(last.to.label)\(more)"
        case .contactsChanged, .booksChanged:
            return false
        case .bulkSent(let sent):
            held?.fold(sent)
            lastEvent = "\(time) bulk \(sent.bulkId.prefix(8)) \(sent.sendAt == nil ? "sent" : "held") for \(sent.accepted)"
        case .inboxLoaded(let loaded):
            unreadInbox = loaded.countUnread
            lastEvent = "\(time) inbox of \(loaded.externalUserId): \(loaded.countUnread) unread"
        case .inboxArrived(let user):
            lastEvent = "\(time) new message in the inbox of \(user)"
        case .inboxSeenChanged(let change):
            if let unread = unreadInbox {
                unreadInbox = max(0, unread + (change.seen ? -change.messageIds.count : change.messageIds.count))
            }
            lastEvent = "\(time) \(change.messageIds.count) marked \(change.seen ? "seen" : "unseen")"
        case .trackerState(let state):
            pendingDeliveries = state.pendingRecipients
        case .repliesChanged(let change):
            unreadReplies = max(0, change.unreadTotal)
            guard let reply = change.reply else { return true }
            lastEvent = "\(time) reply from \(change.name ?? change.number): \(reply.text.prefix(40))"
        case .toast(let level, let text):
            toasts.post(text, level: level)
        case .platformLink(let link):
            guard link != platformLink else { return false }
            platformLink = link
            switch link {
            case .connected: lastEvent = "\(time) platform connected"
            case .reconnecting(_, let reason), .offline(let reason): lastEvent = "\(time) platform lost: \(reason)"
            }
        }
        if let last = lastEvent { lastEvent = TerminalSafeText.sanitize(last) }
        return true
    }

    /// "HH:mm:ss" in the local time zone.
    static func clockTime(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }
}
