import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// Wraps a platform to count calls and to refuse chosen ones (as a flaky server would).
public final class CountingPlatform: MessagingPlatform, @unchecked Sendable {
    public let inner: any MessagingPlatform
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    /// Inbox fetches with a bearer token to refuse with UNAUTHORIZED before reaching the platform.
    public var refuseBearerFetches = 0
    /// Sends to refuse with this error before reaching the platform.
    public var refuseSends: APIError?

    public init(_ inner: any MessagingPlatform) { self.inner = inner }

    public func count(_ name: String) -> Int { lock.withLock { counts[name, default: 0] } }
    private func bump(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }
    private func takeRefusal() -> Bool {
        lock.withLock {
            guard refuseBearerFetches > 0 else { return false }
            refuseBearerFetches -= 1
            return true
        }
    }

    public func sendInvitation(_ body: SendInvitationBody) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        bump("send")
        if let refusal = lock.withLock({ refuseSends }) { throw refusal }
        return try await inner.sendInvitation(body)
    }
    public func deliveryInfos(bulkId: String) async throws(APIError) -> [DeliveryInfo] {
        bump("deliveryInfos"); return try await inner.deliveryInfos(bulkId: bulkId)
    }
    public func bulkSchedule(bulkId: String) async throws(APIError) -> BulkSchedule { try await inner.bulkSchedule(bulkId: bulkId) }
    public func rescheduleBulk(bulkId: String, sendAt: Date) async throws(APIError) -> BulkSchedule {
        try await inner.rescheduleBulk(bulkId: bulkId, sendAt: sendAt)
    }
    public func cancelBulk(bulkId: String) async throws(APIError) -> BulkSchedule { try await inner.cancelBulk(bulkId: bulkId) }
    public func optOuts() async throws(APIError) -> [OptOut] { try await inner.optOuts() }
    public func addOptOut(number: String) async throws(APIError) -> OptOut { try await inner.addOptOut(number: number) }
    public func removeOptOut(number: String) async throws(APIError) { try await inner.removeOptOut(number: number) }
    public func getMessage(key: String) async throws(APIError) -> ApplicationMessage { try await inner.getMessage(key: key) }
    public func createMessage(_ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage { try await inner.createMessage(body) }
    public func updateMessage(key: String, _ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage {
        try await inner.updateMessage(key: key, body)
    }
    public func fetchInbox(externalUserId: String, filter: InboxFilter, auth: InboxAuth) async throws(APIError) -> InboxResponse {
        bump("fetchInbox")
        if case .bearer = auth, takeRefusal() { throw APIError.unauthorized }
        return try await inner.fetchInbox(externalUserId: externalUserId, filter: filter, auth: auth)
    }
    public func markSeen(externalUserId: String, messages: [SeenBody.SeenMessage]) async throws(APIError) {
        bump("markSeen"); try await inner.markSeen(externalUserId: externalUserId, messages: messages)
    }
    public func referralLink(_ subject: GetReferralLink.Subject) async throws(APIError) -> ReferralLink { try await inner.referralLink(subject) }
    public func applicationSettings() async throws(APIError) -> ApplicationSettings { try await inner.applicationSettings() }
    public func updateApplicationSettings(_ body: ApplicationSettingsBody) async throws(APIError) -> ApplicationSettings {
        try await inner.updateApplicationSettings(body)
    }
}
