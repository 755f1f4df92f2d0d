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
        /// The person's name as shown; nil for a number outside the address book.
        public var name: String?
        /// Personal fields this recipient has no value for (shown as `{FIELD}` in `text`): the send needs a choice.
        public var missingFields: [String] = []
    }

    public var sender: String
    public var messageKey: String
    public var recipients: [Recipient]
    public var skipped: [SkippedRecipient]
    /// Recipients whose personal field is empty and has no fallback, one entry per field, when no choice was made;
    /// `invite` with the same options refuses until one is (leave them out, or a fallback).
    public var missing: [MissingField] = []
    /// The personal fields the message uses (beyond the five client fields), in order; empty: one text for all.
    public var personalFields: [String] = []
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
        let template = MessageTemplate(text: message.text, linkPlaceholder: message.placeholder)
        let personal = PersonalText.isPersonal(template) ? PersonalPlan(template: template, choice: options.missing) : nil
        let candidates = try plan(targets, fields: fields, personal: personal, skipped: &skipped)
        let latest = try ledger.latestStatuses(msisdns: candidates.map(\.e164))
        let permanent = try ledger.permanentFailures(msisdns: candidates.map(\.e164))
        var recipients: [InvitePreview.Recipient] = []
        var missing: [MissingField] = []
        for candidate in candidates {
            if case .skip(let reason) = options.policy.decide(latest: latest[candidate.e164],
                                                                permanentFailure: permanent.contains(candidate.e164)) {
                skipped.append(SkippedRecipient(address: candidate.e164, personId: candidate.personId, reason: reason))
                continue
            }
            var values = ClientField.values(fromClientData: candidate.clientData ?? [])
            // A missing personal field shows where it goes, as written (inserted verbatim, never scanned again).
            for field in candidate.missing { values[field] = "{\(field)}" }
            let own = candidate.text.map { MessageTemplate(text: $0, linkPlaceholder: message.placeholder) } ?? template
            let text = own.render(link: link, values: values, missing: .empty).text
            let measured = SMSMeter.measure(text)
            recipients.append(.init(address: candidate.e164, personId: candidate.personId, text: text,
                                    encoding: measured.encoding, segments: measured.segments, name: candidate.name,
                                    missingFields: candidate.missing))
            missing += candidate.missing.map { MissingField(address: candidate.e164, personId: candidate.personId, name: candidate.name, field: $0) }
        }
        var preview = InvitePreview(sender: sender, messageKey: message.key, recipients: recipients, skipped: skipped)
        preview.missing = missing
        preview.personalFields = personal.map { PersonalText.fields(of: $0.template) } ?? []
        preview.estimate = try estimate(recipients.map { (address: $0.address, parts: $0.segments) })
        return preview
    }
}
