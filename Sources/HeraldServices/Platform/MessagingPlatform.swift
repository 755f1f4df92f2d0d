import Foundation
import HeraldAPI
import HeraldCore

/// What the client asks of the messaging platform, whether embedded or over HTTP.
/// Every failure is a typed `APIError` (retry later, ask for a token, show the text…).
public protocol MessagingPlatform: Sendable {
    /// Sends invitations; answers with the bulk id and one response per destination.
    func sendInvitation(_ body: SendInvitationBody) async throws(APIError) -> SendInvitationResponse.SendSmsResponse
    /// The delivery state of every recipient of a bulk.
    func deliveryInfos(bulkId: String) async throws(APIError) -> [DeliveryInfo]
    /// Where a held bulk stands (held until when, left, taken back).
    func bulkSchedule(bulkId: String) async throws(APIError) -> BulkSchedule
    /// Moves what the platform still holds of a bulk to `sendAt`.
    func rescheduleBulk(bulkId: String, sendAt: Date) async throws(APIError) -> BulkSchedule
    /// Takes back what the platform still holds of a bulk.
    func cancelBulk(bulkId: String) async throws(APIError) -> BulkSchedule
    /// The application's numbers that opted out, newest first.
    func optOuts() async throws(APIError) -> [OptOut]
    /// Opts a number (E.164) out; answers the entry (as it was when it already was out).
    func addOptOut(number: String) async throws(APIError) -> OptOut
    /// Takes a number off the opt-out list.
    func removeOptOut(number: String) async throws(APIError)
    /// One of the application's messages (templates).
    func getMessage(key: String) async throws(APIError) -> ApplicationMessage
    func createMessage(_ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage
    func updateMessage(key: String, _ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage
    /// A page of a user's inbox, newest first.
    func fetchInbox(externalUserId: String, filter: InboxFilter, auth: InboxAuth) async throws(APIError) -> InboxResponse
    /// Marks inbox messages seen (always with the application code).
    func markSeen(externalUserId: String, messages: [SeenBody.SeenMessage]) async throws(APIError)
    /// The short link of a sent message, or a person's referral link.
    func referralLink(_ subject: GetReferralLink.Subject) async throws(APIError) -> ReferralLink
    func applicationSettings() async throws(APIError) -> ApplicationSettings
    /// Changes the application's settings (nil fields stay as they are); answers with all of them.
    func updateApplicationSettings(_ body: ApplicationSettingsBody) async throws(APIError) -> ApplicationSettings
}

/// How an inbox read authenticates.
public enum InboxAuth: Sendable {
    /// `App <application code>` (sandbox profiles only).
    case applicationCode
    /// A ready token.
    case bearer(String)
    /// A fresh token minted for the user on every call.
    case jwt(TokenMinter)
}

/// The keys of one application.
public struct PlatformCredentials: Sendable, Hashable {
    /// Identifies the application in paths (`/application/{applicationKey}/…`).
    public var applicationKey: String
    /// `App <secret>` for invitations, messages, delivery infos, links and settings.
    public var applicationSecret: String
    /// `App <code>` for inbox reads (sandbox) and marking seen.
    public var applicationCode: String

    public init(applicationKey: String, applicationSecret: String, applicationCode: String) {
        self.applicationKey = applicationKey
        self.applicationSecret = applicationSecret
        self.applicationCode = applicationCode
    }
}
