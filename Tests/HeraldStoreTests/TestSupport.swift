import Foundation
import HeraldCore
@testable import HeraldStore

/// A fresh herald.sqlite in its own temp folder, removed with the store.
final class TempStore: Sendable {
    let dir: URL
    let database: HeraldDatabase
    let clock = ManualClock()

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("herald-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        database = try HeraldDatabase.open(inDirectory: dir)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    var contacts: ContactStore { ContactStore(database: database, clock: clock) }
    var ledger: LedgerStore { LedgerStore(database: database, clock: clock) }

    func importer(region: String? = "HR") throws -> ContactImporter {
        ContactImporter(database: database, parser: try PhoneNumberParser(defaultRegion: region), batchSize: 3, clock: clock)
    }

    /// Writes `text` to a file in the temp folder.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    func write(_ name: String, bytes: [UInt8]) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    func importText(_ name: String, _ text: String, format: ImportFormat = .auto) throws -> ImportReport {
        try importer().importContacts(from: try write(name, text), format: format)
    }

    func all() throws -> [Person] { try contacts.people() }

    /// Makes the insert of the person with last name `last` fail (a trigger on the writing connection), as a full
    /// disk would: an import stops in that person's batch.
    func failInserting(lastName last: String) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER boom BEFORE INSERT ON person WHEN NEW.last_name = '\(last)'
                BEGIN SELECT RAISE(ABORT, 'boom'); END
                """)
        }
    }
}

let parserHR: PhoneNumberParser = {
    // "HR" is always known to libphonenumber.
    (try? PhoneNumberParser(defaultRegion: "HR")) ?? { fatalError("libphonenumber lacks HR") }()
}()

func person(_ first: String, _ last: String, phones: [String] = [], emails: [String] = [], org: String? = nil) -> Person {
    Person(firstName: first, lastName: last, formattedName: "\(first) \(last)", organization: org,
           phones: phones.map { LabeledPhone(label: "mobile", number: parserHR.parse($0)) },
           emails: emails.map { LabeledEmail(label: nil, address: $0) })
}
