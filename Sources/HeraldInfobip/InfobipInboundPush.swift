import Foundation
import HeraldEngine

/// Infobip's inbound-message webhook: a number whose action forwards received SMS to Herald's inbound URL posts the
/// pull's body (`{"results": […], "messageCount", "pendingMessageCount"}`) there.
extension InfobipCarrier: RepliesPushing {
    public func pushedReplies(_ body: Data, at now: Date) throws(CarrierReportsError) -> [CarrierReply] {
        let reading = try InfobipInbound.read(body)
        noteSkipped(reading.skipped, from: "the inbound webhook")
        return reading.replies
    }
}
