import Foundation
import GRDB

/// Which notices were given (a bulk settled, its failures crossed the threshold, an inbox message arrived), kept in
/// the settings table so that every process on the data folder — the terminal UI, a second `herald watch`, the same
/// one after a restart — gives each at most once. A claim is one `INSERT OR IGNORE`: of two processes claiming the
/// same notice at once, exactly one wins.
public struct NoticeClaims: Sendable {
    public let database: HeraldDatabase
    static let prefix = "notice:"

    public init(database: HeraldDatabase) { self.database = database }

    /// The settings key of a notice: its kind and what it is about (a bulk id, a user and message id).
    static func key(kind: String, subject: String) -> String { "\(prefix)\(kind):\(subject)" }

    /// Records the notice as given; true when this call recorded it, false when it was given before (by anyone).
    public func claim(kind: String, subject: String, at date: Date) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO setting (key, value) VALUES (?, ?)",
                           arguments: [Self.key(kind: kind, subject: subject), String(Int64((date.timeIntervalSince1970 * 1000).rounded()))])
            return db.changesCount > 0
        }
    }

    /// Records every notice named as given, in one transaction; returns the subjects this call recorded.
    public func claim(kind: String, subjects: [String], at date: Date) throws -> [String] {
        guard !subjects.isEmpty else { return [] }
        let ms = String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        return try database.write { db in
            var won: [String] = []
            for subject in subjects {
                try db.execute(sql: "INSERT OR IGNORE INTO setting (key, value) VALUES (?, ?)",
                               arguments: [Self.key(kind: kind, subject: subject), ms])
                if db.changesCount > 0 { won.append(subject) }
            }
            return won
        }
    }

    /// When the notice was given; nil when it never was.
    public func claimedAt(kind: String, subject: String) throws -> Date? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [Self.key(kind: kind, subject: subject)])
        }.flatMap { Int64($0) }.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}
