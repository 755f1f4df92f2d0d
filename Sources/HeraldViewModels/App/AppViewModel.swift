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
    public let paneCount: Int
    public private(set) var selectedPane = 0
    /// Recipients still waiting for a final delivery status (from the tracker).
    public private(set) var pendingDeliveries = 0
    /// Unread messages of the inbox being read.
    public private(set) var unreadInbox: Int?
    /// A one-line description of the latest service event.
    public private(set) var lastEvent: String?
    public let toasts: ToastBoard
    public private(set) var wantsToQuit = false
    private let clock: any HeraldClock

    public init(workspaceName: String, platformName: String = "embedded", paneCount: Int = 5,
                toasts: ToastBoard, clock: any HeraldClock = SystemClock()) {
        self.workspaceName = TerminalSafeText.sanitize(workspaceName)
        self.platformName = platformName
        self.paneCount = max(1, paneCount)
        self.toasts = toasts
        self.clock = clock
    }

    public func select(pane index: Int) {
        guard index >= 0, index < paneCount else { return }
        selectedPane = index
    }
    public func nextPane() { selectedPane = (selectedPane + 1) % paneCount }
    public func previousPane() { selectedPane = (selectedPane + paneCount - 1) % paneCount }
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

    /// Folds a service event into the status bar and toasts; true when something shown changed.
    @discardableResult
    public func fold(_ event: HeraldEvent) -> Bool {
        let time = Self.clockTime(clock.now())
        switch event {
        case .ledgerChanged(let change):
            guard let last = change.deliveries.last else { return false }
            let more = change.deliveries.count > 1 ? " (+\(change.deliveries.count - 1) more)" : ""
            lastEvent = "\(time) +\(last.address) → \(last.to.label)\(more)"
        case .contactsChanged:
            return false
        case .bulkSent(let sent):
            lastEvent = "\(time) bulk \(sent.bulkId.prefix(8)) sent to \(sent.accepted)"
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
