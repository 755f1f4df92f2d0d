import Foundation

/// How the embedded platform behaves: carrier simulation, links, prices, limits.
public struct EngineConfig: Sendable, Hashable {
    /// Speeds the simulated carrier up (2 = twice as fast). Must be > 0.
    public var timeScale: Double
    /// Seed of the simulated carrier: same seed and messageId, same fate.
    public var carrierSeed: UInt64
    /// Share of accepted messages that end DeliveryImpossible.
    public var impossibleShare: Double
    /// Share that ends DeliveryUncertain.
    public var uncertainShare: Double
    /// Share that stays at DeliveredToNetwork forever.
    public var stuckAtNetworkShare: Double
    /// Seconds (unscaled) before the network takes a message: uniformly in this range.
    public var networkDelay: ClosedRange<Double>
    /// Seconds (unscaled) after the network before the final report: uniformly in this range.
    public var finalDelay: ClosedRange<Double>
    /// Start of every short link; a code is appended. Must not be a real domain by default.
    public var shortLinkBase: String
    /// Where a short link leads (the application's download page).
    public var downloadURL: String
    /// Price of one SMS segment.
    public var pricePerSegment: Double
    /// Most destinations per send request.
    public var maxDestinations: Int
    /// Faults injected from the start (`HERALD_SANDBOX_FAULTS`).
    public var faults: FaultPlan
    /// Whether reading delivery infos first collects the carrier's reports due by now. On in a terminal's
    /// embedded engine (nothing else runs the carrier); off on a server, whose carrier worker alone does it.
    public var collectReportsOnRead = true
    /// Whether a send hands its messages to the carrier before it answers. On in a terminal's embedded engine; off on
    /// a server, where only the replica holding the carrier lease talks to the carrier (woken by the send's commit).
    public var handOverOnSend = true
    /// Whether that collection covers every bulk with reports due, not only the one read: a carrier that answers
    /// many bulks in one call (Infobip's logs) is asked once per pass instead of once per bulk.
    public var collectAcrossBulksOnRead = false
    /// When set, the link of every message and referral is this URL: a platform that cannot serve Herald's
    /// short links (Infobip) sends the application's own referral page instead.
    public var plainLink: String?
    /// When set, the simulated carrier appends a line per message handed to it (`messageId`, `resent` when it may
    /// have been handed before, the process id): how the replica tests count hand-overs across processes.
    public var handOverLog: String?
    /// The server's own mail identity (`[smtp] from`): every email leaves from its address. nil: as the client says
    /// (a terminal's own engine, whose mail program sends as its user).
    public var mailIdentity: MailIdentity?
    /// Email invitations one server key may send in an hour, on this replica; nil: no limit (a terminal's own engine).
    public var emailsPerKeyPerHour: Int?
    /// Words besides `PlatformEngine.stopWords` that opt a number out when a reply is one of them (upper case:
    /// `[send] stop_words`, e.g. other languages' "ODJAVA").
    public var extraStopWords: Set<String> = []
    /// Who the audit trail names for what is done without a server key (a terminal's own platform: its sender name
    /// or login; the server's console: the operator's login). nil: the login of the process.
    public var localActor: String?

    public init(timeScale: Double = 1, carrierSeed: UInt64 = 0x4845_5241_4C44, impossibleShare: Double = 0.10,
                uncertainShare: Double = 0.05, stuckAtNetworkShare: Double = 0.05,
                networkDelay: ClosedRange<Double> = 1...4, finalDelay: ClosedRange<Double> = 2...10,
                shortLinkBase: String = "https://herald.invalid/r/",
                downloadURL: String = "https://herald.invalid/download",
                pricePerSegment: Double = 0.01, maxDestinations: Int = 1000, faults: FaultPlan = FaultPlan()) {
        self.timeScale = timeScale
        self.carrierSeed = carrierSeed
        self.impossibleShare = impossibleShare
        self.uncertainShare = uncertainShare
        self.stuckAtNetworkShare = stuckAtNetworkShare
        self.networkDelay = networkDelay
        self.finalDelay = finalDelay
        self.shortLinkBase = shortLinkBase
        self.downloadURL = downloadURL
        self.pricePerSegment = pricePerSegment
        self.maxDestinations = maxDestinations
        self.faults = faults
    }

    /// The environment variable the executable reads the time scale from.
    public static let timeScaleVariable = "HERALD_SANDBOX_TIME_SCALE"

    /// The time scale of `HERALD_SANDBOX_TIME_SCALE`; nil when unset; an error when not a positive number.
    public static func timeScale(fromEnvironment env: [String: String]) throws(EngineError) -> Double? {
        guard let raw = env[timeScaleVariable]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        guard let value = Double(raw), value.isFinite, value > 0 else {
            throw EngineError.invalidConfig("\(timeScaleVariable)=\(raw) is not a positive number (for example 1 or 10)")
        }
        return value
    }

    /// The link sent for a short-link code: the plain link when set, else the short link.
    public func link(code: String) -> String { plainLink ?? shortLinkBase + code }

    /// A link of the form messages get (an example code where each message's own goes): what previews show.
    public var linkExample: String { link(code: "AbCd2345") }

    /// Checks the values; the engine refuses to open with a broken config.
    public func validate() throws(EngineError) {
        guard timeScale.isFinite, timeScale > 0 else {
            throw EngineError.invalidConfig("time_scale must be a positive number, got \(timeScale)")
        }
        let shares = [impossibleShare, uncertainShare, stuckAtNetworkShare]
        guard shares.allSatisfy({ $0 >= 0 && $0 <= 1 }), shares.reduce(0, +) <= 1 else {
            throw EngineError.invalidConfig("carrier shares must each be within 0...1 and add up to at most 1")
        }
        guard networkDelay.lowerBound >= 0, finalDelay.lowerBound >= 0 else {
            throw EngineError.invalidConfig("carrier delays cannot be negative")
        }
        guard let url = URL(string: shortLinkBase), url.scheme != nil, url.host != nil else {
            throw EngineError.invalidConfig("short link base \"\(shortLinkBase)\" is not an absolute URL")
        }
        if let plainLink, URL(string: plainLink)?.host == nil || !(plainLink.hasPrefix("https://") || plainLink.hasPrefix("http://")) {
            throw EngineError.invalidConfig("link \"\(plainLink)\" is not an absolute http(s) URL")
        }
        guard maxDestinations > 0 else { throw EngineError.invalidConfig("max destinations must be positive") }
        guard pricePerSegment >= 0 else { throw EngineError.invalidConfig("price cannot be negative") }
    }
}

/// Errors of the engine's admin methods (the wire answers with `APIError` responses instead).
public enum EngineError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidConfig(String)
    case unknownApplication(String)
    case invalidJWTSecret(String)
    case invalidArgument(String)
    case storage(String)

    public var description: String {
        switch self {
        case .invalidConfig(let t): return "invalid engine configuration: \(t)"
        case .unknownApplication(let k): return "no application with key \(k)"
        case .invalidJWTSecret(let t): return "invalid JWT secret: \(t)"
        case .invalidArgument(let t): return t
        case .storage(let t): return "engine storage error: \(t)"
        }
    }
}
