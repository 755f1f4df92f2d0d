import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// What senders set on Infobip (`[infobip.send]`) goes on the wire where Infobip's SMS API v3 names it, the stand-in
/// checks it as the published spec does, and values outside the published limits are refused when they are set.
@Suite struct InfobipSendOptionsTests {
    static func everything() throws -> InfobipSendOptions {
        var o = InfobipSendOptions()
        o.validity = try InfobipSendOptions.validity("2h")
        o.deliveryWindow = try InfobipSendOptions.deliveryWindow(days: ["monday", "FRIDAY"], from: "08:00", to: "17:30")
        o.campaignReferenceId = "summer-2026"
        o.indiaDlt = .init(contentTemplateId: "tpl-1", principalEntityId: "pe-1", telemarketerId: nil)
        o.turkeyIys = .init(brandCode: 12, recipientType: "TACIR")
        o.transliteration = "CENTRAL_EUROPEAN"
        o.languageCode = "TR"
        o.speedLimit = try InfobipSendOptions.speedLimit("100/minute")
        o.tracking = .init(shortenUrl: true, trackClicks: true, removeProtocol: false, customDomain: "go.example.com")
        o.conversionTrackingName = "INVITES"
        return o
    }

    @Test func everyOptionIsSentWhereTheSpecNamesIt() async throws {
        let h = try await InfobipHarness(sendOptions: try Self.everything())
        let result = try await h.workspace.invites.invite(numbers: [InfobipHarness.mobile(1), InfobipHarness.mobile(2)])
        #expect(result.recipients.allSatisfy { $0.status == .messageWaiting }, "the stand-in accepted the options")
        let request = try #require(await h.state.requests(to: "/sms/3/messages").first)
        let body = try #require(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        let messages = try #require(body["messages"] as? [[String: Any]])
        #expect(messages.count == 2)
        for message in messages {
            let options = try #require(message["options"] as? [String: Any])
            #expect(try Self.json(options) == #"{"campaignReferenceId":"summer-2026","#
                    + #""deliveryTimeWindow":{"days":["MONDAY","FRIDAY"],"from":{"hour":8,"minute":0},"to":{"hour":17,"minute":30}},"#
                    + #""regional":{"indiaDlt":{"contentTemplateId":"tpl-1","principalEntityId":"pe-1"},"#
                    + #""turkeyIys":{"brandCode":12,"recipientType":"TACIR"}},"validityPeriod":{"amount":2,"timeUnit":"HOURS"}}"#)
            let content = try #require(message["content"] as? [String: Any])
            #expect(content["transliteration"] as? String == "CENTRAL_EUROPEAN")
            #expect(try Self.json(content["language"]) == #"{"languageCode":"TR"}"#)
            #expect(message["webhooks"] == nil)
        }
        let options = try #require(body["options"] as? [String: Any])
        let schedule = try #require(options["schedule"] as? [String: Any])
        #expect(schedule["bulkId"] as? String == result.bulkId)
        #expect(try Self.json(schedule["sendingSpeedLimit"]) == #"{"amount":100,"timeUnit":"MINUTE"}"#)
        #expect(try Self.json(options["tracking"])
                == #"{"customDomain":"go.example.com","removeProtocol":false,"shortenUrl":true,"trackClicks":true}"#)
        #expect(try Self.json(options["conversionTracking"]) == #"{"conversionTrackingName":"INVITES","useConversionTracking":true}"#)
    }

    /// A part of a request as JSON with sorted keys.
    static func json(_ value: Any?) throws -> String {
        let object = try #require(value)
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
                      as: UTF8.self)
    }

    @Test func withNothingSetTheRequestCarriesNoOptions() async throws {
        let h = try await InfobipHarness()
        _ = try await h.workspace.invites.invite(numbers: [InfobipHarness.mobile(1)])
        let request = try #require(await h.state.requests(to: "/sms/3/messages").first)
        let body = try #require(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        let message = try #require((body["messages"] as? [[String: Any]])?.first)
        #expect(message["options"] == nil)
        #expect((message["content"] as? [String: Any])?.keys.sorted() == ["text"])
        #expect((body["options"] as? [String: Any])?.keys.sorted() == ["schedule"])
    }

    /// The stand-in refuses what the spec refuses, with Infobip's E400 body naming the property.
    @Test func theStandInRefusesValuesOutsideTheSpec() async throws {
        let h = try await InfobipHarness()
        func post(_ json: String) async throws -> (Int, String) {
            var request = URLRequest(url: h.url.appendingPathComponent("sms/3/messages"))
            request.httpMethod = "POST"
            request.setValue("App \(h.state.apiKey)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }
        let message = #""sender":"Herald","destinations":[{"to":"385911000001"}],"content":{"text":"hi""#
        let cases: [(String, String)] = [
            (#"{"messages":[{\#(message)},"options":{"validityPeriod":{"amount":2,"timeUnit":"WEEKS"}}}]}"#, "validityPeriod.timeUnit"),
            (#"{"messages":[{\#(message)},"options":{"deliveryTimeWindow":{"days":[]}}}]}"#, "deliveryTimeWindow.days"),
            (#"{"messages":[{\#(message)},"options":{"deliveryTimeWindow":{"days":["MONDAY"],"from":{"hour":24,"minute":0},"to":{"hour":23,"minute":0}}}}]}"#,
             "deliveryTimeWindow.from.hour"),
            (#"{"messages":[{\#(message)},"options":{"deliveryTimeWindow":{"days":["MONDAY"],"from":{"hour":8,"minute":0}}}}]}"#,
             "both provided or omitted"),
            (#"{"messages":[{\#(message),"transliteration":"KLINGON"}}]}"#, "content.transliteration"),
            (#"{"messages":[{\#(message)},"options":{"regional":{"turkeyIys":{"brandCode":1}}}}]}"#, "turkeyIys.recipientType"),
            (#"{"messages":[{\#(message)}}],"options":{"schedule":{"sendingSpeedLimit":{"amount":5,"timeUnit":"WEEK"}}}}"#,
             "sendingSpeedLimit.timeUnit"),
            // The schema whole: types, required properties, lengths, and a property where the spec has none.
            (#"{"messages":[{\#(message)},"options":{"validityPeriod":{"amount":"720"}}}]}"#,
             "messages[0].options.validityPeriod.amount: must be an integer"),
            (#"{"messages":[{\#(message)},"options":{"flash":1}}]}"#, "messages[0].options.flash: must be a boolean"),
            (#"{"messages":[{"destinations":[{"to":"385911000001"}]}]}"#, "messages[0].content: must not be null"),
            (#"{"messages":[{\#(message)},"options":{"tracking":{"trackClicks":true}}}]}"#,
             "messages[0].options.tracking: is not a property of this object"),
            (#"{"messages":[{\#(message)}}],"options":{"schedule":{"bulkId":"\#(String(repeating: "b", count: 101))"}}}"#,
             "options.schedule.bulkId: size must be between 0 and 100"),
            (#"{"messages":[{"sender":"Herald","destinations":[{"to":" "}],"content":{"text":"hi"}}]}"#,
             "messages[0].destinations[0].to: must not be blank"),
            (#"{"messages":[]}"#, "messages: must not be empty"),
        ]
        for (json, named) in cases {
            let (status, answer) = try await post(json)
            let body = (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [String: Any]
            let violations = (body?["violations"] as? [[String: String]] ?? []).map { "\($0["property"] ?? ""): \($0["violation"] ?? "")" }
            #expect(status == 400 && answer.contains("E400") && (answer.contains(named) || violations.contains { $0.hasPrefix(named) }),
                    "\(named): \(status) \(answer)")
        }
        #expect(await h.state.sentInOrder.isEmpty, "nothing refused was sent")
    }

    @Test func valuesOutsideThePublishedLimitsAreRefusedWhenSet() throws {
        #expect(try InfobipSendOptions.validity("48h") == .init(amount: 48, timeUnit: "HOURS"))
        #expect(try InfobipSendOptions.validity("90") == .init(amount: 90, timeUnit: "MINUTES"))
        #expect(throws: InfobipOptionError.self) { try InfobipSendOptions.validity("49h") }
        #expect(throws: InfobipOptionError.self) { try InfobipSendOptions.validity("soon") }
        #expect(throws: InfobipOptionError.self) { try InfobipSendOptions.speedLimit("100/week") }
        #expect(throws: InfobipOptionError.self) { try InfobipSendOptions.deliveryWindow(days: ["MONDAY"], from: "08:00", to: "08:30") }
        #expect(throws: InfobipOptionError.self) { try InfobipSendOptions.deliveryWindow(days: ["MONDAY"], from: "08:00", to: nil) }
        #expect(throws: InfobipOptionError.self) { try InfobipSendOptions.deliveryWindow(days: ["FUNDAY"], from: nil, to: nil) }
        #expect(throws: InfobipOptionError.self) { try InfobipSendOptions.time("25:00") }
        #expect(throws: InfobipOptionError.self) { try InfobipSendOptions.oneOf("xx", InfobipSendOptions.languageCodes) }
    }
}
