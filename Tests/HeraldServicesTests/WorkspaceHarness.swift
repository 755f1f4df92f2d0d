import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldStore
@testable import HeraldServices
import HeraldEmbedded

/// A workspace on a temporary data directory with a manual clock; the folder goes with the harness.
final class WorkspaceHarness: @unchecked Sendable {
    let dir: TempDir
    let clock: ManualClock
    let workspace: Workspace

    static let hr = try! PhoneNumberParser(defaultRegion: "HR")

    static func config(tracker: TrackerSettings = .default, jwtKeyId: String? = nil, jwtSecret: String? = nil) -> WorkspaceConfig {
        WorkspaceConfig(region: "HR", sender: "Herald", senderName: "Ana", tracker: tracker,
                        sendRetry: SendRetry(attempts: 4, baseDelay: 0, maxDelay: 0), inboxJWTKeyId: jwtKeyId, inboxJWTSecretHex: jwtSecret)
    }

    init(config: WorkspaceConfig = WorkspaceHarness.config(), engine: EngineConfig = EngineConfig(), dir: TempDir? = nil,
         clock: ManualClock = ManualClock()) async throws {
        self.dir = try dir ?? TempDir()
        self.clock = clock
        workspace = try await Workspace.open(dataDirectory: self.dir.url, config: config, engine: engine, clock: clock)
    }

    /// Another workspace on the same data directory (a second Herald process).
    func reopen(config: WorkspaceConfig = WorkspaceHarness.config(), engine: EngineConfig = EngineConfig()) async throws -> Workspace {
        try await Workspace.open(dataDirectory: dir.url, config: config, engine: engine, clock: clock)
    }

    /// Stores a person with these numbers (as written).
    @discardableResult
    func person(_ first: String, _ last: String = "Test", numbers: [String], emails: [String] = []) throws -> Person {
        let p = Person(firstName: first, lastName: last,
                       phones: numbers.map { LabeledPhone(label: "mobile", number: Self.hr.parse($0)) },
                       emails: emails.map { LabeledEmail(label: "home", address: $0) })
        return try workspace.contacts.insert(p)
    }

    /// A valid Croatian mobile number, distinct per index.
    static func mobile(_ i: Int) -> String { "+38591" + String(format: "%07d", 1_000_000 + i) }

    /// People with one mobile number each, stored.
    func people(_ count: Int, from start: Int = 0) throws -> [Person] {
        try (start..<(start + count)).map { try person("P\($0)", numbers: [Self.mobile($0)]) }
    }

    /// Messages the engine holds for a bulk.
    func engineMessages(bulkId: String) async throws -> [SentMessage] {
        try await workspace.engine.messages(bulkId: bulkId)
    }
}

/// Wraps a platform to count calls and to refuse chosen ones (as a flaky server would).
final class CountingPlatform: MessagingPlatform, @unchecked Sendable {
    let inner: any MessagingPlatform
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    /// Inbox fetches with a bearer token to refuse with UNAUTHORIZED before reaching the platform.
    var refuseBearerFetches = 0
    /// Sends to refuse with this error before reaching the platform.
    var refuseSends: APIError?

    init(_ inner: any MessagingPlatform) { self.inner = inner }

    func count(_ name: String) -> Int { lock.withLock { counts[name, default: 0] } }
    private func bump(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }
    private func takeRefusal() -> Bool {
        lock.withLock {
            guard refuseBearerFetches > 0 else { return false }
            refuseBearerFetches -= 1
            return true
        }
    }

    func sendInvitation(_ body: SendInvitationBody) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        bump("send")
        if let refusal = lock.withLock({ refuseSends }) { throw refusal }
        return try await inner.sendInvitation(body)
    }
    func deliveryInfos(bulkId: String) async throws(APIError) -> [DeliveryInfo] {
        bump("deliveryInfos"); return try await inner.deliveryInfos(bulkId: bulkId)
    }
    func bulkSchedule(bulkId: String) async throws(APIError) -> BulkSchedule { try await inner.bulkSchedule(bulkId: bulkId) }
    func rescheduleBulk(bulkId: String, sendAt: Date) async throws(APIError) -> BulkSchedule {
        try await inner.rescheduleBulk(bulkId: bulkId, sendAt: sendAt)
    }
    func cancelBulk(bulkId: String) async throws(APIError) -> BulkSchedule { try await inner.cancelBulk(bulkId: bulkId) }
    func optOuts() async throws(APIError) -> [OptOut] { try await inner.optOuts() }
    func addOptOut(number: String) async throws(APIError) -> OptOut { try await inner.addOptOut(number: number) }
    func removeOptOut(number: String) async throws(APIError) { try await inner.removeOptOut(number: number) }
    func getMessage(key: String) async throws(APIError) -> ApplicationMessage { try await inner.getMessage(key: key) }
    func createMessage(_ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage { try await inner.createMessage(body) }
    func updateMessage(key: String, _ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage {
        try await inner.updateMessage(key: key, body)
    }
    func fetchInbox(externalUserId: String, filter: InboxFilter, auth: InboxAuth) async throws(APIError) -> InboxResponse {
        bump("fetchInbox")
        if case .bearer = auth, takeRefusal() { throw APIError.unauthorized }
        return try await inner.fetchInbox(externalUserId: externalUserId, filter: filter, auth: auth)
    }
    func markSeen(externalUserId: String, messages: [SeenBody.SeenMessage]) async throws(APIError) {
        bump("markSeen"); try await inner.markSeen(externalUserId: externalUserId, messages: messages)
    }
    func referralLink(_ subject: GetReferralLink.Subject) async throws(APIError) -> ReferralLink { try await inner.referralLink(subject) }
    func applicationSettings() async throws(APIError) -> ApplicationSettings { try await inner.applicationSettings() }
    func updateApplicationSettings(_ body: ApplicationSettingsBody) async throws(APIError) -> ApplicationSettings {
        try await inner.updateApplicationSettings(body)
    }
}
