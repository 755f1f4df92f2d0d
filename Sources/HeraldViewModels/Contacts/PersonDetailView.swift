import Foundation
import HeraldCore
import HeraldServices

/// The detail of one person as the detail view shows it: every number with its type, status and
/// history, the bulks, and why the person was suggested. All text is sanitised.
nonisolated public struct PersonDetailView: Sendable, Hashable {
    /// One number of the person.
    public struct Number: Sendable, Hashable {
        public let label: String
        public let raw: String
        /// E.164, nil when the number is not valid.
        public let e164: String?
        public let kind: String
        /// Why the number cannot be used, when it cannot.
        public let problem: String?
        /// Latest status, nil when never sent to.
        public let status: DeliveryStatus?
        /// One line per invitation to this number, oldest first.
        public let history: [String]
        /// True when an invitation to this person goes to this number.
        public let invited: Bool
        /// True when the user chose this number for the person's invitations.
        public let chosen: Bool
        /// True when the number can take an SMS, so the user may choose it.
        public let choosable: Bool
        /// Why no invitation goes to this number, nil when one does.
        public let skipped: String?
    }

    public let personId: Int64?
    public let name: String
    public let organization: String?
    public let emails: [String]
    /// The groups the person is in (vCard CATEGORIES, tags); `:group NAME` lists everyone in one.
    public let groups: [String]
    /// The person's custom fields (`SHIRT_SIZE`, "L"), by name; a message uses each as `{SHIRT_SIZE}`.
    public let customFields: [CustomField]
    public let numbers: [Number]
    public let badge: InvitationBadge
    public let bulkIds: [String]
    /// Why the person is suggested; nil when they are not among the current suggestions.
    public let reasons: [String]?

    /// One custom field of the person, as shown.
    public struct CustomField: Sendable, Hashable {
        public let name: String
        public let value: String
    }

    public init(detail: PersonDetail, reasons: [String]?) {
        let person = detail.person
        let safe = { (text: String) in TerminalSafeText.sanitize(text) }
        personId = person.id
        name = safe(person.displayName)
        organization = person.organization.map(safe)
        emails = person.emails.map { e in safe((e.label.map { "\($0): " } ?? "") + e.address) }
        groups = person.groups.map(safe)
        customFields = person.customFields.keys.sorted().map { name in
            // A value may hold line breaks: shown on one line, each as "⏎".
            let value = (person.customFields[name] ?? "").replacingOccurrences(of: "\n", with: " ⏎ ")
            return CustomField(name: safe(name), value: safe(value))
        }
        let plan = person.smsPlan
        let choosable = Set(person.smsCapableNumbers)
        var listed = Set<String>()
        numbers = person.phones.map { phone in
            let n = phone.number
            let address = n.e164 ?? n.raw
            // A number written twice is invited once: the second one says so.
            let first = listed.insert(address).inserted
            let invited = first && plan.numbers.contains(address)
            let skipped = invited ? nil : first ? plan.skipped.first { $0.address == address }?.reason : "the same number as above"
            let history = detail.invitations.filter { $0.msisdn == n.e164 }.map { inv in
                var line = "\(Self.stamp(inv.createdAt))  \(inv.status.label(for: inv.msisdn))"
                if let bulk = inv.bulkId { line += "  bulk \(bulk.prefix(8))" }
                if inv.updatedAt != inv.createdAt { line += "  updated \(Self.stamp(inv.updatedAt))" }
                if let error = inv.error { line += "  (\(error))" }
                return safe(line)
            }
            return Number(label: safe(phone.label ?? "phone"), raw: safe(n.raw), e164: n.e164, kind: n.kind.rawValue,
                          problem: n.invalidReason.map(safe) ?? (n.isValid && !n.isInvitable ? "cannot receive SMS" : nil),
                          status: n.e164.flatMap { detail.summary.statusByNumber[$0] }, history: history,
                          invited: invited, chosen: first && person.smsNumber == address && invited,
                          choosable: first && choosable.contains(address), skipped: skipped.map(safe))
        }
        badge = InvitationBadge(summary: detail.summary)
        bulkIds = detail.summary.bulkIds.map(safe)
        self.reasons = reasons.map { $0.map(safe) }
    }

    /// "2026-01-05 14:03:07" in the local time zone.
    public static func stamp(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }

    /// The view as plain lines (the pane draws these, styling headings).
    public var lines: [String] { layout.lines }

    /// The line each number starts on (for the number cursor).
    public var numberLines: [Int] { layout.numberLines }

    private var layout: (lines: [String], numberLines: [Int]) {
        var out: [String] = []
        var numberLines: [Int] = []
        if let organization, !organization.isEmpty { out.append("Organisation: \(organization)") }
        out.append("State: \(badge.text)")
        for email in emails { out.append("Email: \(email)") }
        if !groups.isEmpty { out.append("Groups: \(groups.joined(separator: ", "))  (:group NAME lists everyone in one)") }
        if !customFields.isEmpty {
            out.append("")
            out.append("Fields (a message uses each as {NAME}; e edits them)")
            for field in customFields { out.append("  \(field.name): \(field.value)") }
        }
        out.append("")
        out.append("Numbers")
        if numbers.isEmpty { out.append("  (no phone number)") }
        for n in numbers {
            numberLines.append(out.count)
            var line = "  \(n.label): \(n.e164 ?? n.raw)  \(n.kind)"
            if n.e164 != nil && n.raw != n.e164 { line += "  (written \(n.raw))" }
            line += "  — " + (n.status?.label ?? (n.problem ?? "never invited"))
            out.append(line)
            if n.invited {
                out.append("      → invitations go here" + (n.chosen ? " (chosen; space lets Herald choose)" : ""))
            } else if let skipped = n.skipped {
                out.append("      ✗ not invited: \(skipped)" + (n.choosable ? " (space invites this one instead)" : ""))
            }
            for h in n.history { out.append("      " + h) }
        }
        out.append("")
        out.append("Bulks: " + (bulkIds.isEmpty ? "none" : bulkIds.joined(separator: ", ")))
        out.append("")
        if let reasons {
            out.append("Suggested because: " + (reasons.isEmpty ? "ranked high" : reasons.joined(separator: "; ")))
        } else {
            out.append("Not among the current suggestions.")
        }
        return (out, numberLines)
    }
}
