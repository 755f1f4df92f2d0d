import Foundation
import HeraldCore

/// What a send would do, worked out without writing or sending anything (`herald send --dry-run`): each recipient's
/// text as it would leave, its SMS parts, and who would be skipped and why.
public struct InvitePreview: Sendable, Hashable {
    public struct Recipient: Sendable, Hashable {
        /// E.164 with the plus.
        public var address: String
        public var personId: Int64?
        public var text: String
        public var encoding: SMSEncoding
        public var segments: Int
    }

    public var sender: String
    public var messageKey: String
    public var recipients: [Recipient]
    public var skipped: [SkippedRecipient]
    /// What the send will cost: per country, in total, and who has no known price (see `InviteService.estimate`).
    public var estimate = PriceEstimate(items: [], price: { _ in nil })
    /// SMS parts of every text together: what the send is charged by.
    public var segments: Int { recipients.reduce(0) { $0 + $1.segments } }
}

extension InviteService {
    /// The send `invite(targets, options:)` would make, by the same rules (sender ID, fields, {SENDER_NAME}, which
    /// numbers, who was invited already), with `link` where each recipient's own link goes (it is made only when a
    /// send is accepted). Nothing is written, queued, reconciled or sent.
    public func preview(_ targets: [InviteTarget], options: InviteOptions = InviteOptions(), link: String) async throws -> InvitePreview {
        guard !targets.isEmpty else { throw InviteError.noTargets }
        let sender = try resolveSender(options.sender)
        let fields = try resolveFields(options.fields)
        let message = try await resolveMessage(options.messageKey)
        try requireSenderName(fields, in: message)
        var skipped: [SkippedRecipient] = []
        let candidates = try plan(targets, fields: fields, skipped: &skipped)
        let latest = try ledger.latestStatuses(msisdns: candidates.map(\.e164))
        let permanent = try ledger.permanentFailures(msisdns: candidates.map(\.e164))
        let template = MessageTemplate(text: message.text, linkPlaceholder: message.placeholder)
        var recipients: [InvitePreview.Recipient] = []
        for candidate in candidates {
            if case .skip(let reason) = options.policy.decide(latest: latest[candidate.e164],
                                                                permanentFailure: permanent.contains(candidate.e164)) {
                skipped.append(SkippedRecipient(address: candidate.e164, personId: candidate.personId, reason: reason))
                continue
            }
            let values = ClientField.values(fromClientData: candidate.clientData ?? [])
            let text = template.render(link: link, values: values, missing: .empty).text
            let measured = SMSMeter.measure(text)
            recipients.append(.init(address: candidate.e164, personId: candidate.personId, text: text,
                                    encoding: measured.encoding, segments: measured.segments))
        }
        var preview = InvitePreview(sender: sender, messageKey: message.key, recipients: recipients, skipped: skipped)
        preview.estimate = try estimate(recipients.map { (address: $0.address, parts: $0.segments) })
        return preview
    }
}
