import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Received SMS in the stand-in, shaped as Infobip publishes them (`SmsInboundMessageResult` and `SmsInboundMessage` of
/// infobip-api-java-client: `results[]` of `messageId`, `from`, `to`, `text`, `cleanText`, `keyword`, `receivedAt`,
/// `smsCount`, `price{pricePerMessage,currency}`, `callbackData`; then `messageCount`, `pendingMessageCount`).
///
/// A test has a person answer (`receiveInbound`, or `POST /stand-in/inbound` to the process). The message waits in the
/// queue of `GET /sms/1/inbox/reports`, which gives each once (a read takes what it returns), at most `limit` (1 to 1,000;
/// 50 when not given, as published) at a time, with how many still wait. When inbound webhooks are set
/// (`setInboundWebhooks`, or `POST /stand-in/inbound-webhooks`), the same body is also POSTed to each, `repeats` times
/// (Infobip calls again when unsure): the stand-in does both so a test can see a message given twice kept once.
extension StandInState {
    public struct Inbound: Sendable, Hashable {
        public var messageId: String
        public var from: String
        public var to: String
        public var text: String
        public var receivedAt: Date
    }

    /// One POST of received SMS to an inbound webhook: where, which message, the webhook's answer (0: none), and when it
    /// was answered.
    public struct InboundPush: Sendable, Hashable {
        public var url: String
        public var messageId: String
        public var answer: Int
        public var at: Date
    }

    /// A person at `from` (digits, no plus) sends `text` to the account's number `to`. The message waits for the pull and,
    /// when inbound webhooks are set, is pushed to each (`repeats` times) before this returns. Answers its messageId.
    @discardableResult
    public func receiveInbound(from: String, to: String = "385991000000", text: String) async -> String {
        let message = Inbound(messageId: UUID().uuidString.lowercased(), from: from, to: to, text: text, receivedAt: now())
        inbound.append(message)
        inboundReceived.append(message)
        await push(message)
        return message.messageId
    }

    /// Pushes received messages (taken by the pull or not) to the inbound webhooks again, as Infobip calls again when
    /// it is unsure a call arrived. Answers how many it knew.
    @discardableResult
    public func pushInboundAgain(_ messageIds: [String]) async -> Int {
        let messages = messageIds.compactMap { id in inboundReceived.first { $0.messageId == id } }
        for message in messages { await push(message) }
        return messages.count
    }

    /// One body per message, to each inbound webhook `inboundWebhookRepeats` times, each answer recorded.
    private func push(_ message: Inbound) async {
        let (urls, repeats) = (inboundWebhooks, inboundWebhookRepeats)
        let body = StandInRoutes.json(StandInRoutes.inboundBody([message], pending: 0))
        for url in urls {
            for _ in 0..<repeats {
                let answer = await Self.post(body, to: url)
                inboundPushes.append(InboundPush(url: url, messageId: message.messageId, answer: answer, at: Date()))
                noteInSentLog("inbound-webhook \(answer) \(message.messageId) \(url)")
            }
        }
    }

    /// Where received SMS are pushed (Infobip's "forward to HTTP" action of a number), each body `repeats` times.
    public func setInboundWebhooks(_ urls: [String], repeats: Int = 1) {
        inboundWebhooks = urls
        inboundWebhookRepeats = max(1, min(repeats, 10))
    }

    /// The body Infobip pushes to an inbound webhook for these received messages (taken or not), as `receiveInbound`
    /// pushes it: for a test that plays a webhook call itself.
    public func inboundWebhookBody(_ messageIds: [String]) -> Data {
        let messages = messageIds.compactMap { id in inboundReceived.first { $0.messageId == id } }
        return StandInRoutes.json(StandInRoutes.inboundBody(messages, pending: 0))
    }

    /// Received messages not taken yet.
    public var inboundWaiting: Int { inbound.count }

    func takeInbound(limit: Int) -> (taken: [Inbound], left: Int) {
        let taken = Array(inbound.prefix(limit))
        inbound.removeFirst(taken.count)
        for message in taken { noteInSentLog("inbound-taken \(message.messageId)") }
        return (taken, inbound.count)
    }

    static func post(_ body: Data, to url: String) async -> Int {
        guard let target = URL(string: url) else { return 0 }
        var request = URLRequest(url: target, timeoutInterval: 20)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return ((try? await URLSession.shared.data(for: request))?.1 as? HTTPURLResponse)?.statusCode ?? 0
    }
}

extension StandInRoutes {
    /// Messages a read of `GET /sms/1/inbox/reports` gives when `limit` is not given (published: "the latest 50").
    static let inboundDefaultLimit = 50

    func inboundMessages(_ query: [String]) async -> (Int, [String: String], Data) {
        let asked = queryValues(query, "limit").first
        let limit = asked.map { Int($0) ?? -1 } ?? Self.inboundDefaultLimit
        guard (1...1000).contains(limit) else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "Bad request", fields: ["limit": ["must be between 1 and 1000"]]))
        }
        let (taken, left) = await state.takeInbound(limit: limit)
        return (200, [:], Self.json(Self.inboundBody(taken, pending: left)))
    }

    /// The body of a pull answer and of a webhook call, every field as published: the keyword is the first word, the
    /// clean text the rest; `receivedAt` `yyyy-MM-dd'T'HH:mm:ss.SSSZ`; the price Infobip charges for an inbound SMS.
    public static func inboundBody(_ messages: [StandInState.Inbound], pending: Int) -> [String: Any] {
        let results: [[String: Any]] = messages.map { m in
            let words = m.text.split(whereSeparator: \.isWhitespace)
            return ["messageId": m.messageId, "from": m.from, "to": m.to, "text": m.text,
                    "cleanText": words.dropFirst().joined(separator: " "), "keyword": words.first.map(String.init) ?? "",
                    "receivedAt": sendAtText(m.receivedAt), "smsCount": 1,
                    "price": ["pricePerMessage": 0.0, "currency": "EUR"] as [String: Any],
                    "callbackData": ""]
        }
        return ["results": results, "messageCount": results.count, "pendingMessageCount": pending]
    }

    /// `POST /stand-in/inbound` `{"from", "to"?, "text"}`: a person answers (a test's hand on the process); the answer
    /// is `{"messageId", "pushes": [{"url", "answer", "at"}]}` once every webhook call was answered (`at`: seconds since
    /// 1970).
    func controlInbound(_ body: Data) async -> (Int, [String: String], Data) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let from = object["from"] as? String, let text = object["text"] as? String else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "from and text are needed"))
        }
        let id = await state.receiveInbound(from: from, to: object["to"] as? String ?? "385991000000", text: text)
        let pushes = await state.inboundPushes.filter { $0.messageId == id }.map {
            ["url": $0.url, "answer": $0.answer, "at": $0.at.timeIntervalSince1970] as [String: Any]
        }
        return (200, [:], Self.json(["messageId": id, "pushes": pushes]))
    }

    /// `POST /stand-in/inbound-again` `{"messageIds": [...]}`: pushes received messages to the webhooks once more; the
    /// answer is as `controlInbound`'s, for the first of them.
    func controlInboundAgain(_ body: Data) async -> (Int, [String: String], Data) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let ids = object["messageIds"] as? [String], !ids.isEmpty else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "messageIds is needed"))
        }
        let before = await state.inboundPushes.count
        guard await state.pushInboundAgain(ids) == ids.count else {
            return (404, [:], Self.legacyError("NOT_FOUND", "no such received message"))
        }
        let pushes = await state.inboundPushes.dropFirst(before).map {
            ["url": $0.url, "messageId": $0.messageId, "answer": $0.answer, "at": $0.at.timeIntervalSince1970] as [String: Any]
        }
        return (200, [:], Self.json(["messageIds": ids, "pushes": Array(pushes)]))
    }

    /// `POST /stand-in/inbound-webhooks` `{"urls": [...], "repeats": N}`: where received SMS are pushed from now on.
    func controlInboundWebhooks(_ body: Data) async -> (Int, [String: String], Data) {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let urls = object["urls"] as? [String] else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "urls is needed"))
        }
        await state.setInboundWebhooks(urls, repeats: object["repeats"] as? Int ?? 1)
        return (204, [:], Data())
    }
}
