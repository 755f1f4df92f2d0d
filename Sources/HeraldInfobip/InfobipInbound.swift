import Foundation
import HeraldEngine

/// The answer of `GET /sms/1/inbox/reports`: messages people sent to the account's numbers, each given once (a read
/// takes what it returns), with how many still wait.
struct InfobipInboundResponse: Decodable, Sendable {
    struct Message: Decodable, Sendable {
        var messageId: String?
        var from: String?
        var to: String?
        var text: String?
        var cleanText: String?
        var keyword: String?
    }

    var results: [Message]?
    var messageCount: Int?
    var pendingMessageCount: Int?
}

extension InfobipCarrier {
    /// Received SMS, up to 1,000 a call, while Infobip says more wait (at most 10 calls a collection). Needs
    /// `sms:inbound-message:read` (or `sms:manage`).
    public func replies(at now: Date) async throws -> [CarrierReply] {
        var replies: [CarrierReply] = []
        for _ in 0..<10 {
            let page = try await http.call(InfobipInboundResponse.self, .get, "/sms/1/inbox/reports", query: [("limit", "1000")])
            replies += (page.results ?? []).compactMap { message in
                guard let from = message.from, let text = message.text else { return nil }
                return CarrierReply(from: from.hasPrefix("+") ? String(from.dropFirst()) : from, text: text)
            }
            guard (page.pendingMessageCount ?? 0) > 0, !(page.results ?? []).isEmpty else { break }
        }
        return replies
    }
}
