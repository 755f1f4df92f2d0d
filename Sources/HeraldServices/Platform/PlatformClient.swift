import Foundation
import HeraldAPI
import HeraldCore

/// A `MessagingPlatform` that speaks the HeraldAPI wire protocol over any transport:
/// it builds each endpoint's request (JSON body, credential, path), hands it to the transport
/// and decodes the answer, turning error envelopes into typed `APIError`s.
public struct PlatformClient: MessagingPlatform {
    public let credentials: PlatformCredentials
    public let transport: any PlatformTransport

    public init(credentials: PlatformCredentials, transport: any PlatformTransport) {
        self.credentials = credentials
        self.transport = transport
    }

    /// Sends any endpoint and decodes its answer.
    public func call<E: Endpoint>(_ endpoint: E) async throws(APIError) -> E.Response {
        let request = try endpoint.request()
        let response = try await transport.send(request)
        return try endpoint.decode(response)
    }

    public func sendInvitation(_ body: SendInvitationBody) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        guard !body.recipients.destinations.isEmpty else {
            throw APIError.invalidRequest("no destinations: pick at least one person with a number")
        }
        guard body.recipients.destinations.count <= SendInvitation.maxDestinations else {
            throw APIError.invalidRequest("at most \(SendInvitation.maxDestinations) destinations per request, got \(body.recipients.destinations.count)")
        }
        return try await call(SendInvitation(secret: credentials.applicationSecret, body: body)).sendSmsResponse
    }

    public func deliveryInfos(bulkId: String) async throws(APIError) -> [DeliveryInfo] {
        try await call(GetDeliveryInfos(secret: credentials.applicationSecret, bulkId: bulkId)).deliveryInfoList.deliveryInfo
    }

    public func bulkSchedule(bulkId: String) async throws(APIError) -> BulkSchedule {
        try await call(GetBulkSchedule(secret: credentials.applicationSecret, bulkId: bulkId))
    }

    public func rescheduleBulk(bulkId: String, sendAt: Date) async throws(APIError) -> BulkSchedule {
        try await call(RescheduleBulk(secret: credentials.applicationSecret, bulkId: bulkId, sendAt: sendAt))
    }

    public func cancelBulk(bulkId: String) async throws(APIError) -> BulkSchedule {
        try await call(CancelBulk(secret: credentials.applicationSecret, bulkId: bulkId))
    }

    public func optOuts() async throws(APIError) -> [OptOut] {
        try await call(ListOptOuts(secret: credentials.applicationSecret)).optOuts
    }

    public func addOptOut(number: String) async throws(APIError) -> OptOut {
        try await call(AddOptOut(secret: credentials.applicationSecret, number: number))
    }

    public func removeOptOut(number: String) async throws(APIError) {
        _ = try await call(RemoveOptOut(secret: credentials.applicationSecret, number: number))
    }

    public func getMessage(key: String) async throws(APIError) -> ApplicationMessage {
        try await call(GetApplicationMessage(secret: credentials.applicationSecret,
                                             applicationKey: credentials.applicationKey, messageId: key))
    }

    public func createMessage(_ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage {
        try await call(CreateApplicationMessage(secret: credentials.applicationSecret,
                                                applicationKey: credentials.applicationKey, body: body))
    }

    public func updateMessage(key: String, _ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage {
        try await call(UpdateApplicationMessage(secret: credentials.applicationSecret,
                                                applicationKey: credentials.applicationKey, messageId: key, body: body))
    }

    public func fetchInbox(externalUserId: String, filter: InboxFilter, auth: InboxAuth) async throws(APIError) -> InboxResponse {
        let credential: Credential
        switch auth {
        case .applicationCode:
            credential = .app(credentials.applicationCode)
        case .bearer(let token):
            credential = .bearer(token)
        case .jwt(let minter):
            do {
                credential = .bearer(try await minter.mint(for: externalUserId))
            } catch {
                throw APIError.invalidRequest("cannot make an inbox token: \(userMessage(for: error))")
            }
        }
        return try await call(FetchInbox(credential: credential, externalUserId: externalUserId, topic: filter.topic,
                                          from: filter.from, to: filter.to, limit: filter.limit))
    }

    public func markSeen(externalUserId: String, messages: [SeenBody.SeenMessage]) async throws(APIError) {
        guard !messages.isEmpty else { return }
        _ = try await call(MarkInboxSeen(applicationCode: credentials.applicationCode,
                                         body: SeenBody(externalUserId: externalUserId, messages: messages)))
    }

    public func referralLink(_ subject: GetReferralLink.Subject) async throws(APIError) -> ReferralLink {
        try await call(GetReferralLink(secret: credentials.applicationSecret,
                                       applicationKey: credentials.applicationKey, subject: subject))
    }

    public func applicationSettings() async throws(APIError) -> ApplicationSettings {
        try await call(GetApplicationSettings(secret: credentials.applicationSecret,
                                              applicationKey: credentials.applicationKey))
    }

    public func updateApplicationSettings(_ body: ApplicationSettingsBody) async throws(APIError) -> ApplicationSettings {
        try await call(UpdateApplicationSettings(secret: credentials.applicationSecret,
                                                 applicationKey: credentials.applicationKey, body: body))
    }
}
