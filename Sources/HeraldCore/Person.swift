import Foundation

/// A phone number of a person with its label ("mobile", "work", …).
public struct LabeledPhone: Sendable, Hashable, Codable {
    public var label: String?
    public var number: PhoneNumber

    public init(label: String?, number: PhoneNumber) {
        self.label = label
        self.number = number
    }

    /// Why this number cannot take an SMS whatever its kind: labelled fax or pager (an imported
    /// `TEL;TYPE=FAX,WORK`, Apple's `HomeFAX`, Google's "Work Fax"); nil otherwise.
    public var labelRefusesSMS: String? {
        guard let written = label else { return nil }
        // Asked for every number of every row a list shows: plain ASCII labels without Foundation.
        let label = FastText.isASCII(written) ? FastText.asciiLowercased(written) : written.lowercased()
        if label.utf8.firstRange(of: "fax".utf8) != nil { return "labelled \(label): a fax cannot receive SMS" }
        if label.utf8.firstRange(of: "pager".utf8) != nil { return "labelled \(label): a pager cannot receive SMS" }
        return nil
    }
}

/// A number of a person that is not sent an invitation, and why.
public struct SkippedNumber: Sendable, Hashable {
    /// E.164 when valid, else the text as written.
    public var address: String
    public var reason: String
    /// True when the number can take an SMS and is skipped only because another was preferred:
    /// the user may choose it.
    public var mayBeChosen: Bool

    public init(address: String, reason: String, mayBeChosen: Bool = false) {
        self.address = address
        self.reason = reason
        self.mayBeChosen = mayBeChosen
    }
}

/// An email address of a person with its label.
public struct LabeledEmail: Sendable, Hashable, Codable {
    public var label: String?
    public var address: String

    public init(label: String?, address: String) {
        self.label = label
        self.address = address
    }

    /// The lowercased domain part, nil when the address has none.
    public var domain: String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let d = address[address.index(after: at)...].lowercased()
        return d.isEmpty ? nil : d
    }
}

/// One person of the address book.
public struct Person: Sendable, Hashable, Codable, Identifiable {
    /// Local database id; nil before the person is stored.
    public var id: Int64?
    /// The vCard UID, when the source had one.
    public var uid: String?
    public var firstName: String
    public var lastName: String
    /// The formatted name (vCard FN); derived from the parts when empty.
    public var formattedName: String
    public var organization: String?
    /// A free-text note (vCard NOTE).
    public var note: String?
    public var phones: [LabeledPhone]
    public var emails: [LabeledEmail]
    public var hasPhoto: Bool
    /// The source's revision time (vCard REV), when it had one.
    public var revision: Date?
    /// When this person was first stored and last changed locally.
    public var createdAt: Date?
    public var updatedAt: Date?
    /// The number invitations go to, chosen by the user (E.164); nil: Herald picks (`smsPlan`).
    public var smsNumber: String?
    /// The groups the person is in (vCard CATEGORIES, a CSV's labels, tags given in Herald), as written; one per
    /// folded name (`PersonGroups.fold`).
    public var groups: [String]
    /// The person's own fields beyond the standard ones (`PersonalFields`): a CSV column Herald has no place for, a
    /// vCard `X-` property, a field added in Herald. Keys are field names in UPPER_SNAKE (`SHIRT_SIZE`), values
    /// plain text; a template uses them as `{SHIRT_SIZE}`.
    public var customFields: [String: String]

    public init(id: Int64? = nil, uid: String? = nil, firstName: String = "", lastName: String = "",
                formattedName: String = "", organization: String? = nil, phones: [LabeledPhone] = [],
                emails: [LabeledEmail] = [], hasPhoto: Bool = false, revision: Date? = nil,
                createdAt: Date? = nil, updatedAt: Date? = nil, smsNumber: String? = nil, note: String? = nil,
                groups: [String] = [], customFields: [String: String] = [:]) {
        self.id = id
        self.uid = uid
        self.firstName = firstName
        self.lastName = lastName
        self.formattedName = formattedName
        self.organization = organization
        self.phones = phones
        self.emails = emails
        self.hasPhoto = hasPhoto
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.smsNumber = smsNumber
        self.note = note
        self.groups = groups
        self.customFields = customFields
    }

    private enum CodingKeys: String, CodingKey {
        case id, uid, firstName, lastName, formattedName, organization, note, phones, emails, hasPhoto, revision
        case createdAt, updatedAt, smsNumber, groups, customFields
    }

    /// Reads what `encode` wrote, and what a Herald older than groups or custom fields wrote (they are then empty).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(Int64.self, forKey: .id)
        uid = try c.decodeIfPresent(String.self, forKey: .uid)
        firstName = try c.decodeIfPresent(String.self, forKey: .firstName) ?? ""
        lastName = try c.decodeIfPresent(String.self, forKey: .lastName) ?? ""
        formattedName = try c.decodeIfPresent(String.self, forKey: .formattedName) ?? ""
        organization = try c.decodeIfPresent(String.self, forKey: .organization)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        phones = try c.decodeIfPresent([LabeledPhone].self, forKey: .phones) ?? []
        emails = try c.decodeIfPresent([LabeledEmail].self, forKey: .emails) ?? []
        hasPhoto = try c.decodeIfPresent(Bool.self, forKey: .hasPhoto) ?? false
        revision = try c.decodeIfPresent(Date.self, forKey: .revision)
        createdAt = try c.decodeIfPresent(Date.self, forKey: .createdAt)
        updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
        smsNumber = try c.decodeIfPresent(String.self, forKey: .smsNumber)
        groups = try c.decodeIfPresent([String].self, forKey: .groups) ?? []
        customFields = try c.decodeIfPresent([String: String].self, forKey: .customFields) ?? [:]
    }

    /// The name shown to people: FN, else "First Last", else the organisation, else the first
    /// email or number.
    public var displayName: String {
        // Asked for every row shown and every person imported: no Foundation, no arrays.
        let fn = formattedName.trimmedSpaces
        if !fn.isEmpty { return fn }
        let first = firstName.trimmedSpaces, last = lastName.trimmedSpaces
        if !first.isEmpty || !last.isEmpty { return first.isEmpty ? last : (last.isEmpty ? first : first + " " + last) }
        if let org = organization?.trimmedSpaces, !org.isEmpty { return org }
        if let email = emails.first?.address { return email }
        if let phone = phones.first?.number.raw { return phone }
        return ""
    }

    /// Whether the person has any name part (not just an organisation, number or email).
    public var hasName: Bool {
        !(formattedName + firstName + lastName).trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// Distinct E.164 numbers that can receive an invitation, in the order they appear.
    public var invitableNumbers: [String] { smsPlan.numbers }

    /// The numbers an SMS invitation goes to and the ones it skips, with the reason: the number the
    /// user chose (`smsNumber`) when it can still take an SMS; else the first mobile; when the person
    /// has no mobile, the numbers that may be mobile (fixed-line-or-mobile, personal, VoIP); never a
    /// number labelled fax or pager, a fixed line or an invalid number.
    public var smsPlan: (numbers: [String], skipped: [SkippedNumber]) { smsPlan(allMobiles: false) }

    /// `smsPlan`; one SMS per person (the first mobile, else the first number that may be one) unless `allMobiles`
    /// (`[invite] numbers = "all-mobiles"`), which invites each of them.
    public func smsPlan(allMobiles: Bool) -> (numbers: [String], skipped: [SkippedNumber]) {
        let automatic = automaticSMSPlan(allMobiles: allMobiles)
        let choosable = smsCapableNumbers(automatic)
        guard let chosen = smsNumber, choosable.contains(chosen) else { return automatic }
        let others = choosable.filter { $0 != chosen }.map {
            SkippedNumber(address: $0, reason: "not the number chosen for invitations", mayBeChosen: true)
        }
        return ([chosen], automatic.skipped.filter { !$0.mayBeChosen } + others)
    }

    /// The numbers that can take an SMS, whether Herald would invite them or not: those the user may choose.
    public var smsCapableNumbers: [String] { smsCapableNumbers(automaticSMSPlan(allMobiles: true)) }

    private func smsCapableNumbers(_ plan: (numbers: [String], skipped: [SkippedNumber])) -> [String] {
        plan.numbers + plan.skipped.filter(\.mayBeChosen).map(\.address)
    }

    /// The plan Herald makes by itself, without the user's choice.
    private func automaticSMSPlan(allMobiles: Bool) -> (numbers: [String], skipped: [SkippedNumber]) {
        var mobiles: [String] = [], maybe: [String] = [], skipped: [SkippedNumber] = []
        var seen = Set<String>()
        for p in phones {
            let address = p.number.e164 ?? p.number.raw
            if let reason = p.number.invalidReason ?? (p.number.isValid ? nil : "not a valid number") {
                skipped.append(SkippedNumber(address: address, reason: reason))
                continue
            }
            guard let e = p.number.e164, seen.insert(e).inserted else { continue }
            if let refusal = p.labelRefusesSMS {
                skipped.append(SkippedNumber(address: e, reason: refusal))
            } else if p.number.kind == .mobile {
                mobiles.append(e)
            } else if p.number.kind.canReceiveSMS {
                maybe.append(e)
            } else {
                skipped.append(SkippedNumber(address: e, reason: "a \(p.number.kind.rawValue) number cannot receive SMS"))
            }
        }
        // One SMS per person: the first of them; the others may still be chosen.
        func one(_ numbers: [String]) -> (numbers: [String], skipped: [SkippedNumber]) {
            guard !allMobiles, let first = numbers.first, numbers.count > 1 else { return (numbers, skipped) }
            return ([first], skipped + numbers.dropFirst().map {
                SkippedNumber(address: $0, reason: "one SMS per person: \(first) is invited ([invite] numbers = \"all-mobiles\" sends to each)",
                              mayBeChosen: true)
            })
        }
        if mobiles.isEmpty { return one(maybe) }
        skipped += maybe.map { SkippedNumber(address: $0, reason: "may not be a mobile; the mobile number is invited instead", mayBeChosen: true) }
        return one(mobiles)
    }

    /// Distinct valid E.164 numbers, in the order they appear.
    public var distinctNumbers: [String] {
        var seen = Set<String>()
        return phones.compactMap { p in
            guard let e = p.number.e164, seen.insert(e).inserted else { return nil }
            return e
        }
    }
}
