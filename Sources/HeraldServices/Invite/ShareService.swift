import Foundation
import HeraldAPI
import HeraldCore

/// Why a share could not be made.
public enum ShareError: Error, Sendable, Hashable, UserFacingError {
    case noEmail(String)
    case noEmailSender
    case emptyReferrer

    public var userMessage: String {
        switch self {
        case .noEmail(let name): return "\(name) has no email address: invite them by SMS instead"
        case .noEmailSender: return "no email sender: set email_from = \"you@example.com\" in config.toml"
        case .emptyReferrer: return "no referrer: pass the name the referral link is for"
        }
    }
}

/// The other ways to invite: a referral link (from the platform, with its click count), its QR
/// code, social share URLs, and email invitations for people with an email address.
public struct ShareService: Sendable {
    private let platform: any MessagingPlatform
    private let emailInviter: EmailInviter?

    public init(platform: any MessagingPlatform, emailInviter: EmailInviter?) {
        self.platform = platform
        self.emailInviter = emailInviter
    }

    /// The referrer's own shareable link, created on first ask and stable after; `clicks` counts opens.
    public func referralLink(referrer: String) async throws -> ReferralLink {
        let name = referrer.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw ShareError.emptyReferrer }
        return try await platform.referralLink(.referrer(name))
    }

    /// A QR code of a link.
    public func qrCode(for link: String) throws -> QRCode {
        try QRCode(encoding: link)
    }

    /// Share URLs for every social platform.
    public func shareURLs(text: String, link: String) -> [(platform: SharePlatform, url: String)] {
        ShareLinks.all(text: text, link: link)
    }

    /// Emails an invitation with the referrer's link to the person's first address.
    @discardableResult
    public func emailInvite(_ person: Person, referrer: String, subject: String = "An invitation to Herald",
                            text: String? = nil) async throws -> EmailMessage {
        guard let inviter = emailInviter else { throw ShareError.noEmailSender }
        guard let first = person.emails.first else { throw ShareError.noEmail(person.displayName) }
        let link = try await referralLink(referrer: referrer)
        let address = try EmailAddress(first.address, displayName: person.hasName ? person.displayName : nil)
        let greeting = person.hasName ? "Hi \(person.displayName),\n\n" : "Hi,\n\n"
        let body = greeting + (text ?? "\(referrer) invites you to Herald.") + "\n\n" + link.url + "\n"
        return try await inviter.send(to: address, subject: subject, body: body)
    }
}
