import Foundation
import Testing
@testable import HeraldAPI

@Suite struct EndpointTests {
    @Test func sendInvitationRequest() throws {
        let ep = SendInvitation(secret: "s3cret", body: SendInvitationBody(messageKey: "k", sender: "Herald",
                                                                          destinations: [.init(address: "385981234567")]))
        let r = try ep.request()
        #expect(r.method == .post)
        #expect(r.path == "/1/social-invite/invitation")
        #expect(r.header("authorization") == "App s3cret")
        #expect(r.header("Content-Type") == "application/json")
        let body = try HeraldJSON.decode(SendInvitationBody.self, from: try #require(r.body))
        #expect(body.recipients.destinations.first?.address == "385981234567")
    }

    @Test func externalUserIdIsPercentEncodedAndMatchedBack() throws {
        let user = "Ana/Marić ?#%&+ x"
        let ep = FetchInbox(credential: .bearer("tok"), externalUserId: user, topic: "promo",
                            from: Date(epochMilliseconds: 1000), to: Date(epochMilliseconds: 2000), limit: 5)
        let r = try ep.request()
        #expect(r.method == .get)
        #expect(!r.path.dropFirst().contains("?"))
        #expect(r.path.hasPrefix("/mobile/1/user/Ana%2FMari"))
        #expect(r.header("Authorization") == "Bearer tok")
        #expect(r.query == ["messageTopic": "promo", "dateTimeFrom": "1000", "dateTimeTo": "2000", "limit": "5"])
        #expect(r.body == nil)
        #expect(FetchInbox.path.match(r.path) == ["externalUserId": user])
    }

    @Test func userIdsDifferingInCaseStayDifferent() throws {
        let a = try FetchInbox(credential: .app("c"), externalUserId: "User1").request().path
        let b = try FetchInbox(credential: .app("c"), externalUserId: "user1").request().path
        #expect(a != b)
    }

    @Test func emptyPathParameterIsRefused() {
        #expect(throws: APIError.self) { try GetDeliveryInfos(secret: "s", bulkId: "").request() }
    }

    @Test func templatesMatchOnlyTheirOwnPaths() {
        let t = GetApplicationMessage.path
        #expect(t.match("/1/social-invite/application/app%201/message/m1") == ["applicationKey": "app 1", "messageId": "m1"])
        #expect(t.match("/1/social-invite/application/app/message") == nil)
        #expect(t.match("/1/social-invite/application/app/messages/m1") == nil)
        #expect(CreateApplicationMessage.path.match("/1/social-invite/application/app/message") == ["applicationKey": "app"])
    }

    @Test func decodeTurnsErrorsIntoAPIError() {
        let ep = GetDeliveryInfos(secret: "s", bulkId: "b")
        let notFound = APIError.notFound(GetDeliveryInfos.unknownBulkText).response
        #expect(throws: APIError.notFound("Message not found for specified request ID")) { try ep.decode(notFound) }
        #expect(throws: APIError.self) { try ep.decode(APIResponse(status: 200, body: Data("{}".utf8))) }
    }

    @Test func emptyResponseAcceptsAnEmptyBody() throws {
        let ep = MarkInboxSeen(applicationCode: "code", body: SeenBody(externalUserId: "u", messages: []))
        #expect(try ep.request().header("Authorization") == "App code")
        #expect(try ep.decode(APIResponse(status: 200)) == EmptyResponse())
    }

    @Test func credentialParsing() {
        #expect(Credential(headerValue: "App abc") == .app("abc"))
        #expect(Credential(headerValue: "bearer x.y.z") == .bearer("x.y.z"))
        #expect(Credential(headerValue: "Basic abc") == nil)
        #expect(Credential(headerValue: "App ") == nil)
        #expect(Credential(headerValue: "App") == nil)
    }

    @Test func referralQuery() throws {
        let r = try GetReferralLink(secret: "s", applicationKey: "a", subject: .referrer("ana")).request()
        #expect(r.path == "/herald/1/application/a/referral")
        #expect(r.query == ["referrer": "ana"])
    }
}
