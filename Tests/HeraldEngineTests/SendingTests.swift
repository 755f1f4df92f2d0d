import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

@Suite struct SendingTests {
    @Test func literalJSONSendAnswersOneBulkWithPricesAndWaitingStatus() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let json = """
        {"messageKey": "\(h.creds.messageKey)", "sender": "Herald",
         "recipients": {"destinations": [{"address": "385981234567", "messageId": "c-1", "clientData": ["Ana", "Marko", "custom text"]},
                                         {"address": "31612345678"}]}}
        """
        let response = await h.raw(.post, "/1/social-invite/invitation", json: json, auth: "App \(h.creds.secret)")
        #expect(response.status == 200)
        let root = jsonObject(response.body)["sendSmsResponse"] as? [String: Any]
        let bulkId = try #require(root?["bulkId"] as? String)
        #expect(root?["deliveryInfoUrl"] as? String == "/1/smsmessaging/outbound/requests/\(bulkId)/deliveryInfos")
        let responses = try #require(root?["responses"] as? [[String: Any]])
        #expect(responses.count == 2)
        #expect(responses[0]["messageId"] as? String == "c-1")
        #expect(responses.allSatisfy { $0["status"] as? String == "MessageWaiting" })
        #expect(responses.allSatisfy { ($0["price"] as? Double ?? 0) > 0 })
        #expect(responses.allSatisfy { $0["bulkId"] as? String == bulkId })
        let stored = try await h.engine.messages(bulkId: bulkId)
        #expect(stored.count == 2)
    }

    @Test func renderedTextFillsClientDataAndAUniqueLinkPerRecipient() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "a", clientData: ["Ana", "Marko"]),
                                    .init(address: Numbers.croatianMobile2, messageId: "b", clientData: ["Ana"])])
        let a = try #require(try await h.engine.sentMessage(applicationKey: h.creds.applicationKey, messageId: "a"))
        let b = try #require(try await h.engine.sentMessage(applicationKey: h.creds.applicationKey, messageId: "b"))
        let codeA = try #require(a.linkCode), codeB = try #require(b.linkCode)
        #expect(codeA != codeB)
        #expect(a.text == "Hi Marko, Ana invites you to Herald: https://herald.invalid/r/\(codeA)")
        #expect(b.text == "Hi, Ana invites you to Herald: https://herald.invalid/r/\(codeB)")
        #expect(r.responses.map(\.messageId) == ["a", "b"])
    }

    @Test func invalidDestinationsAreRejectedWithReasonsOthersAccepted() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = try await h.invite([
            .init(address: "385"), .init(address: "hello"), .init(address: ""), .init(address: "+385981234567"),
            .init(address: "18002530000"),
        ])
        let statuses = r.responses.map(\.status)
        #expect(statuses == [.rejected, .rejected, .rejected, .messageWaiting, .rejected])
        #expect(r.responses[0].reason?.contains("invalid number") == true)
        #expect(r.responses[1].reason?.contains("invalid number") == true)
        #expect(r.responses[2].reason == "empty address")
        #expect(r.responses[3].address == "385981234567")
        #expect(r.responses[4].reason?.contains("cannot receive SMS") == true)
        #expect(r.responses.filter { $0.status == .rejected }.allSatisfy { $0.price == 0 })
        // Only the accepted one reaches the carrier and the delivery infos.
        let infos = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: r.bulkId))
        #expect(infos.deliveryInfoList.deliveryInfo.map(\.address) == ["385981234567"])
    }

    @Test func invalidSenderIsABadRequestNamingTheRule() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        do {
            _ = try await h.invite([.init(address: Numbers.croatianMobile)], sender: "WayTooLongSender")
            Issue.record("expected a bad request")
        } catch {
            guard case .badRequest(_, let errors) = error else { Issue.record("got \(error)"); return }
            #expect(errors["sender"]?.first?.contains("at most 11") == true)
        }
    }

    @Test func atMostAThousandDestinations() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let tooMany = (0..<1001).map { _ in SendInvitationBody.Destination(address: Numbers.croatianMobile) }
        do {
            _ = try await h.invite(tooMany)
            Issue.record("expected a bad request")
        } catch {
            guard case .badRequest(let text, let errors) = error else { Issue.record("got \(error)"); return }
            #expect(text.contains("1000"))
            #expect(errors["recipients.destinations"] == ["at most 1000 destinations per request"])
        }
        let exactly = (0..<1000).map { i in SendInvitationBody.Destination(address: "3859812\(String(format: "%05d", i))") }
        let ok = try await h.invite(exactly)
        #expect(ok.responses.count == 1000)
        #expect(ok.responses.allSatisfy { $0.status == .messageWaiting })
    }

    @Test func emptyDestinationsUnknownMessageAndBadJSONAreBadRequests() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        await #expect(throws: APIError.self) { try await h.invite([]) }
        do {
            _ = try await h.invite([.init(address: Numbers.croatianMobile)], messageKey: "NOPE")
            Issue.record("expected a bad request")
        } catch {
            guard case .badRequest(_, let errors) = error else { Issue.record("got \(error)"); return }
            #expect(errors["messageKey"] != nil)
        }
        let bad = await h.raw(.post, "/1/social-invite/invitation", json: #"{"messageKey": 5}"#, auth: "App \(h.creds.secret)")
        #expect(bad.status == 400)
        #expect(jsonObject(bad.body)["requestError"] != nil)
    }

    @Test func sendingNeedsTheApplicationSecret() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald", destinations: [.init(address: Numbers.croatianMobile)])
        await #expect(throws: APIError.unauthorized) { try await h.call(SendInvitation(secret: "wrong", body: body)) }
        // The application code is not the secret.
        await #expect(throws: APIError.unauthorized) { try await h.call(SendInvitation(secret: h.creds.applicationCode, body: body)) }
        let none = await h.raw(.post, "/1/social-invite/invitation", json: "{}")
        #expect(none.status == 401)
        #expect(try await h.engine.messagesCount() == 0)
    }

    @Test func replayingMessageIdsNeverSendsTwice() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let destinations: [SendInvitationBody.Destination] = [
            .init(address: Numbers.croatianMobile, messageId: "m-1"), .init(address: "385", messageId: "m-2"),
        ]
        let first = try await h.invite(destinations)
        h.clock.advance(by: 60)
        let second = try await h.invite(destinations)
        #expect(second.bulkId == first.bulkId)
        #expect(second.responses.map(\.messageId) == ["m-1", "m-2"])
        #expect(second.responses[1].status == .rejected)
        #expect(second.responses[0].status != .messageWaiting)  // the current carrier state, a minute later
        #expect(try await h.engine.messagesCount() == 2)
        // A mix of old and new ids: one new bulk for the new ones, old results keep their bulk.
        let mixed = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "m-1"),
                                        .init(address: Numbers.dutchMobile, messageId: "m-3")])
        #expect(mixed.bulkId != first.bulkId)
        #expect(mixed.responses[0].bulkId == first.bulkId)
        #expect(mixed.responses[1].bulkId == mixed.bulkId)
        #expect(try await h.engine.messagesCount() == 3)
    }

    @Test func aDuplicateIdWithinOneRequestIsSentOnce() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "x"),
                                    .init(address: Numbers.croatianMobile, messageId: "x")])
        #expect(r.responses.count == 2)
        #expect(r.responses[0] == r.responses[1])
        #expect(try await h.engine.messagesCount() == 1)
    }

    @Test func reusingAMessageIdForAnotherNumberIsRejected() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        _ = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "same")])
        let r = try await h.invite([.init(address: Numbers.dutchMobile, messageId: "same")])
        #expect(r.responses[0].status == .rejected)
        #expect(r.responses[0].reason?.contains("another number") == true)
    }

    @Test func anAnswerLostAfterProcessingIsRecoveredByReplay() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        await h.engine.injectFaults(.timeoutAfterProcessing)
        let dest: [SendInvitationBody.Destination] = [.init(address: Numbers.croatianMobile, messageId: "lost-1")]
        await #expect(throws: APIError.timeout) { try await h.invite(dest) }
        #expect(try await h.engine.messagesCount() == 1)
        let replay = try await h.invite(dest)
        #expect(replay.responses.first?.messageId == "lost-1")
        #expect(try await h.engine.messagesCount() == 1)
    }
}

extension PlatformEngine {
    /// How many messages the engine stored (test helper).
    func messagesCount() async throws -> Int {
        try await store.read { db in try db.value(Int.self, "SELECT COUNT(*) FROM sent") ?? 0 }
    }
}
