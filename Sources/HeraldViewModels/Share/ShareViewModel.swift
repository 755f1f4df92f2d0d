import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// The Share pane's state: the ways to share with their availability, the referral link and its
/// clicks, its QR code, and the social share URLs. Confined to the app loop's thread.
public final class ShareViewModel {
    public let context: ViewModelContext
    private let share: ShareService
    /// Where SMS and email invites are written: the Composer, shown for that channel.
    private let composer: ComposerViewModel?
    /// The From of email invitations; nil when none is set.
    private let emailSender: EmailAddress?
    /// The mail program this machine's platform hands email to; nil when the platform sends email itself (a server).
    private let mailProgram: MailProgram?
    public let settings: ShareSettings

    public let channels: [ShareChannel] = ShareChannel.allCases
    public private(set) var cursor = 0
    public private(set) var link: ReferralLink?
    public private(set) var linkProblem: String?
    public private(set) var isLoadingLink = false
    /// The QR code of the link; nil until the link is known.
    public private(set) var qrCode: QRCode?
    public private(set) var qrProblem: String?
    /// Whether the QR code is shown large (the `Q` key or the QR row).
    public private(set) var showsQR = false

    /// - Parameter composer: where choosing SMS or email leads (nil: nowhere).
    public init(share: ShareService, composer: ComposerViewModel?, emailSender: EmailAddress?, mailProgram: MailProgram?,
                context: ViewModelContext, settings: ShareSettings) {
        self.share = share
        self.composer = composer
        self.emailSender = emailSender
        self.mailProgram = mailProgram
        self.context = context
        self.settings = settings
    }

    public var current: ShareChannel { channels[cursor] }

    /// Whether `channel` can be used now, and why not.
    public func availability(of channel: ShareChannel) -> ShareAvailability {
        switch channel {
        case .sms:
            guard let sender = settings.sender else {
                return .unavailable(reason: "no sender ID: set sender = \"NAME\" in config.toml")
            }
            if let problem = SenderID.problem(sender) { return .unavailable(reason: "sender in config.toml: " + problem) }
            return .available
        case .email:
            guard emailSender != nil else {
                return .unavailable(reason: "no email sender: set email_from = \"you@example.com\" in config.toml")
            }
            if let mailProgram, case .unavailable = mailProgram.availability() {
                return .unavailable(reason: "no \(mailProgram.command.program) program found; set \(settings.emailCommandConfigKey) in config.toml")
            }
            return .available
        case .link, .qr, .social:
            if let linkProblem { return .unavailable(reason: linkProblem) }
            if channel == .qr, let qrProblem { return .unavailable(reason: qrProblem) }
            return link == nil ? .waiting("loading the referral link…") : .available
        }
    }

    /// The share URL for a social platform (nil until the link is known).
    /// Each social network's name and share URL, in order, as long as the link is known.
    public var socialLinks: [(name: String, url: String)] {
        var links: [(name: String, url: String)] = []
        for platform in SharePlatform.allCases {
            guard let url = shareURL(for: platform) else { break }
            links.append((platform.displayName, url))
        }
        return links
    }

    public func shareURL(for platform: SharePlatform) -> String? {
        link.map { ShareLinks.url(for: platform, text: settings.socialText, link: $0.url) }
    }

    // MARK: actions

    /// Asks the platform for the referral link (and its click count).
    public func refresh() {
        isLoadingLink = true
        let share = self.share, referrer = settings.referrer
        context.effects.perform({ try await share.referralLink(referrer: referrer) }) { [weak self] result in
            guard let self else { return }
            self.isLoadingLink = false
            switch result {
            case .success(let link):
                self.linkProblem = nil
                let changed = self.link?.url != link.url
                self.link = link
                if changed || self.qrCode == nil { self.makeQR(link.url) }
            case .failure(let error):
                self.linkProblem = "no referral link: " + userMessage(for: error)
            }
        }
    }

    private func makeQR(_ url: String) {
        do {
            qrCode = try share.qrCode(for: url)
            qrProblem = nil
        } catch {
            qrCode = nil
            qrProblem = userMessage(for: error)
        }
    }

    /// The QR code as half-block lines with a quiet zone; `inverted` draws the dark modules (for
    /// dark text on a light background). Empty until the link is known.
    public func qrLines(inverted: Bool = false) -> [String] {
        qrCode?.textLines(quietZone: 2, inverted: inverted) ?? []
    }

    public func moveCursor(to index: Int) { cursor = min(max(0, index), channels.count - 1) }

    /// Uses the row under the cursor.
    public func choose() { choose(current) }

    /// Uses `channel`: compose an invitation, copy the link or a share URL, or show the QR code.
    public func choose(_ channel: ShareChannel) {
        if let index = channels.firstIndex(of: channel) { cursor = index }
        switch availability(of: channel) {
        case .unavailable(let reason): context.toasts.post("\(channel.title) is not available: \(reason)", level: .warning); return
        case .waiting(let text): context.toasts.post(text, level: .info); return
        case .available: break
        }
        switch channel {
        case .sms, .email:
            // SMS or email invite chosen: the Composer is shown for that channel.
            guard let composer else { return }
            composer.setChannel(channel)
            context.app.requestFocus(.composer)
        case .link: copyLink()
        case .qr: showsQR.toggle()
        case .social(let platform):
            if let url = shareURL(for: platform) { copy(url, what: "\(platform.displayName) share URL") }
        }
    }

    /// Shows or hides the large QR code.
    public func toggleQR() {
        guard link != nil else { context.toasts.post("the referral link is still loading", level: .info); return }
        showsQR.toggle()
    }

    /// Hides the QR code; false when it was not shown.
    @discardableResult
    public func hideQR() -> Bool {
        guard showsQR else { return false }
        showsQR = false
        return true
    }

    /// Copies the referral link (or, on a social row, that row's share URL).
    public func copyCurrent() {
        if case .social(let platform) = current, let url = shareURL(for: platform) {
            copy(url, what: "\(platform.displayName) share URL")
        } else {
            copyLink()
        }
    }

    public func copyLink() {
        guard let url = link?.url else { context.toasts.post("the referral link is still loading", level: .info); return }
        copy(url, what: "link")
    }

    private func copy(_ text: String, what: String) { context.copier.copy(CopyTarget(text: text, what: what)) }

    /// Folds a service event into the state; true when something shown changed.
    @discardableResult
    public func handle(_ event: HeraldEvent) -> Bool { false }
}
