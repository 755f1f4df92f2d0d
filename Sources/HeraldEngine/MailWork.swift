import Foundation
import HeraldAPI
import HeraldCore

extension PlatformEngine {
    /// Why a message whose hand-over was interrupted is not sent again.
    static let interruptedMailReason =
        "the mail hand-over was interrupted: it may have been sent; it is sent again only when you resend it"

    /// Hands email invitations committed to the outbox to the mailer, one at a time, at most once each. A message is
    /// claimed (`outbox` 2, with a lease) before it is handed over and its answer stored after; a claim whose lease ran
    /// out (the process died during the hand-over) is never handed over again but stored `DeliveryUncertain`, since the
    /// mail system may have taken it. Answers how many were handed over.
    @discardableResult
    func drainMail(bulkId: String?) async throws -> Int {
        // Most passes have no email to send: a read says so, before any write.
        guard try await mailWaiting(bulkId: bulkId) else { return 0 }
        var handed = 0
        while true {
            let (next, interrupted) = try await claimMail(bulkId: bulkId)
            for (app, group) in Dictionary(grouping: interrupted, by: \.applicationKey) {
                _ = try await storeReports(group.map {
                    CarrierReport(messageId: $0.messageId, status: .deliveryUncertain, nextCheckAt: nil, price: 0,
                                  reason: Self.interruptedMailReason)
                }, applicationKey: app, from: .outbox)
            }
            guard let next else {
                if interrupted.isEmpty { return handed }
                continue
            }
            let report = await handOver(next)
            _ = try await storeReports([report], applicationKey: next.applicationKey, from: .outbox)
            handed += 1
        }
    }

    /// One email invitation as claimed from the outbox.
    struct ClaimedMail: Sendable {
        var applicationKey: String
        var messageId: String
        var from: String
        var to: String
        var subject: String
        var text: String
        var acceptedAt: Date
    }

    private func handOver(_ mail: ClaimedMail) async -> CarrierReport {
        func failed(_ reason: String, permanent: Bool) -> CarrierReport {
            CarrierReport(messageId: mail.messageId, status: .deliveryImpossible, nextCheckAt: nil, price: 0, reason: reason,
                          permanent: permanent)
        }
        guard let mailer else { return failed("this platform sends no email", permanent: false) }
        let message: EmailMessage
        do {
            let sender = try EmailAddress(mailbox: mail.from, field: "From")
            // A server sends as itself (`[smtp] from`), the client's address at most a Reply-To.
            let (from, replyTo) = config.mailIdentity?.headers(for: sender) ?? (sender, nil)
            message = try EmailMessage(from: from, to: [EmailAddress(mail.to, field: "To")], subject: mail.subject, body: mail.text,
                                       date: mail.acceptedAt, messageId: "\(mail.messageId)@\(from.domain)", timeZone: .gmt,
                                       replyTo: replyTo)
        } catch {
            return failed("\(error)", permanent: true)
        }
        switch await mailer.send(message) {
        case .accepted:
            return CarrierReport(messageId: mail.messageId, status: .deliveredToNetwork, nextCheckAt: nil, price: 0)
        case .refused(let reason, let permanent):
            return failed(reason, permanent: permanent)
        case .unknown(let reason):
            return CarrierReport(messageId: mail.messageId, status: .deliveryUncertain, nextCheckAt: nil, price: 0,
                                 reason: "\(reason): it may have been sent; it is sent again only when you resend it")
        }
    }

    /// Whether an email invitation waits to be handed over or answered for: new, held and due, or claimed by a
    /// hand-over whose lease ran out. One read of the outbox index.
    private func mailWaiting(bulkId: String?) async throws -> Bool {
        let at = nowMs
        return try await store.read { db in try db.outbox.mailWaiting(at: at, bulkId: bulkId) }
    }

    /// Claims the next new email invitation in one unit of work (one at a time: its lease is the time of one
    /// hand-over), and answers the claims whose lease ran out.
    private func claimMail(bulkId: String?) async throws -> (next: ClaimedMail?, interrupted: [ClaimedMail]) {
        let at = nowMs
        let lease = at + Int64((mailer?.handOverLease ?? 120) * 1000)
        return try await store.write { db in
            try db.holds.releaseDue(at: at)
            let interrupted = try db.outbox.interruptedMail(at: at, bulkId: bulkId, limit: Self.carrierBatch)
            let next = try db.outbox.claimMail(bulkId: bulkId, lease: lease)
            return (next, interrupted)
        }
    }
}
