import Foundation

/// The ranges `[infobip] lookup_grace` and `hand_over_lease` are taken in, in seconds.
public enum InfobipLimits {
    public static let lookupGrace: ClosedRange<Double> = 60...86_400
    public static let handOverLease: ClosedRange<Double> = 5...3_600
    public static let reportDeadline: ClosedRange<Double> = 60...86_400
    public static let logsPerMinute: ClosedRange<Int> = 1...120
}

/// How delivery reports reach Herald.
public enum InfobipReportRoute: String, Sendable, Hashable {
    /// The logs are read when reports fall due: a terminal's own engine, where nothing runs between reads.
    case logs
    /// Infobip's report queue (`GET /sms/3/reports`, each report given once) is collected every `reportInterval`, or
    /// Infobip pushes them to the report webhook once the carrier has its address; the logs only look up what no
    /// report told by `reportDeadline`. A server's carrier.
    case reports
}

/// How to reach an Infobip account: the SMS API (base URL and API key) and the Mobile Messaging inbox
/// (its base URL and application code). The key is never printed or logged.
public struct InfobipSettings: Sendable, Hashable {
    /// The account's API base URL, e.g. `https://xxxxx.api.infobip.com`.
    public var baseURL: URL
    public var apiKey: String
    /// Where the key was configured, named in the message when Infobip refuses it
    /// ("[infobip] api_key in ~/.config/herald/config.toml", "HERALD_INFOBIP_API_KEY").
    public var apiKeySource: String
    /// Mobile Messaging's base URL (the inbox); `https://mobile.infobip.com` unless told otherwise.
    public var mobileBaseURL: URL
    /// The Mobile Messaging application code (the inbox); nil when only SMS is used.
    public var applicationCode: String?
    /// The page invitations link to (Herald's short links exist only on a Herald server).
    public var link: String?
    /// Seconds between two asks for delivery reports of a message still on its way.
    public var reportInterval: Double
    /// Most messages in one send request; a bigger bulk is split.
    public var maxMessagesPerRequest: Int
    /// How many times a call is tried when Infobip is busy (429) or failing (5xx) before the pass gives up.
    public var attempts: Int
    /// The longest `Retry-After` waited for inside one call; a longer one defers the work to a later pass.
    public var maxRetryWait: Double
    /// Seconds a message whose hand-over answer was lost is looked up in Infobip's logs (which promise no delay)
    /// before it is called uncertain; it is never sent again meanwhile.
    public var lookupGrace: Double = 600
    /// Seconds messages claimed for a send request stay with the process that claimed them; after that (the process
    /// died, or the answer was lost) they are looked up, never posted again. Longer than a call can take.
    public var handOverLease: Double = 120
    /// How delivery reports come (see `InfobipReportRoute`).
    public var reports: InfobipReportRoute = .logs
    /// Seconds a message on its way waits for a report (pushed or queued) before its log is read instead: a report lost
    /// to a crash between collecting and storing it is recovered so.
    public var reportDeadline: Double = 900
    /// Send requests posted at once by a pass (each a chunk of `maxMessagesPerRequest`).
    public var requestsInFlight = 2
    /// Requests to `GET /sms/3/logs` a minute, shared by every pass of this process (Infobip allows 120).
    public var logsPerMinute = 120
    /// What every message carries on Infobip (`[infobip.send]`).
    public var sendOptions = InfobipSendOptions()

    public static let defaultMobileBaseURL = URL(string: "https://mobile.infobip.com")!

    public init(baseURL: URL, apiKey: String, apiKeySource: String = "[infobip] api_key",
                mobileBaseURL: URL = InfobipSettings.defaultMobileBaseURL, applicationCode: String? = nil,
                link: String? = nil, reportInterval: Double = 8, maxMessagesPerRequest: Int = 100, attempts: Int = 3,
                maxRetryWait: Double = 30) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.apiKeySource = apiKeySource
        self.mobileBaseURL = mobileBaseURL
        self.applicationCode = applicationCode
        self.link = link
        self.reportInterval = reportInterval
        self.maxMessagesPerRequest = maxMessagesPerRequest
        self.attempts = attempts
        self.maxRetryWait = maxRetryWait
    }
}
