import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldServices

/// A transport that records requests and answers from a script, as a server would.
final class ScriptedTransport: PlatformTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [APIResponse]
    private(set) var requests: [APIRequest] = []

    init(_ answers: [APIResponse]) { self.answers = answers }

    func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        guard let answer = record(request) else { throw APIError.transport("connection refused") }
        return answer
    }

    private func record(_ request: APIRequest) -> APIResponse? {
        lock.withLock {
            requests.append(request)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
    }

    var sent: [APIRequest] { lock.withLock { requests } }
}

func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> APIResponse {
    APIResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(text.utf8))
}

@Suite struct PlatformClientTests {
    let credentials = PlatformCredentials(applicationKey: "app/1", applicationSecret: "s3cret", applicationCode: "code-7")

    func bodyObject(_ request: APIRequest) throws -> [String: Any] {
        let data = try #require(request.body)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func sendInvitationPostsTheWireBodyAndReadsTheBulk() async throws {
        let transport = ScriptedTransport([json("""
            {"sendSmsResponse": {"bulkId": "B-1", "deliveryInfoUrl": "/1/smsmessaging/outbound/requests/B-1/deliveryInfos",
             "responses": [{"messageId": "m1", "status": "MessageWaiting", "price": 0.01},
                           {"messageId": "m2", "status": "DeleveredToNetwork", "price": 0.01}]}}
            """)])
        let client = PlatformClient(credentials: credentials, transport: transport)
        let body = SendInvitationBody(messageKey: "welcome", sender: "Herald", destinations: [
            .init(address: "385981234567", messageId: "c1", clientData: ["Ana", "Marko"]),
            .init(address: "385911111111", messageId: "c2"),
        ])
        let answer = try await client.sendInvitation(body)
        #expect(answer.bulkId == "B-1")
        #expect(answer.responses.map(\.status) == [.messageWaiting, .deliveredToNetwork])
        let request = try #require(transport.sent.first)
        #expect(request.method == .post)
        #expect(request.path == "/1/social-invite/invitation")
        #expect(request.header("authorization") == "App s3cret")
        #expect(request.header("Content-Type") == "application/json")
        let sent = try bodyObject(request)
        #expect(sent["messageKey"] as? String == "welcome")
        #expect(sent["sender"] as? String == "Herald")
        let destinations = try #require((sent["recipients"] as? [String: Any])?["destinations"] as? [[String: Any]])
        #expect(destinations.count == 2)
        #expect(destinations[0]["address"] as? String == "385981234567")
        #expect(destinations[0]["clientData"] as? [String] == ["Ana", "Marko"])
    }

    @Test func emptyOrOversizedBulksNeverReachThePlatform() async {
        let transport = ScriptedTransport([])
        let client = PlatformClient(credentials: credentials, transport: transport)
        await #expect(throws: APIError.self) {
            try await client.sendInvitation(SendInvitationBody(messageKey: "k", sender: "s", destinations: []))
        }
        let many = (0...SendInvitation.maxDestinations).map { SendInvitationBody.Destination(address: "3859800\($0)") }
        await #expect(throws: APIError.self) {
            try await client.sendInvitation(SendInvitationBody(messageKey: "k", sender: "s", destinations: many))
        }
        #expect(transport.sent.isEmpty)
    }

    @Test func deliveryInfosUseTheEncodedBulkIdAndParseStatuses() async throws {
        let transport = ScriptedTransport([json("""
            {"deliveryInfoList": {"resourceURL": "x", "deliveryInfo": [
              {"address": "385981234567", "messageId": "m1", "clientCorrelator": "B 1", "deliveryStatus": "DeliveredToTerminal", "price": 0.01},
              {"address": "385911111111", "deliveryStatus": "SomethingNew"}]}}
            """)])
        let infos = try await PlatformClient(credentials: credentials, transport: transport).deliveryInfos(bulkId: "B 1")
        #expect(infos.map(\.deliveryStatus) == [.deliveredToTerminal, .unknown])
        #expect(transport.sent.first?.path == "/1/smsmessaging/outbound/requests/B%201/deliveryInfos")
    }

    @Test func errorEnvelopesBecomeTypedErrors() async throws {
        let transport = ScriptedTransport([
            json(#"{"requestError": {"serviceException": {"messageId": "NOT_FOUND", "text": "Message not found for specified request ID"}}}"#, status: 404),
            json(#"{"requestError": {"serviceException": {"messageId": "TOO_MANY_REQUESTS", "text": "Too many requests"}}}"#, status: 429, headers: ["Retry-After": "12"]),
            json(#"{"requestError": {"serviceException": {"messageId": "BAD_REQUEST", "text": "Invalid text", "validationErrors": {"text": ["must not be empty"]}}}}"#, status: 400),
            APIResponse(status: 502, body: Data("<html>bad gateway</html>".utf8)),
            json(#"{"unexpected": true}"#),
        ])
        let client = PlatformClient(credentials: credentials, transport: transport)
        await #expect(throws: APIError.notFound("Message not found for specified request ID")) { try await client.deliveryInfos(bulkId: "nope") }
        await #expect(throws: APIError.tooManyRequests(retryAfter: 12)) { try await client.deliveryInfos(bulkId: "b") }
        await #expect(throws: APIError.badRequest("Invalid text", validationErrors: ["text": ["must not be empty"]])) {
            try await client.updateMessage(key: "k", ApplicationMessageBody(text: ""))
        }
        await #expect(throws: APIError.server(status: 502, text: "Bad gateway")) { try await client.getMessage(key: "k") }
        do {
            _ = try await client.getMessage(key: "k")
            Issue.record("a body of the wrong shape must not decode")
        } catch {
            guard case .invalidResponse = error else { Issue.record("got \(error)"); return }
        }
        await #expect(throws: APIError.transport("connection refused")) { try await client.getMessage(key: "k") }
    }

    @Test func messagesUseTheApplicationKeyInThePath() async throws {
        let message = #"{"key": "welcome", "clientMobileApplicationKey": "app/1", "text": "Join me <>", "placeholder": "<>"}"#
        let transport = ScriptedTransport([json(message), json(message), json(message)])
        let client = PlatformClient(credentials: credentials, transport: transport)
        let got = try await client.getMessage(key: "welcome")
        #expect(got.text == "Join me <>")
        _ = try await client.createMessage(ApplicationMessageBody(key: "welcome", text: "Join me <>"))
        _ = try await client.updateMessage(key: "welcome", ApplicationMessageBody(text: "Join me <>"))
        #expect(transport.sent.map(\.method) == [.get, .post, .put])
        #expect(transport.sent.map(\.path) == ["/1/social-invite/application/app%2F1/message/welcome",
                                               "/1/social-invite/application/app%2F1/message",
                                               "/1/social-invite/application/app%2F1/message/welcome"])
        #expect(try bodyObject(transport.sent[2])["text"] as? String == "Join me <>")
    }

    @Test func inboxReadsCarryTheFilterAndTheChosenCredential() async throws {
        let page = #"{"countTotal": 2, "countUnread": 1, "messages": [{"messageId": "1", "silent": false, "aps": {"alert": {"body": "Hi"}}, "internalData": {"sendDateTime": 1643314503233, "inbox": {"seen": false, "topic": "promo"}}}]}"#
        let transport = ScriptedTransport([json(page), json(page), json(page)])
        let client = PlatformClient(credentials: credentials, transport: transport)
        let filter = InboxFilter(topic: "promo", from: Date(epochMilliseconds: 1000), to: Date(epochMilliseconds: 2000), limit: 5)
        let inbox = try await client.fetchInbox(externalUserId: "User 1", filter: filter, auth: .applicationCode)
        #expect(inbox.countUnread == 1)
        #expect(inbox.messages.first?.body == "Hi")
        let first = try #require(transport.sent.first)
        #expect(first.path == "/mobile/1/user/User%201/inbox/apns/messages")
        #expect(first.query == ["messageTopic": "promo", "dateTimeFrom": "1000", "dateTimeTo": "2000", "limit": "5"])
        #expect(first.header("Authorization") == "App code-7")

        _ = try await client.fetchInbox(externalUserId: "User 1", filter: InboxFilter(), auth: .bearer("tok"))
        #expect(transport.sent[1].header("Authorization") == "Bearer tok")

        let minter = try TokenMinter(config: InboxTokenConfig(keyId: "k", secretHex: String(repeating: "ab", count: 32),
                                                              applicationCode: "code-7"), clock: ManualClock())
        _ = try await client.fetchInbox(externalUserId: "User 1", filter: InboxFilter(), auth: .jwt(minter))
        let bearer = try #require(transport.sent[2].header("Authorization"))
        #expect(bearer.hasPrefix("Bearer ey") && bearer.split(separator: ".").count == 3)
    }

    @Test func markSeenPostsWithTheApplicationCodeAndSkipsEmptyLists() async throws {
        let transport = ScriptedTransport([APIResponse(status: 200)])
        let client = PlatformClient(credentials: credentials, transport: transport)
        try await client.markSeen(externalUserId: "u", messages: [])
        #expect(transport.sent.isEmpty)
        try await client.markSeen(externalUserId: "u", messages: [.init(messageId: "1", timestampDelta: 30)])
        let request = try #require(transport.sent.first)
        #expect(request.path == "/mobile/2/messages/seen")
        #expect(request.header("Authorization") == "App code-7")
        let body = try bodyObject(request)
        #expect(body["externalUserId"] as? String == "u")
        let messages = try #require(body["messages"] as? [[String: Any]])
        #expect(messages.first?["messageId"] as? String == "1")
        #expect(messages.first?["timestampDelta"] as? Int == 30)
        #expect(messages.first?["inbox"] as? Bool == true)
    }

    @Test func referralLinksAskByMessageOrReferrer() async throws {
        let link = #"{"url": "https://herald.invalid/r/k3J9x2", "code": "k3J9x2", "clicks": 3}"#
        let transport = ScriptedTransport([json(link), json(link)])
        let client = PlatformClient(credentials: credentials, transport: transport)
        let got = try await client.referralLink(.message(id: "m1"))
        #expect(got.clicks == 3)
        _ = try await client.referralLink(.referrer("Ana"))
        #expect(transport.sent.map(\.query) == [["messageId": "m1"], ["referrer": "Ana"]])
        #expect(transport.sent.allSatisfy { $0.path == "/herald/1/application/app%2F1/referral" })
    }
}
