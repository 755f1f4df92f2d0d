import HeraldServices

/// One way to share shown in the Share pane.
nonisolated public enum ShareChannel: Sendable, Hashable, CaseIterable {
    case sms, email, link, qr
    case social(SharePlatform)

    public static var allCases: [ShareChannel] {
        [.sms, .email, .link, .qr] + SharePlatform.allCases.map { .social($0) }
    }

    /// The row's title.
    public var title: String {
        switch self {
        case .sms: return "SMS invite"
        case .email: return "Email invite"
        case .link: return "Referral link"
        case .qr: return "QR code"
        case .social(let platform): return "Share on \(platform.displayName)"
        }
    }

    /// What choosing the row does.
    public var actionLabel: String {
        switch self {
        case .sms, .email: return "write the invitation"
        case .link: return "copy the link"
        case .qr: return "show the QR code"
        case .social: return "copy the share URL"
        }
    }
}

/// Whether a channel can be used now, and why not.
nonisolated public enum ShareAvailability: Sendable, Hashable {
    case available
    /// Not usable yet (the referral link is still loading).
    case waiting(String)
    case unavailable(reason: String)

    public var isAvailable: Bool { self == .available }
}

/// How the Share pane's services are configured.
nonisolated public struct ShareSettings: Sendable {
    /// Whose referral link is shown (the sender name from config, else the user name).
    public var referrer: String
    /// The SMS sender ID from config; SMS invites need one.
    public var sender: String?
    /// Where the email command is configured, for the "not available" reason.
    public var emailCommandConfigKey: String
    /// The text that goes with the link on social platforms.
    public var socialText: String

    public init(referrer: String, sender: String?, emailCommandConfigKey: String = "share.email_command",
                socialText: String = "Join me on Herald") {
        self.referrer = referrer
        self.sender = sender
        self.emailCommandConfigKey = emailCommandConfigKey
        self.socialText = socialText
    }
}
