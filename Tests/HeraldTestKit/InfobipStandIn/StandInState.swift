import Foundation

/// What the Infobip stand-in holds: the account's key and application code, every message sent to it, how
/// each destination's message will end, scripted faults, the inbox and every request seen (for assertions).
public actor StandInState {
    /// How a destination's message ends, as `/sms/3/logs` tells it.
    public enum Fate: Sendable, Hashable {
        /// PENDING, then DELIVERED_TO_HANDSET (id 5).
        case delivered
        /// PENDING, then DELIVERED_TO_OPERATOR (id 2), then to the handset on the read after.
        case viaOperator
        /// DELIVERED_TO_OPERATOR for good.
        case atOperator
        /// UNDELIVERABLE_NOT_DELIVERED with a permanent error (absent subscriber for good).
        case undeliverable
        /// EXPIRED with a temporary error.
        case expired
        /// REJECTED (network not allowed) with a permanent error.
        case rejected
        /// A status group Herald has never heard of.
        case unknownGroup
        /// Never shows up in the logs.
        case neverLogged
    }

    public struct Sent: Sendable, Hashable {
        public var messageId: String
        public var bulkId: String
        public var destination: String
        public var sender: String
        public var text: String
        public var sentAt: Date
        /// How many logs reads have shown it.
        public var reads = 0
        /// Where its delivery reports are pushed (`webhooks.delivery.url`), with intermediate ones or not.
        public var webhook: String?
        public var intermediateReports = false
        public var callbackData: String?
        /// Held in its scheduled bulk, handed to the (simulated) network, or taken back with its bulk.
        public var stage = Stage.handedOver

        public enum Stage: Sendable, Hashable {
            /// Waiting for its bulk's `sendAt`: the logs show it PENDING, no report is written.
            case held
            /// Sent (`sentAt` says when): the logs and reports tell its fate.
            case handedOver
            /// Its bulk was cancelled before it left: it never reaches the network, and no log or report shows it.
            case canceled
        }
    }

    /// Infobip's `BulkStatus`, as `/sms/1/bulks/status` answers it.
    public enum BulkStatus: String, Sendable, Hashable, CaseIterable {
        case pending = "PENDING", paused = "PAUSED", processing = "PROCESSING", canceled = "CANCELED", finished = "FINISHED"
        case failed = "FAILED"
    }

    /// A bulk sent with `options.schedule.sendAt` (every request that scheduled messages under its id for the same time).
    public struct ScheduledBulk: Sendable, Hashable {
        public var bulkId: String
        public var sendAt: Date
        /// PENDING or PAUSED while held, CANCELED once taken back, FINISHED once it left (shown PROCESSING for
        /// `bulkProcessingTime` after leaving).
        public var state: BulkStatus
        /// Its messages, in the order they were accepted.
        public var messageIds: [String]
        /// When it left, all of it at once.
        public var leftAt: Date?
        public var canceledAt: Date?
    }

    /// A report pushed to a webhook: where, which message, the status name, and the webhook's answer (0: no answer).
    public struct WebhookCall: Sendable, Hashable {
        public var url: String
        public var messageId: String
        public var status: String
        public var answer: Int
    }

    public struct Recorded: Sendable, Hashable {
        public var method: String
        public var path: String
        public var query: [String]
        public var headers: [String: String]
        public var body: Data
        public var status: Int

        /// Values of a query key, in order (`bulkId` may repeat).
        public func values(_ key: String) -> [String] { queryValues(query, key) }
    }

    public struct Fault: Sendable, Hashable {
        public var pathPrefix: String
        /// Matching requests answered normally before this fault answers.
        public var skip = 0
        public var status: Int
        public var headers: [String: String]
        public var body: String
        /// The request is carried out first and only its answer is replaced (a lost or failed answer after the work).
        public var afterProcessing = false
    }

    public struct SeenMark: Sendable, Hashable {
        public var messageId: String
        public var timestampDelta: Int64
    }

    /// How far the stand-in's clock is ahead of the real one (`advanceClock`): scheduled bulks leave by it.
    public private(set) var clockOffset: TimeInterval = 0
    /// The stand-in's time: the real time moved on by `clockOffset`.
    public func now() -> Date { Date().addingTimeInterval(clockOffset) }
    /// Moves the clock on (never back), so that a scheduled bulk comes due without waiting for it; a due bulk leaves at
    /// the next request, or within a quarter second.
    public func advanceClock(by seconds: TimeInterval) { clockOffset += max(0, seconds) }

    /// Scheduled bulks by id.
    public internal(set) var scheduledBulks: [String: ScheduledBulk] = [:]
    /// Seconds a bulk that left is shown PROCESSING before FINISHED (0: FINISHED at once).
    public private(set) var bulkProcessingTime: TimeInterval = 0
    public func setBulkProcessingTime(_ seconds: TimeInterval) { bulkProcessingTime = max(0, seconds) }
    /// Whether a task is releasing held bulks at their time.
    var tickerRunning = false
    /// Servers running on this state: with none, no task releases held bulks.
    var serving = 0

    public nonisolated let apiKey: String
    public nonisolated let applicationCode: String
    public internal(set) var sent: [String: Sent] = [:]
    public private(set) var order: [String] = []
    public private(set) var requests: [Recorded] = []
    public private(set) var seen: [SeenMark] = []
    /// Messages whose final report waits in the report queue (`GET /sms/3/reports` gives each once), oldest first;
    /// the report itself is written when it is taken.
    var reportQueue: [Sent] = []
    public private(set) var webhookCalls: [WebhookCall] = []
    /// Each webhook report is pushed this many times (Infobip may call again; Herald must count it once).
    public var webhookRepeats = 1
    /// Seconds between a message's acceptance and its first pushed report.
    public var webhookDelay = 0.05
    public func setWebhookRepeats(_ n: Int) { webhookRepeats = max(1, n) }
    public func setWebhookDelay(_ seconds: Double) { webhookDelay = max(0, seconds) }
    var fates: [String: Fate] = [:]
    var faults: [Fault] = []
    /// Inbox payloads (JSON text) per external user id, newest first, exactly as served.
    var inbox: [String: [String]] = [:]
    /// Most results per logs page (small, so paging is exercised).
    public var logsPageSize = 50
    /// Requests `GET /sms/3/logs` takes a minute (Infobip publishes 120); more are answered E429.
    public var logsPerMinute = 120
    private var logsTimes: [Date] = []
    public func setLogsPerMinute(_ n: Int) { logsPerMinute = n }

    /// Counts a logs request; false when it is over the minute's limit (and not counted).
    func admitLogsRequest(at now: Date = Date()) -> Bool {
        logsTimes.removeAll { now.timeIntervalSince($0) >= 60 }
        guard logsTimes.count < logsPerMinute else { return false }
        logsTimes.append(now)
        return true
    }
    /// Answered as `New-Base-URL` by the inbox until a request arrives with it.
    public var moveInboxTo: String?
    var nextId = 1

    public init(apiKey: String = "stand-in-key", applicationCode: String = "stand-in-app-code") {
        self.apiKey = apiKey
        self.applicationCode = applicationCode
    }

    /// Scopes that let a key send SMS, and read their logs (Infobip's published scopes for each endpoint).
    public static let sendScopes: Set<String> = ["sms:message:send", "message:send", "sms:manage"]
    public static let logsScopes: Set<String> = ["sms:logs:read", "sms:manage"]
    /// Scopes of `GET /sms/1/bulks` and `GET /sms/1/bulks/status`; their `PUT`s take `sms:manage` only (SMS 3.210.0).
    public static let bulkReadScopes: Set<String> = ["sms:message:send", "sms:manage"]
    public static let bulkManageScopes: Set<String> = ["sms:manage"]
    /// Scopes of `GET /sms/1/inbox/reports` (received messages).
    public static let inboundScopes: Set<String> = ["sms:inbound-message:read", "sms:manage"]
    /// Keys besides `apiKey` (which has every scope), with their scopes.
    var otherKeys: [String: Set<String>] = [:]
    /// SMS people sent to the account's numbers, oldest first, until `GET /sms/1/inbox/reports` takes them (once each).
    var inbound: [Inbound] = []
    /// Every SMS received, taken or not.
    var inboundReceived: [Inbound] = []
    /// Where received SMS are pushed besides waiting for the pull, and how many times each body (`StandInInbound.swift`).
    var inboundWebhooks: [String] = []
    var inboundWebhookRepeats = 1
    /// Every push of received SMS to an inbound webhook, in order.
    public internal(set) var inboundPushes: [InboundPush] = []

    /// Adds a key with only these scopes.
    public func addKey(_ key: String, scopes: Set<String>) { otherKeys[key] = scopes }

    /// The scopes of a key, nil for a key Infobip would not know.
    func scopes(ofKey key: String) -> Set<String>? {
        key == apiKey ? Self.sendScopes.union(Self.logsScopes) : otherKeys[key]
    }

    public func setFate(_ fate: Fate, for destination: String) { fates[destination] = fate }
    /// Whether the logs were purged (Infobip keeps them 48 hours).
    public private(set) var logsExpired = false
    public func expireLogs() { logsExpired = true }
    public func setLogsPageSize(_ size: Int) { logsPageSize = size }
    public func setMoveInboxTo(_ url: String?) { moveInboxTo = url }

    /// The next `times` requests whose path starts with `pathPrefix` (after `skip` answered normally) get this answer.
    /// With `afterProcessing`, the request is carried out (messages accepted) and only its answer is the fault's.
    public func fail(_ pathPrefix: String, status: Int, headers: [String: String] = [:], body: String = "", times: Int = 1,
                     skip: Int = 0, afterProcessing: Bool = false) {
        for _ in 0..<times {
            faults.append(Fault(pathPrefix: pathPrefix, skip: skip, status: status, headers: headers, body: body,
                                afterProcessing: afterProcessing))
        }
    }

    /// Puts a message in a user's inbox as Mobile Messaging stores it (an APNs-shaped payload).
    public func addInbox(user: String, payloadJSON: String) {
        inbox[user, default: []].append(payloadJSON)
    }

    func takeFault(path: String) -> Fault? {
        guard let i = faults.firstIndex(where: { path.hasPrefix($0.pathPrefix) }) else { return nil }
        if faults[i].skip > 0 {
            faults[i].skip -= 1
            return nil
        }
        return faults.remove(at: i)
    }

    /// A fault taken but not spent goes back first in line.
    func putBack(_ fault: Fault) { faults.insert(fault, at: 0) }

    func record(_ request: Recorded) { requests.append(request) }

    func record(_ message: Sent) {
        if sent[message.messageId] == nil { order.append(message.messageId) }
        sent[message.messageId] = message
        noteInSentLog("\(message.destination) \(message.messageId) \(message.text.replacingOccurrences(of: "\n", with: " "))")
    }

    func queueReport(_ message: Sent) { reportQueue.append(message) }

    /// Takes up to `limit` queued reports matching the filters, oldest first (each is given once), as Infobip writes them.
    public func takeReports(limit: Int, bulkId: String?, messageId: String?) -> [String] {
        var taken: [Sent] = []
        var kept: [Sent] = []
        for message in reportQueue {
            let matches = (bulkId.map { message.bulkId == $0 } ?? true) && (messageId.map { message.messageId == $0 } ?? true)
            if matches, taken.count < limit { taken.append(message) } else { kept.append(message) }
        }
        reportQueue = kept
        return taken.compactMap { message in
            StandInRoutes.reportSequence(message, fate: fate(of: message.destination)).last.map { String(decoding: StandInRoutes.json($0), as: UTF8.self) }
        }
    }

    func recordWebhook(_ call: WebhookCall) {
        webhookCalls.append(call)
        noteInSentLog("webhook \(call.answer) \(call.messageId) \(call.status)")
    }

    /// Appends a line to the sent log, when there is one.
    func noteInSentLog(_ line: String) {
        guard let sentLog else { return }
        sentLog.seekToEndOfFile()
        sentLog.write(Data("\(line)\n".utf8))
    }

    /// Seconds a send request waits, once carried out, before it is answered (a slow Infobip: a test kills the
    /// sender meanwhile).
    public private(set) var sendAnswerDelay: Double = 0
    public func setSendAnswerDelay(_ seconds: Double) { sendAnswerDelay = seconds }

    /// When set, a line per destination of every accepted send request (`destination messageId text`; a scheduled one's
    /// when it is accepted), `answer-lost PATH` for each request carried out whose answer a fault replaced, and for
    /// scheduled bulks `bulk-left BULK COUNT` when one leaves, `bulk-canceled BULK COUNT`, `bulk-paused BULK`,
    /// `bulk-resumed BULK` and `bulk-rescheduled BULK SENDAT`: how tests of other processes count what reached the
    /// stand-in.
    var sentLog: FileHandle?
    public func setSentLog(_ path: String) throws {
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        sentLog = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func newId() -> String {
        defer { nextId += 1 }
        return String(format: "ib-%06d", nextId)
    }

    func fate(of destination: String) -> Fate { fates[destination] ?? .delivered }

    func noteRead(_ messageId: String) { sent[messageId]?.reads += 1 }

    func inboxPayloads(user: String) -> [String] { inbox[user] ?? [] }

    func markSeen(_ marks: [SeenMark], user: String) {
        seen += marks
        let ids = Set(marks.map(\.messageId))
        inbox[user] = inbox[user]?.map { text in
            guard var p = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
                  let id = p["messageId"] as? String, ids.contains(id) else { return text }
            var internalData = p["internalData"] as? [String: Any] ?? [:]
            var box = internalData["inbox"] as? [String: Any] ?? [:]
            box["seen"] = true
            internalData["inbox"] = box
            p["internalData"] = internalData
            return (try? JSONSerialization.data(withJSONObject: p)).map { String(decoding: $0, as: UTF8.self) } ?? text
        }
    }

    /// Messages accepted, in the order they arrived (scheduled ones too, whatever their stage).
    public var sentInOrder: [Sent] { order.compactMap { sent[$0] } }

    /// Messages handed to the network, in the order they were accepted: those sent at once, and those of scheduled bulks
    /// that left.
    public var handedOver: [Sent] { sentInOrder.filter { $0.stage == .handedOver } }

    /// Requests to paths starting with `prefix`.
    public func requests(to prefix: String) -> [Recorded] { requests.filter { $0.path.hasPrefix(prefix) } }
}

/// The values of `key` among decoded `name=value` query items, in order (a key may repeat).
func queryValues(_ query: [String], _ key: String) -> [String] {
    query.compactMap { item in
        let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
        return parts.first == key ? (parts.count > 1 ? parts[1] : "") : nil
    }
}
