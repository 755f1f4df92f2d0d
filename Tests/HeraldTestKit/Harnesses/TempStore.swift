import Foundation
import HeraldCore
import HeraldStore

/// A fresh herald.sqlite in its own temporary folder, removed with the store.
public final class TempStore: Sendable {
    public let dir: TempDir
    public var folder: URL { dir.url }
    public let database: HeraldDatabase
    public let clock = ManualClock()

    public init() throws {
        dir = try TempDir("store")
        database = try HeraldDatabase.open(inDirectory: dir.url)
    }

    public var contacts: ContactStore { ContactStore(database: database, clock: clock) }
    public var ledger: LedgerStore { LedgerStore(database: database, clock: clock) }

    public func importer(region: String? = "HR") throws -> ContactImporter {
        ContactImporter(database: database, parser: try PhoneNumberParser(defaultRegion: region), batchSize: 3, clock: clock)
    }

    /// Writes `text` to a file in the temporary folder.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        let url = dir.file(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    public func write(_ name: String, bytes: [UInt8]) throws -> URL {
        let url = dir.file(name)
        try Data(bytes).write(to: url)
        return url
    }

    public func importText(_ name: String, _ text: String, format: ImportFormat = .auto) throws -> ImportReport {
        try importer().importContacts(from: try write(name, text), format: format)
    }

    public func all() throws -> [Person] { try contacts.people() }
}

public let parserHR: PhoneNumberParser = {
    // "HR" is always known to libphonenumber.
    (try? PhoneNumberParser(defaultRegion: "HR")) ?? { fatalError("libphonenumber lacks HR") }()
}()

/// A person with these numbers (parsed for Croatia) and addresses, not stored.
public func person(_ first: String, _ last: String, phones: [String] = [], emails: [String] = [], org: String? = nil) -> Person {
    Person(firstName: first, lastName: last, formattedName: "\(first) \(last)", organization: org,
           phones: phones.map { LabeledPhone(label: "mobile", number: parserHR.parse($0)) },
           emails: emails.map { LabeledEmail(label: nil, address: $0) })
}
