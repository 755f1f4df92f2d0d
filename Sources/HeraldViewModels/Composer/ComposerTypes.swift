import Foundation
import HeraldCore
import HeraldServices

/// How the composer is configured.
nonisolated public struct ComposerSettings: Sendable {
    /// The sender ID the field starts with (config `sender`).
    public var sender: String
    /// `{SENDER_NAME}` for every recipient.
    public var senderName: String?
    /// The signature offered besides "none" (config), appended on its own line.
    public var signature: String?
    /// The link shown in previews and measured by the SMS meter (real links are made per message
    /// when sending and have this length).
    public var previewLink: String
    /// Whose referral link email invitations carry.
    public var referrer: String
    /// The referrer when neither a sender name nor a sender ID is known.
    public static let defaultReferrer = "Herald"

    public init(sender: String = "", senderName: String? = nil, signature: String? = nil,
                previewLink: String = "https://herald.invalid/r/AbCd2345", referrer: String = ComposerSettings.defaultReferrer) {
        self.sender = sender
        self.senderName = senderName
        self.signature = signature
        self.previewLink = previewLink
        self.referrer = referrer
    }
}

/// What the send confirmation shows: who gets what, and what it costs.
nonisolated public struct SendConfirmation: Sendable, Hashable {
    /// One line per recipient: name, numbers (or address) and the segments of their message.
    public var lines: [String]
    /// Numbers (SMS) or addresses (email) that will be sent to.
    public var destinations: Int
    /// People selected who cannot be reached on this channel (no number / no email).
    public var unreachable: [String]
    /// SMS segments over every destination (0 for email).
    public var totalSegments: Int
    /// "Send 3 SMS invitations (6 segments)?"
    public var title: String
    /// The message as the first recipient gets it (SMS), and the sender ID it goes out under.
    public var preview: String = ""
    public var sender: String?
    /// Numbers left out because they are already invited or on their way (the resend policy).
    public var alreadyInvited = 0
    /// What it will cost (SMS): "Cost: about 1.35 EUR (HR 27 parts × 0.05)", with who has no known price; nil for
    /// email, "Cost: working it out…" until the estimate comes.
    public var cost: String?
    /// The numbers whose price is unknown (they are not counted in the cost).
    public var unknownPrices: [String] = []
    /// The estimate, once it came (each bulk of the send keeps its part of it).
    public var estimate: PriceEstimate?
    /// Why the send is confirmed twice (its estimate is above `[send] confirm_above`, or cannot be told); nil: once.
    public var costQuestion: String?
    /// The first yes was given to a send with a `costQuestion`: the question names the cost and takes `y` again.
    public var askedAgain = false
    /// Recipients whose personal field is empty with no fallback in the message (one entry per field): the send
    /// waits for a choice (`ComposerViewModel.leaveOutMissing`, `setFallback`).
    public var missing: [MissingField] = []
    /// People left out for a field they lack ("Iva Kovač (no TEAM)"), once that was chosen.
    public var leftOut: [String] = []
    /// A large send (more than `SendConfirmation.explicitYesAbove` destinations), or one asked again for its cost, is
    /// confirmed with `y`, never Enter.
    public var needsExplicitYes: Bool { destinations > Self.explicitYesAbove || askedAgain }
    public static let explicitYesAbove = 50
}

/// A range of the editor text to draw differently.
nonisolated public struct ComposerMark: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The link placeholder (`<>`).
        case link
        /// A `{FIELD}` placeholder; `known` is false for fields the protocol cannot carry.
        case field(known: Bool)
        /// A character that forces the whole SMS into UCS-2.
        case ucs2
    }
    public var kind: Kind
    /// Offsets in Characters from the start of the editor text.
    public var range: Range<Int>
}

/// When a send from the Composer leaves, chosen in its confirmation (`t` cycles): after the undo window, in an hour,
/// or tomorrow at 09:00 (local time). A later one is held by the platform and listed in Deliveries until then.
nonisolated public enum SendWhen: Sendable, Hashable, CaseIterable {
    case soon, inAnHour, tomorrowMorning

    /// The time to hold it until; nil: as soon as the undo window ends.
    public func date(now: Date, calendar: Calendar = .current) -> Date? {
        switch self {
        case .soon: return nil
        case .inAnHour: return Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.up) * 60 + 3600)
        case .tomorrowMorning:
            let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
            return calendar.date(bySettingHour: 9, minute: 0, second: 0, of: tomorrow)
        }
    }

    /// The next choice in the cycle.
    public var next: SendWhen {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}
