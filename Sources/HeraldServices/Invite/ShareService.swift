import Foundation
import HeraldAPI
import HeraldCore

/// Why a share could not be made.
public enum ShareError: Error, Sendable, Hashable, UserFacingError {
    case emptyReferrer

    public var userMessage: String {
        switch self {
        case .emptyReferrer: return "no referrer: pass the name the referral link is for"
        }
    }
}

/// The other ways to invite: a referral link (from the platform, with its click count), its QR code and social share
/// URLs. (Email invitations go through `InviteService`, into the ledger, as SMS do.)
public struct ShareService: Sendable {
    private let platform: any MessagingPlatform

    public init(platform: any MessagingPlatform) {
        self.platform = platform
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
}
