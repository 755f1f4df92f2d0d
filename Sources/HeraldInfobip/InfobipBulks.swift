import Foundation
import HeraldAPI

/// Infobip's calls on a scheduled bulk (one sent with `options.schedule.sendAt`): when it leaves, moving it, and its
/// state, pausing, resuming or cancelling it. Infobip holds such a bulk until its time whether Herald runs or not.
/// The bulk id goes in the query (`?bulkId=`), percent-encoded by the transport. Every failure is an `InfobipError`;
/// Infobip answers these calls in its older envelope (`requestError.serviceException`), 404 `NOT_FOUND` for a bulk
/// it does not hold.
extension InfobipHTTP {
    /// Reading a bulk's time or state: `sms:message:send` or `sms:manage` (SMS 3.210.0, `x-scopes`).
    static let bulkReadScopes = "reading a scheduled bulk needs sms:message:send (or sms:manage)"
    /// Moving, pausing, resuming or cancelling a bulk: `sms:manage` only.
    static let bulkManageScopes = "moving or cancelling a scheduled bulk needs sms:manage"

    /// `GET /sms/1/bulks?bulkId=`: when a scheduled bulk leaves.
    func schedule(bulkId: String) async throws(InfobipError) -> InfobipBulkSchedule {
        try await bulkCall(InfobipBulkSchedule.self, .get, "/sms/1/bulks", bulkId: bulkId, body: nil, scopes: Self.bulkReadScopes)
    }

    /// `PUT /sms/1/bulks?bulkId=` with `{"sendAt": …}`: moves a scheduled bulk to `sendAt` (at most 180 days ahead).
    /// The answer is the bulk's time as Infobip now holds it.
    func reschedule(bulkId: String, sendAt: Date) async throws(InfobipError) -> InfobipBulkSchedule {
        try await bulkCall(InfobipBulkSchedule.self, .put, "/sms/1/bulks", bulkId: bulkId,
                           body: try Self.encoded(InfobipBulkSchedule(sendAt: sendAt)), scopes: Self.bulkManageScopes)
    }

    /// `GET /sms/1/bulks/status?bulkId=`: where a scheduled bulk stands (`PENDING`, `PAUSED`, `PROCESSING`, `CANCELED`,
    /// `FINISHED`, `FAILED`).
    func status(bulkId: String) async throws(InfobipError) -> InfobipBulkStatus {
        try await bulkCall(InfobipBulkStatus.self, .get, "/sms/1/bulks/status", bulkId: bulkId, body: nil,
                           scopes: Self.bulkReadScopes)
    }

    /// `PUT /sms/1/bulks/status?bulkId=` with `{"status": …}`: `.paused` holds a bulk, `.processing` resumes it,
    /// `.canceled` takes it back, all of it. A bulk that already left cannot be taken back: Infobip refuses (an
    /// `InfobipError.rejected`, 400), and `status(bulkId:)` then says which it was: `.processing` or `.finished` (it left
    /// whole), `.canceled` (a repeat of a cancel whose answer was lost: nothing left). The call is repeated after a lost
    /// answer or a 5xx, like any other that may be.
    func setStatus(bulkId: String, status: InfobipBulkStatus.Status) async throws(InfobipError) -> InfobipBulkStatus {
        try await bulkCall(InfobipBulkStatus.self, .put, "/sms/1/bulks/status", bulkId: bulkId,
                           body: try Self.encoded(InfobipBulkStatus(status: status)), scopes: Self.bulkManageScopes)
    }

    /// One call on a bulk; a refusal for want of a scope names the scope these calls need.
    private func bulkCall<T: Decodable>(_ type: T.Type, _ method: HTTPMethod, _ path: String, bulkId: String, body: Data?,
                                        scopes: String) async throws(InfobipError) -> T {
        do {
            return try await call(type, method, path, query: [("bulkId", bulkId)], body: body)
        } catch {
            if case .missingScope(let detail, _, let source) = error {
                throw .missingScope(detail: detail, needs: scopes, source: source)
            }
            throw error
        }
    }

    private static func encoded(_ body: some Encodable) throws(InfobipError) -> Data {
        do { return try JSONEncoder().encode(body) } catch { throw .unreadable("cannot encode the request: \(error)") }
    }
}
