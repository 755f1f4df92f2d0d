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
        var handed = 0
        while true {
            let (claimed, interrupted) = try await claimMail(bulkId: bulkId)
            for (app, group) in Dictionary(grouping: interrupted, by: \.applicationKey) {
                _ = try await storeReports(group.map {
                    CarrierReport(messageId: $0.messageId, status: .deliveryUncertain, nextCheckAt: nil, price: 0,
                                  reason: Self.interruptedMailReason)
                }, applicationKey: app, from: .outbox)
            }
            guard !claimed.isEmpty else { return handed }
            for mail in claimed {
                let report = await handOver(mail)
                _ = try await storeReports([report], applicationKey: mail.applicationKey, from: .outbox)
                handed += 1
            }
            if claimed.count < Self.carrierBatch { return handed }
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
            let from = try EmailAddress(mailbox: mail.from, field: "From")
            message = try EmailMessage(from: from, to: [EmailAddress(mail.to, field: "To")], subject: mail.subject, body: mail.text,
                                       date: mail.acceptedAt, messageId: "\(mail.messageId)@\(from.domain)", timeZone: .gmt)
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

    /// Claims up to a batch of new email invitations in one unit of work, and answers the claims whose lease ran out.
    private func claimMail(bulkId: String?) async throws -> (claimed: [ClaimedMail], interrupted: [ClaimedMail]) {
        let at = nowMs
        let lease = at + Int64((mailer?.handOverLease ?? 120) * 1000)
        return try await store.write { [self] db in
            try releaseDue(db, at: at)
            let rows = try db.rows("""
                SELECT s.applicationKey, s.id, s.address, s.text, s.sentAt, s.outbox, b.sender, b.subject
                FROM sent s JOIN bulk b ON b.id = s.bulkId
                WHERE s.channel = 'email' AND (s.outbox = 1 OR (s.outbox = 2 AND COALESCE(s.nextCheckAt, 0) <= ?))
                  \(bulkId == nil ? "" : "AND s.bulkId = ?") LIMIT ?
                """, [at] + (bulkId.map { [$0] } ?? []) + [Self.carrierBatch])
            var claimed: [ClaimedMail] = []
            var interrupted: [ClaimedMail] = []
            for row in rows {
                let mail = ClaimedMail(applicationKey: row["applicationKey"], messageId: row["id"], from: row["sender"],
                                       to: row["address"], subject: (row["subject"] as String?) ?? "", text: row["text"] ?? "",
                                       acceptedAt: Date(epochMilliseconds: row["sentAt"]))
                if row["outbox"] as Int == 2 { interrupted.append(mail) } else { claimed.append(mail) }
            }
            for (app, group) in Dictionary(grouping: claimed, by: \.applicationKey) {
                for chunk in SQLBatch.chunks(group) {
                    try db.execute("""
                        UPDATE sent SET outbox = 2, nextCheckAt = ? WHERE applicationKey = ? AND id IN (\(SQLBatch.list(chunk.count)))
                        """, [lease, app] + chunk.map(\.messageId))
                }
            }
            return (claimed, interrupted)
        }
    }
}
