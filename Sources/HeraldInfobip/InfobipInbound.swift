import Foundation
import HeraldEngine

/// Received SMS as Infobip publishes them (`SmsInboundMessageResult` of infobip-api-java-client, the same body for the
/// pull `GET /sms/1/inbox/reports` and the inbound webhook): `{"results": [{"messageId", "from", "to", "text",
/// "cleanText", "keyword", "receivedAt", "smsCount", "price": {"pricePerMessage", "currency"}, "callbackData"}],
/// "messageCount", "pendingMessageCount"}`. Each element is read on its own: one Herald cannot read is skipped (and
/// said), never the whole body.
struct InfobipInboundResponse: Decodable, Sendable {
    struct Message: Decodable, Sendable {
        var messageId: String?
        var from: String?
        var to: String?
        var text: String?
        var cleanText: String?
        var keyword: String?
        /// `yyyy-MM-dd'T'HH:mm:ss.SSSZ` (`2016-10-06T09:28:39.220+0000`).
        var receivedAt: String?
        var price: Price?
    }

    struct Price: Decodable, Sendable {
        var pricePerMessage: Double?
        var currency: String?
    }

    /// One element of `results`: the message, or why it cannot be read (the array goes on past it).
    struct Element: Decodable, Sendable {
        var message: Message?
        var problem: String?

        init(from decoder: any Decoder) throws {
            do { message = try Message(from: decoder) } catch { problem = InfobipHTTP.decodingText(error) }
        }
    }

    var results: [Element]?
    var messageCount: Int?
    var pendingMessageCount: Int?
}

/// Reading received SMS into the engine's replies, with every value bounded.
enum InfobipInbound {
    /// Most messages one body is read for (the pull's published maximum `limit`); the rest are skipped, said.
    static let maxMessages = 1000
    /// Most characters of a reply kept (a long concatenated SMS is cut here, as the engine keeps it).
    static let maxTextLength = PlatformEngine.maxReplyText
    /// Longest messageId taken (Infobip's ids are far shorter; the send API allows 200).
    static let maxIdLength = 200

    /// What a body held: the replies Herald can keep, and one line for each element skipped.
    struct Reading: Sendable {
        var replies: [CarrierReply] = []
        var skipped: [String] = []
        var pending = 0
    }

    /// Reads a body of received SMS; throws only when the body is not that shape at all.
    static func read(_ body: Data) throws(CarrierReportsError) -> Reading {
        let answer: InfobipInboundResponse
        do { answer = try JSONDecoder().decode(InfobipInboundResponse.self, from: body) } catch {
            throw .unreadable(InfobipHTTP.decodingText(error))
        }
        return read(answer)
    }

    static func read(_ answer: InfobipInboundResponse) -> Reading {
        var reading = Reading()
        reading.pending = max(0, answer.pendingMessageCount ?? 0)
        let elements = answer.results ?? []
        for (i, element) in elements.prefix(maxMessages).enumerated() {
            guard let message = element.message else {
                reading.skipped.append("results[\(i)]: \(element.problem ?? "unreadable")")
                continue
            }
            switch reply(message) {
            case .success(let reply): reading.replies.append(reply)
            case .failure(let why): reading.skipped.append("results[\(i)]: \(why.text)")
            }
        }
        if elements.count > maxMessages {
            reading.skipped.append("results[\(maxMessages)...]: \(elements.count - maxMessages) messages beyond the \(maxMessages) of one body")
        }
        return reading
    }

    struct Skip: Error { var text: String }

    /// One received SMS as the engine keeps it: numbers E.164 without the plus, the time as Infobip wrote it, the price
    /// where Infobip charged one.
    static func reply(_ message: InfobipInboundResponse.Message) -> Result<CarrierReply, Skip> {
        guard let id = message.messageId?.trimmingCharacters(in: .whitespaces), !id.isEmpty else {
            return .failure(Skip(text: "no messageId"))
        }
        guard id.count <= maxIdLength, id.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
            return .failure(Skip(text: "the messageId is not an id (\(id.count) characters)"))
        }
        guard let fromText = message.from else { return .failure(Skip(text: "\(id): no from")) }
        guard let from = number(fromText) else { return .failure(Skip(text: "\(id): from is not a phone number")) }
        let words = [message.keyword, message.cleanText].compactMap { $0 }.filter { !$0.isEmpty }
        guard var text = message.text ?? (words.isEmpty ? nil : words.joined(separator: " ")) else {
            return .failure(Skip(text: "\(id): no text"))
        }
        if text.count > maxTextLength { text = String(text.prefix(maxTextLength)) }
        var reply = CarrierReply(from: from, text: text)
        reply.messageId = id
        reply.to = message.to.flatMap(number)
        reply.receivedAt = message.receivedAt.flatMap(InfobipBulkSchedule.parseSendAt)
        if let price = message.price?.pricePerMessage, price.isFinite, price >= 0, price < 1_000 { reply.price = price }
        if let currency = message.price?.currency?.uppercased(), currency.count == 3,
           currency.unicodeScalars.allSatisfy({ $0.value >= 65 && $0.value <= 90 }) {
            reply.currency = currency
        }
        return .success(reply)
    }

    /// A number as Infobip writes it (international digits, sometimes with a plus, `00` or separators) as E.164
    /// digits without the plus; nil when it is no phone number (an alphanumeric sender, too short, too long).
    static func number(_ text: String) -> String? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.hasPrefix("+") { rest = rest.dropFirst() } else if rest.hasPrefix("00") { rest = rest.dropFirst(2) }
        var digits = ""
        for c in rest.unicodeScalars {
            switch c {
            case "0"..."9": digits.unicodeScalars.append(c)
            case " ", "-", "(", ")", ".": continue
            default: return nil
            }
        }
        guard (5...15).contains(digits.count), !digits.hasPrefix("0") else { return nil }
        return digits
    }
}

extension InfobipCarrier {
    /// Received SMS, up to 1,000 a call, while Infobip says more wait (at most 10 calls a collection). Needs
    /// `sms:inbound-message:read` (or `sms:manage`). A message Herald cannot read is skipped and logged.
    public func replies(at now: Date) async throws -> [CarrierReply] {
        var replies: [CarrierReply] = []
        for _ in 0..<10 {
            let page = try await http.call(InfobipInboundResponse.self, .get, "/sms/1/inbox/reports",
                                           query: [("limit", "\(InfobipInbound.maxMessages)")])
            let reading = InfobipInbound.read(page)
            noteSkipped(reading.skipped, from: "GET /sms/1/inbox/reports")
            replies += reading.replies
            guard reading.pending > 0, !(page.results ?? []).isEmpty else { break }
        }
        return replies
    }

    func noteSkipped(_ skipped: [String], from source: String) {
        for line in skipped.prefix(20) {
            log.warning("a received SMS was skipped", metadata: ["from": "\(source)", "why": "\(line)"])
        }
        if skipped.count > 20 {
            log.warning("more received SMS were skipped", metadata: ["from": "\(source)", "count": "\(skipped.count - 20)"])
        }
    }
}
