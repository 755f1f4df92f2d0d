import Foundation
import HeraldCore

/// A wire value that carries phone numbers or email addresses, as it is answered to a caller who may see them only
/// masked (a viewer key on a server started with `--mask-numbers-for-viewers`): every number and address masked by
/// `PersonalDataMask`, free texts (failure reasons, error texts) with the numbers in them masked, everything else as
/// it was. Ids, states, prices and times are kept, so a masked answer is read by the same client code.
///
/// A new wire type that carries a number or an address conforms here; the engine's route adapter and the server's
/// event stream mask whatever conforms, so no route masks by hand.
public protocol NumberMasking: Encodable, Sendable {
    /// The value with its numbers and addresses masked.
    func maskingNumbers() -> Self
}

/// Masking a value whose type is known only to be generic (the engine's route adapter's answer).
public enum NumberMaskingSupport {
    /// `value` with its numbers and addresses masked when its type conforms to `NumberMasking`, else as it is.
    public static func masked<T>(_ value: T) -> T {
        guard let maskable = value as? any NumberMasking else { return value }
        return (maskable.maskingNumbers() as? T) ?? value
    }
}

extension DeliveryInfo: NumberMasking {
    public func maskingNumbers() -> DeliveryInfo {
        var copy = self
        copy.address = PersonalDataMask.mask(address)
        copy.reason = reason.map(PersonalDataMask.maskText)
        return copy
    }
}

extension DeliveryInfosResponse: NumberMasking {
    public func maskingNumbers() -> DeliveryInfosResponse {
        var copy = self
        copy.deliveryInfoList.deliveryInfo = deliveryInfoList.deliveryInfo.map { $0.maskingNumbers() }
        return copy
    }
}

extension DeliveryInfoNotification: NumberMasking {
    public func maskingNumbers() -> DeliveryInfoNotification {
        var copy = self
        copy.deliveryInfoNotification.deliveryInfo = deliveryInfoNotification.deliveryInfo.maskingNumbers()
        return copy
    }
}

extension SendInvitationResponse: NumberMasking {
    public func maskingNumbers() -> SendInvitationResponse {
        var copy = self
        copy.sendSmsResponse.responses = sendSmsResponse.responses.map { response in
            var masked = response
            masked.address = response.address.map(PersonalDataMask.mask)
            masked.reason = response.reason.map(PersonalDataMask.maskText)
            masked.text = response.text.map(PersonalDataMask.maskText)
            return masked
        }
        return copy
    }
}

extension OptOut: NumberMasking {
    public func maskingNumbers() -> OptOut {
        var copy = self
        copy.number = PersonalDataMask.mask(number)
        return copy
    }
}

extension OptOutList: NumberMasking {
    public func maskingNumbers() -> OptOutList { OptOutList(optOuts: optOuts.map { $0.maskingNumbers() }) }
}

extension ReferralLink: NumberMasking {
    /// The referrer is a person's name, number or address as the sharer typed it: what looks like a number or an
    /// address in it is masked.
    public func maskingNumbers() -> ReferralLink {
        var copy = self
        copy.referrer = referrer.map(PersonalDataMask.maskText)
        return copy
    }
}

extension PlatformEvent: NumberMasking {
    /// A delivery change's recipients and a clicked link's referrer masked. An inbox message is the user's own (its
    /// user id is the application's identifier, which a viewer needs to follow that inbox) and passes as it is; an
    /// event type this build does not know passes as its bare `__type` (its fields may hold anything).
    public func maskingNumbers() -> PlatformEvent {
        switch self {
        case .deliveryChanged(let bulkId, let infos, let isDelta, let text, let sentBy):
            return .deliveryChanged(bulkId: bulkId, deliveryInfo: infos.map { $0.maskingNumbers() }, isDelta: isDelta,
                                    text: text.map(PersonalDataMask.maskText), sentBy: sentBy)
        case .linkClicked(let link):
            return .linkClicked(link.maskingNumbers())
        case .replyReceived(let reply):
            return .replyReceived(reply.maskingNumbers())
        case .conversationSeen(let number, let unread, let unreadTotal):
            return .conversationSeen(number: PersonalDataMask.mask(number), unread: unread, unreadTotal: unreadTotal)
        case .inboxMessage, .unknown:
            return self
        }
    }
}

extension EventQueueResponse: NumberMasking {
    public func maskingNumbers() -> EventQueueResponse {
        var copy = self
        copy.messages = messages.map { QueuedEvent(id: $0.id, event: $0.event.maskingNumbers()) }
        return copy
    }
}

extension APIError {
    /// The error with the numbers and addresses in its texts masked (an error that echoes a number it was given).
    public func maskingNumbers() -> APIError {
        switch self {
        case .forbidden(let text): return .forbidden(PersonalDataMask.maskText(text))
        case .notFound(let text): return .notFound(PersonalDataMask.maskText(text))
        case .badRequest(let text, let errors):
            return .badRequest(PersonalDataMask.maskText(text), validationErrors: errors.mapValues { $0.map(PersonalDataMask.maskText) })
        case .server(let status, let text): return .server(status: status, text: PersonalDataMask.maskText(text))
        case .transport(let text): return .transport(PersonalDataMask.maskText(text))
        case .invalidResponse(let text): return .invalidResponse(PersonalDataMask.maskText(text))
        case .invalidRequest(let text): return .invalidRequest(PersonalDataMask.maskText(text))
        case .unauthorized, .accessTokenMissing, .tooManyRequests, .timeout: return self
        }
    }
}
