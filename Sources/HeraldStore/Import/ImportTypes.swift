import Foundation
import HeraldCore

/// The formats `herald contacts import` reads.
public enum ImportFormat: String, Sendable, CaseIterable, Codable {
    case auto, vcard, csv, vdir
}

/// One problem met while importing, located by file and line.
public struct ImportIssue: Sendable, Hashable, Codable {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
}

/// What an import did. `skipped` counts cards that changed nothing or could not be used.
public struct ImportReport: Sendable, Hashable, Codable {
    public var imported = 0
    public var updated = 0
    public var skipped = 0
    /// Numbers written without a country code that no region could place: `--region CC` reads them.
    public var numbersNeedingRegion = 0
    public var errors: [ImportIssue] = []
    /// Bytes read from the source files.
    public var bytesRead = 0

    public init() {}

    /// At most this many issues are kept; the rest are counted in the last one.
    public static let maxIssues = 1000
    var droppedIssues = 0
    /// The stored people the cards were merged into (changed or not), in the order met (one merged into twice is there
    /// twice): what an import into a book takes along. Not in the JSON.
    public internal(set) var mergedInto: [Int64] = []

    mutating func add(_ issue: ImportIssue) {
        if errors.count < Self.maxIssues { errors.append(issue) } else { droppedIssues += 1 }
    }

    /// Adds another import's counts and issues to these (several paths imported as one).
    public mutating func absorb(_ other: ImportReport) {
        imported += other.imported
        updated += other.updated
        skipped += other.skipped
        numbersNeedingRegion += other.numbersNeedingRegion
        bytesRead += other.bytesRead
        mergedInto += other.mergedInto
        for issue in other.errors { add(issue) }
        finish()
    }

    mutating func finish() {
        if droppedIssues > 0 {
            errors.append(ImportIssue(file: errors.last?.file ?? "", line: 0,
                                      message: "\(droppedIssues) more problems not listed"))
            droppedIssues = 0
        }
    }

    enum CodingKeys: String, CodingKey { case imported, updated, skipped, numbersNeedingRegion, errors }
}

/// A card or row read from a source: a person, or why it could not be read. `issues` are
/// problems that did not stop it (a truncated field, bytes that were not UTF-8).
enum SourceRecord {
    case person(Person, line: Int, issues: [(line: Int, message: String)])
    case failure(line: Int, message: String)
    /// A vCard 4 group card (`KIND:group`): its members are the cards whose UID its `MEMBER`s name.
    case group(GroupCard, line: Int)
}

/// A vCard 4 group card: the group's name (its FN), its own UID, and the UIDs of its members (`urn:uuid:` taken off).
struct GroupCard: Sendable, Hashable {
    var name: String
    var uid: String
    var members: [String]

    /// The forms a member's UID may be stored in: as the MEMBER wrote it without `urn:uuid:`, and with it.
    static func uidForms(_ member: String) -> [String] { [member, "urn:uuid:" + member] }

    /// A MEMBER value without its `urn:uuid:` (any case); nil for a member that is no UID (`mailto:`, `tel:`).
    static func memberUID(_ value: String) -> String? {
        let v = FastText.trimSpaces(value)
        if v.lowercased().hasPrefix("urn:uuid:") {
            let uid = String(v.dropFirst("urn:uuid:".count))
            return uid.isEmpty ? nil : uid
        }
        return v.contains(":") || v.isEmpty ? nil : v
    }
}

public enum ImportError: Error, Sendable, CustomStringConvertible {
    case notFound(String)
    case cannotDetectFormat(String)
    case unreadable(String, String)
    case notADirectory(String)
    /// Another import into the same database did not finish in time (the message says so).
    case locked(String)

    public var description: String {
        switch self {
        case .notFound(let p): return "\(p): no such file or directory"
        case .cannotDetectFormat(let p):
            return "\(p): cannot tell whether this is vCard or CSV: pass --format vcard, csv or vdir"
        case .unreadable(let p, let why): return "\(p): cannot read (\(why))"
        case .notADirectory(let p): return "\(p): --format vdir needs a folder of .vcf files"
        case .locked(let message): return message
        }
    }
}

/// Limits on what one field may hold; longer values are cut and reported.
enum FieldLimits {
    static let text = 1024
    /// A note (vCard NOTE): a few paragraphs.
    static let note = 4096
    static let phone = 64
    static let email = 320

    /// Phone numbers one card (or row) may bring, and one stored person may gather by merging.
    static let phonesPerPerson = 100
    /// Email addresses, likewise.
    static let emailsPerPerson = 100
    /// Groups (CATEGORIES) of one card, and members of one group card (KIND:group).
    static let groupsPerPerson = 100
    static let membersPerGroup = 100_000
    /// Content lines of one vCard (a photo counts as one); the rest up to END:VCARD is skipped.
    static let propertiesPerCard = 2000
    /// Parameters of one vCard property (`TEL;TYPE=cell;…`).
    static let parametersPerProperty = 64
    /// Problems listed for one card or row; the rest are counted.
    static let issuesPerCard = 50
    /// Fields of one CSV row that are kept (the rest are counted and reported).
    static let fieldsPerRow = 2000

    /// `value` cut to `limit` characters, and a message when it was cut.
    static func clamp(_ value: String, _ limit: Int, field: String) -> (String, String?) {
        guard value.utf8.count > limit else { return (value, nil) }
        let count = value.count
        guard count > limit else { return (value, nil) }
        return (String(value.prefix(limit)),
                "\(field) is \(count) characters long: kept the first \(limit)")
    }
}
