import Foundation
import HeraldCore
import HeraldStore

/// What a workspace takes from the user's configuration (the executable maps `config.toml` and
/// the environment onto this).
public struct WorkspaceConfig: Sendable {
    /// Default region for national numbers ("HR"); nil: numbers must be international.
    public var region: String?
    /// Sender ID of invitations.
    public var sender: String?
    /// `{SENDER_NAME}` in messages.
    public var senderName: String?
    /// A signature the composer offers (appended on its own line); nil: none.
    public var signature: String?
    /// Message key to send when none is given; nil: the application's default message.
    public var messageKey: String?
    public var tracker: TrackerSettings
    /// How a send retries answers that are not final (5xx, 429, timeouts) before leaving rows queued.
    public var sendRetry: SendRetry
    /// Inbox JWT key id and hex secret; nil: inbox reads use the application code (sandbox).
    public var inboxJWTKeyId: String?
    public var inboxJWTSecretHex: String?
    public var inboxJWTLifetime: TimeInterval
    /// The owner's email, for ranking suggestions (same company domain).
    public var ownerEmail: String?
    /// From address of email invitations; nil: email invitations are off.
    public var emailFrom: String?
    public var emailCommand: ExternalCommand
    /// `[share] clipboard_command`: the program copies go through (reads the text on stdin); nil: found by itself.
    public var clipboardCommand: ExternalCommand?
    /// Refuse a send whose message uses {SENDER_NAME} while no sender name is known (the executable turns it on).
    public var requireSenderName = false
    /// `[invite] numbers = "all-mobiles"`: a person with several mobiles gets an SMS on each (default: one).
    public var inviteAllMobiles = false
    /// Why this terminal changes nothing whatever its platform allows (`--read-only`, a support desk); nil: it may.
    public var readOnlyReason: String?
    /// `[send] hold_seconds`: the undo window before anything leaves (0: at once).
    public var holdSeconds: TimeInterval = 0
    /// `[send] quiet_hours`: hours of each recipient's local day in which no invitation reaches them.
    public var quietHours: QuietHours?
    /// `[send] max_per_day`: invitations a day under one sender ID.
    public var maxPerDay: Int?
    /// `[prices]`: the price of one SMS part by country, which a send's estimate takes before reported prices.
    public var prices = PriceTable()
    /// `[send] confirm_above`: a send estimated above this asks again (the Composer) or needs `--yes` (the CLI).
    public var confirmAbove: Double?
    /// How often the change feed looks for writes (of this process or another).
    public var feedInterval: TimeInterval = 0.5
    /// `[[books]]`: the address books contacts come from and are written back to.
    public var books: [AddressBook] = []

    public init(region: String? = nil, sender: String? = "Herald", senderName: String? = nil, signature: String? = nil, messageKey: String? = nil,
                tracker: TrackerSettings = .default, sendRetry: SendRetry = SendRetry(),
                inboxJWTKeyId: String? = nil, inboxJWTSecretHex: String? = nil, inboxJWTLifetime: TimeInterval = 300,
                ownerEmail: String? = nil, emailFrom: String? = nil, emailCommand: ExternalCommand = MailProgram.defaultCommand) {
        self.region = region
        self.sender = sender
        self.senderName = senderName
        self.signature = signature
        self.messageKey = messageKey
        self.tracker = tracker
        self.sendRetry = sendRetry
        self.inboxJWTKeyId = inboxJWTKeyId
        self.inboxJWTSecretHex = inboxJWTSecretHex
        self.inboxJWTLifetime = inboxJWTLifetime
        self.ownerEmail = ownerEmail
        self.emailFrom = emailFrom
        self.emailCommand = emailCommand
    }

    /// The inbox auth for an application code: JWT when both key id and secret are set.
    public func inboxAuth(applicationCode: String) -> InboxAuthConfig {
        guard let keyId = inboxJWTKeyId, let secret = inboxJWTSecretHex else { return .applicationCode }
        return .jwt(InboxTokenConfig(keyId: keyId, secretHex: secret, applicationCode: applicationCode,
                                     lifetime: inboxJWTLifetime))
    }
}

/// Why a workspace could not be opened.
public enum WorkspaceError: Error, Sendable, UserFacingError {
    case cannotCreate(String, String)
    case store(String)
    /// The platform could not be started or reached; the text says why and what to do.
    case platform(String)
    case region(String)
    case inboxConfig(String)

    public var userMessage: String {
        switch self {
        case .cannotCreate(let path, let why):
            return "cannot create the data folder \(path) (\(why)): check it is writable, or pass --data-dir DIR"
        case .store(let why): return "cannot open the local database: \(why)"
        case .platform(let why): return why
        case .region(let why): return "\(why)"
        case .inboxConfig(let why): return "\(why)"
        }
    }
}
