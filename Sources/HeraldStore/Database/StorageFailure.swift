import Foundation
import GRDB

/// What a failed read or write of a Herald database means for the person at the keyboard: a full
/// disk, a folder that cannot be written, another process holding the database too long, a damaged
/// file. SQLite's own text never reaches the user; the message names the data folder and says what
/// happens to invitations still queued.
public enum StorageFailure {
    /// What queued invitations do when the database could not be written.
    static let queuedNote = "invitations already queued stay queued and are completed by the next run; nothing is sent twice"

    /// The message for a storage error; nil when `error` is not one.
    public static func message(for error: any Error) -> String? {
        let folder: String?
        let error_: DatabaseError
        if let storage = error as? StorageError {
            folder = storage.folder
            error_ = storage.underlying
        } else if let database = error as? DatabaseError {
            folder = nil
            error_ = database
        } else {
            return nil
        }
        let where_ = folder.map { "the data folder \($0)" } ?? "the data folder"
        let error = error_
        switch error.resultCode {
        case .SQLITE_FULL:
            return "the disk holding \(where_) is full: free some space and try again; \(queuedNote)"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            return "cannot write to \(where_): check that it exists and that you may write to it (or pass --data-dir DIR); \(queuedNote)"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "\(where_) is busy: another Herald process (or a backup) has held its database for over \(Int(HeraldDatabase.defaultBusyTimeout)) s; try again when it has finished; \(queuedNote)"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "a database in \(where_) is damaged or is not a Herald database: move it aside and restore a backup"
        case .SQLITE_IOERR:
            return "reading or writing \(where_) failed (input/output error): check the disk; \(queuedNote)"
        default:
            return "a database operation in \(where_) failed (SQLite result \(error.extendedResultCode.rawValue))"
        }
    }
}

/// A failed read or write of a Herald database, with the folder it lives in.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    public let folder: String
    public let underlying: DatabaseError

    public var description: String { StorageFailure.message(for: self) ?? "\(underlying)" }
}
