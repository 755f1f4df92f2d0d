import Foundation
import GRDB
import HeraldCore
import HeraldStore

/// Fills the ledger of a bench database with `bulks` bulks of `perBulk` recipients each, numbers
/// taken from the people stored (so the Contacts pane finds invitation states), statuses spread over
/// delivered, waiting, at the network and failed. Every bulk but the newest 20 is settled; the newest
/// ones have waiting recipients with a next poll an hour away (the tracker has them scheduled but
/// nothing due, which is what idle CPU is measured on).
enum LedgerSeed {
    static func fill(_ db: HeraldDatabase, bulks: Int, perBulk: Int) throws -> (bulks: Int, rows: Int) {
        let numbers: [String] = try db.read { d in
            try String.fetchAll(d, sql: "SELECT e164 FROM phone WHERE e164 IS NOT NULL LIMIT ?", arguments: [bulks * perBulk])
        }
        guard !numbers.isEmpty else { return (0, 0) }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var rows = 0
        try db.write { d in
            let bulk = try d.makeStatement(sql: """
                INSERT INTO bulk (bulk_id, created_ms, message_text, sender, recipient_count, passes_done, next_poll_ms)
                VALUES (?, ?, ?, 'Herald', ?, ?, ?)
                """)
            let invitation = try d.makeStatement(sql: """
                INSERT INTO invitation (msisdn, bulk_id, message_id, correlator, status, created_ms, updated_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            let settled: [DeliveryStatus] = [.deliveredToTerminal, .deliveredToTerminal, .deliveredToTerminal, .deliveryImpossible,
                                             .deliveredToNetwork]
            for b in 0..<bulks {
                let id = String(format: "bench-bulk-%06d", b)
                let created = now - Int64(bulks - b) * 60_000
                let open = b >= bulks - 20
                try bulk.execute(arguments: [id, created, "Join me on Herald {LINK}", perBulk, open ? 3 : 10,
                                             open ? now + 3_600_000 : nil])
                for r in 0..<perBulk {
                    let n = numbers[(b * perBulk + r) % numbers.count]
                    let status: DeliveryStatus = open && r % 2 == 0 ? .messageWaiting : settled[(b + r) % settled.count]
                    try invitation.execute(arguments: [n, id, "\(id)-m\(r)", "\(id)-c\(r)", status.rawValue, created, created])
                    rows += 1
                }
            }
        }
        return (bulks, rows)
    }
}
