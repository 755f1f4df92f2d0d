import Foundation
import GRDB
import HeraldCore

/// The country of a ledger row: the ISO region its number belongs to, as the phone-number code reads it from the
/// calling code (`+385…` → `HR`); nil for an email address or a number no region owns. Kept in `invitation.country`
/// so that `country:HR` is an index look-up.
enum LedgerCountries {
    private static let parser = try? PhoneNumberParser(defaultRegion: nil)

    static func country(of address: String) -> String? {
        guard !address.contains("@"), let parser else { return nil }
        let number = address.hasPrefix("+") ? address : "+" + address
        return parser.parse(number).region
    }

    /// Fills `country` of every row that has none, one parse per distinct number.
    static func backfill(_ db: Database) throws {
        let numbers = try String.fetchAll(db, sql: "SELECT DISTINCT msisdn FROM invitation WHERE country IS NULL")
        let update = try db.makeStatement(sql: "UPDATE invitation SET country = ? WHERE msisdn = ? AND country IS NULL")
        for number in numbers {
            guard let region = country(of: number) else { continue }
            try update.execute(arguments: [region, number])
        }
    }

    /// Looks up countries once per number within one write (a bulk sends to many numbers of one country).
    struct Memo {
        private var known: [String: String?] = [:]

        mutating func country(of address: String) -> String? {
            if let hit = known[address] { return hit }
            let region = LedgerCountries.country(of: address)
            known[address] = region
            return region
        }
    }
}
