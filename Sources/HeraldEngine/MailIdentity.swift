import Foundation
import HeraldAPI
import HeraldCore

/// A server's own mail identity (`[smtp] from`): every email it sends leaves from this address, in the header and the
/// envelope, whatever a client asks. A client may name itself (the display name) when the operator allows it, and
/// have replies go to its own address (Reply-To) when that address is in a domain the operator allows; it can never
/// send as another address. Without an identity (a terminal's own engine and mail program) the From is the user's.
public struct MailIdentity: Sendable, Hashable {
    public var from: EmailAddress
    /// Whether a client's display name replaces the identity's ("Ana Horvat <invite@example.com>").
    public var clientDisplayNames: Bool
    /// Domains (lower case) whose addresses a client may give as its Reply-To.
    public var replyToDomains: Set<String>

    /// `replyToDomains` nil: the identity's own domain.
    public init(from: EmailAddress, clientDisplayNames: Bool = true, replyToDomains: [String]? = nil) {
        self.from = from
        self.clientDisplayNames = clientDisplayNames
        self.replyToDomains = Set((replyToDomains ?? [from.domain]).map { $0.lowercased() })
    }

    /// Why a request's sender cannot be used here; nil when it can.
    func problem(with sender: EmailAddress) -> String? {
        if isOwn(sender) || replyToDomains.contains(sender.domain.lowercased()) { return nil }
        let allowed = replyToDomains.isEmpty ? "none" : replyToDomains.sorted().joined(separator: ", ")
        return "\(sender.address) cannot be a Reply-To of this server (domains allowed: \(allowed)); "
            + "its email leaves from \(from.address)"
    }

    /// The From and Reply-To an email of `sender` leaves with.
    func headers(for sender: EmailAddress) -> (from: EmailAddress, replyTo: EmailAddress?) {
        let name = clientDisplayNames ? sender.displayName ?? from.displayName : from.displayName
        let replyTo = isOwn(sender) || problem(with: sender) != nil ? nil : sender
        // Both parts were checked as parts of mailboxes already, so this cannot fail; if it did, the identity stands.
        do { return (try EmailAddress(from.address, displayName: name, field: "From"), replyTo) } catch { return (from, replyTo) }
    }

    private func isOwn(_ sender: EmailAddress) -> Bool { sender.address.lowercased() == from.address.lowercased() }
}
