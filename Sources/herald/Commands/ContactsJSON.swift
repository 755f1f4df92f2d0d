import HeraldCore
import HeraldStore

/// The JSON shape of one contact in `contacts list --json` and `contacts show --json`.
struct ContactJSON: Encodable {
    struct Phone: Encodable {
        var label: String?
        var raw: String
        var e164: String?
        var valid: Bool
        var status: String?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(label, forKey: .label)
            try c.encode(raw, forKey: .raw)
            try c.encode(e164, forKey: .e164)
            try c.encode(valid, forKey: .valid)
            try c.encode(status, forKey: .status)
        }

        enum CodingKeys: String, CodingKey { case label, raw, e164, valid, status }
    }

    var id: Int64
    var name: String
    var firstName: String
    var lastName: String
    var organization: String?
    var note: String?
    var phones: [Phone]
    var emails: [String]
    var groups: [String]
    /// Custom fields by name (`{"SHIRT_SIZE": "L"}`); `{}` when none.
    var fields: [String: String]

    init(_ p: Person, statuses: [String: DeliveryStatus]) {
        id = p.id ?? 0
        name = p.displayName
        firstName = p.firstName
        lastName = p.lastName
        organization = p.organization
        note = p.note
        phones = p.phones.map { ph in
            Phone(label: ph.label, raw: ph.number.raw, e164: ph.number.e164, valid: ph.number.isValid,
                  status: ph.number.e164.flatMap { statuses[$0]?.rawValue })
        }
        emails = p.emails.map(\.address)
        groups = p.groups
        fields = p.customFields
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(firstName, forKey: .firstName)
        try c.encode(lastName, forKey: .lastName)
        try c.encode(organization, forKey: .organization)
        try c.encode(note, forKey: .note)
        try c.encode(phones, forKey: .phones)
        try c.encode(emails, forKey: .emails)
        try c.encode(groups, forKey: .groups)
        try c.encode(fields, forKey: .fields)
    }

    enum CodingKeys: String, CodingKey { case id, name, firstName, lastName, organization, note, phones, emails, groups, fields }
}

extension ContactJSON {
    /// A stored contact with the latest status of each of its numbers, read from the ledger.
    init(_ p: Person, database: HeraldDatabase) throws {
        self.init(p, statuses: try LedgerStore(database: database).latestStatuses(msisdns: p.distinctNumbers))
    }
}

struct ContactListJSON: Encodable {
    var count: Int
    var contacts: [ContactJSON]
}
