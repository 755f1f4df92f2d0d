import HeraldCore
import HeraldServices

/// What the Composer reads and keeps besides its messages, each off the UI thread: the ledger's latest status of each
/// number (so the confirmation counts only numbers the send will really go to), the people selected, and the sender
/// name `:name` keeps. A part left nil is not there (nothing is known to be invited; no name is kept).
nonisolated public struct ComposerSource: Sendable {
    public var latestStatuses: (@Sendable ([String]) async throws -> [String: DeliveryStatus])?
    public var readPeople: (@Sendable ([Int64]) async throws -> [Person])?
    public var saveSenderName: (@Sendable (String) async throws -> Void)?
    /// The name kept by an earlier `:name`, used when no sender name was configured.
    public var readSavedSenderName: (@Sendable () async -> String?)?

    public init(latestStatuses: (@Sendable ([String]) async throws -> [String: DeliveryStatus])? = nil,
                readPeople: (@Sendable ([Int64]) async throws -> [Person])? = nil,
                saveSenderName: (@Sendable (String) async throws -> Void)? = nil,
                readSavedSenderName: (@Sendable () async -> String?)? = nil) {
        self.latestStatuses = latestStatuses
        self.readPeople = readPeople
        self.saveSenderName = saveSenderName
        self.readSavedSenderName = readSavedSenderName
    }

    /// The workspace's address book and invitation service.
    public init(book: ContactBook, invites: InviteService) {
        self.init(latestStatuses: { try await book.latestStatuses(msisdns: $0) },
                  readPeople: { try await book.people(ids: $0) },
                  saveSenderName: { try invites.saveSenderName($0) },
                  readSavedSenderName: { invites.savedSenderName })
    }
}
