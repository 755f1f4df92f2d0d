import Foundation

/// Received SMS in the stand-in: a test has a person answer (`receiveInbound`), and `GET /sms/1/inbox/reports` gives
/// each message once, as Infobip's queue does (a read empties what it returns), at most `limit` (1 to 1,000) at a time,
/// with how many still wait. Results as the published `InboundSMSMessages`: `messageId`, `from`, `to`, `text`,
/// `cleanText`, `keyword`, `receivedAt`, `smsCount`, `price`.
extension StandInState {
    public struct Inbound: Sendable, Hashable {
        public var messageId: String
        public var from: String
        public var to: String
        public var text: String
        public var receivedAt: Date
    }

    /// A person at `from` (digits, no plus) sends `text` to the account's number `to`.
    public func receiveInbound(from: String, to: String = "385991000000", text: String) {
        inbound.append(Inbound(messageId: UUID().uuidString.lowercased(), from: from, to: to, text: text, receivedAt: now()))
    }

    /// Received messages not taken yet.
    public var inboundWaiting: Int { inbound.count }

    func takeInbound(limit: Int) -> (taken: [Inbound], left: Int) {
        let taken = Array(inbound.prefix(limit))
        inbound.removeFirst(taken.count)
        return (taken, inbound.count)
    }
}

extension StandInRoutes {
    func inboundMessages(_ query: [String]) async -> (Int, [String: String], Data) {
        let asked = queryValues(query, "limit").first
        let limit = asked.map { Int($0) ?? -1 } ?? 1000
        guard (1...1000).contains(limit) else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "Bad request", fields: ["limit": ["must be between 1 and 1000"]]))
        }
        let (taken, left) = await state.takeInbound(limit: limit)
        let results: [[String: Any]] = taken.map { m in
            let words = m.text.split(whereSeparator: \.isWhitespace)
            return ["messageId": m.messageId, "from": m.from, "to": m.to, "text": m.text,
                    "cleanText": words.dropFirst().joined(separator: " "), "keyword": words.first.map(String.init) ?? "",
                    "receivedAt": StandInRoutes.sendAtText(m.receivedAt), "smsCount": 1,
                    "price": ["pricePerMessage": 0, "currency": "EUR"]]
        }
        return (200, [:], Self.json(["results": results, "messageCount": results.count, "pendingMessageCount": left]))
    }
}
