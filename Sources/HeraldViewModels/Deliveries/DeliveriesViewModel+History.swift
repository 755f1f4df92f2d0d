import Foundation
import HeraldCore
import HeraldServices

/// The open bulk's history from the platform's audit trail: who sent it and from where, who moved, took back or
/// resent it. A server's trail is the team's, so every terminal shows the same; the header shows the latest line,
/// `a` all of them.
nonisolated public struct BulkHistory: Sendable, Equatable {
    public let bulkId: String
    /// Oldest first, terminal-safe.
    public let lines: [String]
    /// Why the trail could not be read (a viewer asking for what it may not see, a platform without one).
    public let failure: String?
}

extension DeliveriesViewModel {
    /// Reads the audit trail of `bulkId` off the UI thread.
    func readHistory(of bulkId: String) {
        guard let audit else { return }
        context.effects.perform({ try await audit.history(ofBulk: bulkId).map { AuditTrail.line($0) } },
                                supersedes: "deliveries.history") { [weak self] result in
            guard let self, self.openBulkId == bulkId else { return }
            switch result {
            case .success(let lines): self.bulkHistory = BulkHistory(bulkId: bulkId, lines: lines, failure: nil)
            case .failure(let error): self.bulkHistory = BulkHistory(bulkId: bulkId, lines: [], failure: userMessage(for: error))
            }
        }
    }

    /// `a` in an open bulk: its whole history in front (read again), or closed.
    public func toggleHistory() {
        guard let bulkId = openBulkId else { return }
        showsHistory.toggle()
        if showsHistory { readHistory(of: bulkId) }
    }
}
