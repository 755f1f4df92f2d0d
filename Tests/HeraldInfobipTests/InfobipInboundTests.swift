import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeraldEngine
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Received SMS as Infobip publishes them: Herald reads every field of the published shape (the pull of
/// `GET /sms/1/inbox/reports` and the inbound webhook share one body), skips an element it cannot read instead of the
/// whole body, and the stand-in answers and pushes bodies of exactly that shape.
@Suite struct InfobipInboundTests {
    /// The inbound webhook body of Infobip's own Java client test (infobip/infobip-api-java-client,
    /// src/test/java/com/infobip/api/SmsApiTest.java, `shouldParseInboundSmsMessages`, commit 5e880b14): the same keys in
    /// the same order, with the same JSON types and formats (`receivedAt` `yyyy-MM-dd'T'HH:mm:ss.SSSZ`, an integer
    /// `pricePerMessage` of an inbound SMS); the values are this test's own.
    static let publishedWebhookBody = """
        {
          "results": [
            {
              "messageId": "817790313235066512",
              "from": "385916242411",
              "to": "385921004099",
              "text": "PARTY Yes, see you there",
              "cleanText": "Yes, see you there",
              "keyword": "PARTY",
              "receivedAt": "2026-11-28T09:28:39.220+0000",
              "smsCount": 1,
              "price": {
                "pricePerMessage": 0,
                "currency": "EUR"
              },
              "callbackData": "callbackData"
            }
          ],
          "messageCount": 1,
          "pendingMessageCount": 0
        }
        """

    /// The pull's answer as the same client's `shouldGetReceivedSmsMessages` writes it: an offset other than UTC, a
    /// fractional price, and the newer `applicationId` and `entityId` Herald does not use (values this test's own).
    static let publishedPullAnswer = """
        {
            "results": [
              {
                "messageId": "817790313235066600",
                "from": "385916242422",
                "to": "385921004099",
                "text": "Who is this?",
                "cleanText": "is this?",
                "keyword": "Who",
                "receivedAt": "2026-11-28T16:10:00.000+0500",
                "smsCount": 1,
                "price": {
                  "pricePerMessage": 0.010000,
                  "currency": "EUR"
                },
                "callbackData": "callbackData",
                "applicationId": "applicationId",
                "entityId": "entityId"
              }
            ],
            "messageCount": 1,
            "pendingMessageCount": 0
        }
        """

    static func utc(_ text: String) -> Date { InfobipBulkSchedule.parseSendAt(text)! }

    @Test func theParserReadsEveryFieldOfThePublishedWebhookBody() throws {
        let reading = try InfobipInbound.read(Data(Self.publishedWebhookBody.utf8))
        #expect(reading.skipped.isEmpty)
        let reply = try #require(reading.replies.first)
        #expect(reading.replies.count == 1)
        #expect(reply.messageId == "817790313235066512")
        #expect(reply.from == "385916242411" && reply.to == "385921004099")
        #expect(reply.text == "PARTY Yes, see you there")
        #expect(abs((reply.receivedAt?.timeIntervalSince1970 ?? 0) - 1_795_858_119.220) < 0.0005)
        #expect(reply.price == 0 && reply.currency == "EUR")
    }

    @Test func thePullAnswerIsReadWithItsOffsetAndUnknownFieldsIgnored() throws {
        let reading = try InfobipInbound.read(Data(Self.publishedPullAnswer.utf8))
        let reply = try #require(reading.replies.first)
        #expect(reading.skipped.isEmpty && reading.pending == 0)
        // 16:10 at +05:00 is 11:10 UTC.
        #expect(reply.receivedAt == Self.utc("2026-11-28T11:10:00Z"))
        #expect(reply.price == 0.01 && reply.currency == "EUR")
        #expect(reply.text == "Who is this?")
    }

    /// A body with elements Herald cannot keep: each is skipped with a line saying why, the others are kept; numbers
    /// written with a plus, `00` or spaces are made E.164 digits; a reply too long is cut, never refused.
    @Test func badElementsAreSkippedAndSaidNotFatal() throws {
        let long = String(repeating: "a", count: InfobipInbound.maxTextLength + 50)
        let body = """
            {"results": [
              {"messageId": "ok-1", "from": "+385 91 111 2222", "to": "00385921004099", "text": "yes", "receivedAt": "not a time"},
              {"messageId": 42, "from": "385911112223", "text": "an id of the wrong type"},
              {"messageId": "alpha", "from": "InfoSMS", "text": "a sender that is no number"},
              {"from": "385911112224", "text": "no id"},
              {"messageId": "no-text", "from": "385911112225"},
              "not even an object",
              {"messageId": "ok-2", "from": "385911112226", "keyword": "STOP", "cleanText": "", "price": {"pricePerMessage": -1, "currency": "euro"}},
              {"messageId": "ok-3", "from": "385911112227", "text": "\(long)"}
            ], "messageCount": 8, "pendingMessageCount": 3}
            """
        let reading = try InfobipInbound.read(Data(body.utf8))
        #expect(reading.replies.map(\.messageId) == ["ok-1", "ok-2", "ok-3"])
        #expect(reading.skipped.count == 5, "\(reading.skipped)")
        #expect(reading.skipped.contains { $0.hasPrefix("results[1]:") } && reading.skipped.contains { $0.contains("alpha: from is not a phone number") })
        #expect(reading.pending == 3)
        let first = reading.replies[0]
        #expect(first.from == "385911112222" && first.to == "385921004099" && first.receivedAt == nil)
        // No text but a keyword: the keyword is the text; a negative price and a currency that is no code are dropped.
        #expect(reading.replies[1].text == "STOP" && reading.replies[1].price == nil && reading.replies[1].currency == nil)
        #expect(reading.replies[2].text.count == InfobipInbound.maxTextLength)
        // Not the shape at all: said, as the report webhook says it.
        #expect(throws: CarrierReportsError.self) { try InfobipInbound.read(Data("[1, 2]".utf8)) }
        #expect(throws: CarrierReportsError.self) { try InfobipInbound.read(Data("{\"results\": 5}".utf8)) }
    }

    @Test func aBodyIsReadForAtMostAThousandMessages() throws {
        let one = #"{"messageId": "m-ID", "from": "385911112222", "text": "hi"}"#
        let body = #"{"results": ["# + (0..<1003).map { one.replacingOccurrences(of: "ID", with: "\($0)") }.joined(separator: ",") + "]}"
        let reading = try InfobipInbound.read(Data(body.utf8))
        #expect(reading.replies.count == 1000)
        #expect(reading.skipped == ["results[1000...]: 3 messages beyond the 1000 of one body"])
    }

    // MARK: - The stand-in speaks the published shape

    /// Every key of `published` is in `produced` with a value of the same JSON type, and nothing more (recursively).
    static func sameShape(_ produced: Any, _ published: Any, at path: String = "") -> [String] {
        switch (produced, published) {
        case (let a as [String: Any], let b as [String: Any]):
            var problems: [String] = []
            if Set(a.keys) != Set(b.keys) { problems.append("\(path): keys \(a.keys.sorted()) ≠ published \(b.keys.sorted())") }
            for (key, value) in b { if let mine = a[key] { problems += sameShape(mine, value, at: "\(path).\(key)") } }
            return problems
        case (let a as [Any], let b as [Any]):
            guard let model = b.first else { return [] }
            return a.enumerated().flatMap { sameShape($1, model, at: "\(path)[\($0)]") }
        default:
            return kind(produced) == kind(published) ? [] : ["\(path): \(kind(produced)) ≠ published \(kind(published))"]
        }
    }

    static func kind(_ value: Any) -> String {
        switch value {
        case is String: "string"
        case is NSNumber: "number"
        case is NSNull: "null"
        case is [Any]: "array"
        case is [String: Any]: "object"
        default: "\(type(of: value))"
        }
    }

    static func get(_ url: URL, key: String) async throws -> (Int, Data) {
        var request = URLRequest(url: url)
        request.setValue("App \(key)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func theStandInAnswersThePullInThePublishedShapeEachMessageOnce() async throws {
        let h = try await InfobipHarness()
        await h.state.receiveInbound(from: "385911234567", text: "yes, see you")
        await h.state.receiveInbound(from: "385911234568", text: "Who is this?")
        let inbox = h.url.appendingPathComponent("sms/1/inbox/reports")
        let published = try JSONSerialization.jsonObject(with: Data(Self.publishedWebhookBody.utf8))

        // limit 1: one message, and Infobip says one more waits.
        let (status, data) = try await Self.get(URL(string: inbox.absoluteString + "?limit=1")!, key: h.state.apiKey)
        #expect(status == 200)
        let first = try JSONSerialization.jsonObject(with: data)
        #expect(Self.sameShape(first, published).isEmpty, "\(Self.sameShape(first, published))")
        let object = try #require(first as? [String: Any])
        #expect(object["messageCount"] as? Int == 1 && object["pendingMessageCount"] as? Int == 1)
        let message = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(message["from"] as? String == "385911234567" && message["text"] as? String == "yes, see you")
        #expect(message["keyword"] as? String == "yes," && message["cleanText"] as? String == "see you")
        #expect(InfobipBulkSchedule.parseSendAt(message["receivedAt"] as? String ?? "") != nil)
        #expect((message["receivedAt"] as? String)?.hasSuffix("+0000") == true && (message["receivedAt"] as? String)?.count == 28)

        // The next read takes the other; then there is nothing left.
        let second = try JSONSerialization.jsonObject(with: try await Self.get(inbox, key: h.state.apiKey).1) as? [String: Any]
        #expect((second?["results"] as? [[String: Any]])?.first?["from"] as? String == "385911234568")
        #expect(second?["pendingMessageCount"] as? Int == 0)
        let empty = try JSONSerialization.jsonObject(with: try await Self.get(inbox, key: h.state.apiKey).1) as? [String: Any]
        #expect((empty?["results"] as? [Any])?.isEmpty == true && empty?["messageCount"] as? Int == 0)

        // `limit` as published: 1 to 1,000, 50 when not given.
        for bad in ["0", "1001", "many"] {
            #expect(try await Self.get(URL(string: inbox.absoluteString + "?limit=\(bad)")!, key: h.state.apiKey).0 == 400)
        }
        for i in 0..<51 { await h.state.receiveInbound(from: "38591200\(String(format: "%04d", i))", text: "hi \(i)") }
        let page = try JSONSerialization.jsonObject(with: try await Self.get(inbox, key: h.state.apiKey).1) as? [String: Any]
        #expect((page?["results"] as? [Any])?.count == 50 && page?["pendingMessageCount"] as? Int == 1)
        // A key without the inbound scope is refused.
        await h.state.addKey("send-only", scopes: ["sms:message:send"])
        #expect(try await Self.get(inbox, key: "send-only").0 == 403)
    }

    @Test func theStandInPushesThePublishedShapeToItsInboundWebhooks() async throws {
        // A second stand-in stands for the webhook: it answers 404 to the path, and keeps the body it was given.
        let receiverState = StandInState()
        let receiver = try await InfobipStandIn.start(state: receiverState)
        defer { receiver.task.cancel() }
        let h = try await InfobipHarness()
        let hook = receiver.url.appendingPathComponent("hook").absoluteString
        await h.state.setInboundWebhooks([hook], repeats: 2)
        let id = await h.state.receiveInbound(from: "385911234567", text: "yes, see you")
        let pushes = await h.state.inboundPushes
        #expect(pushes.count == 2 && pushes.allSatisfy { $0.messageId == id && $0.url == hook && $0.answer == 404 }, "\(pushes)")
        let bodies = await receiverState.requests(to: "/hook")
        #expect(bodies.count == 2 && bodies.allSatisfy { $0.method == "POST" && $0.headers["content-type"] == "application/json" })
        let pushed = try JSONSerialization.jsonObject(with: try #require(bodies.first).body)
        let published = try JSONSerialization.jsonObject(with: Data(Self.publishedWebhookBody.utf8))
        #expect(Self.sameShape(pushed, published).isEmpty, "\(Self.sameShape(pushed, published))")
        // Herald's parser reads what was pushed.
        let reading = try InfobipInbound.read(try #require(bodies.first).body)
        #expect(reading.replies.first?.messageId == id && reading.replies.first?.to == "385991000000")
        #expect(reading.replies.first?.text == "yes, see you" && reading.replies.first?.from == "385911234567")
        // Pushed or not, it waits for the pull too.
        #expect(await h.state.inboundWaiting == 1)
    }
}
