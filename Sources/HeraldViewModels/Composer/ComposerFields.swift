import HeraldCore

/// The fields a Composer message may use: the five client fields the platform fills, and the personal fields
/// (`PersonalFields`: first name, team…) filled per recipient before the text leaves.
nonisolated enum ComposerFields {
    /// A person's personal field values (nil: none).
    static func values(of person: Person?) -> [String: String] {
        person.map(PersonalFields.values(of:)) ?? [:]
    }

    /// The client fields, the standard personal fields and every custom field of `people`, in that order.
    static func names(for people: [Person]) -> [String] {
        let custom = Set(people.flatMap { $0.customFields.keys }).subtracting(PersonalFields.reserved).sorted()
        return ClientField.allCases.map(\.rawValue) + PersonalFields.standard + custom
    }

    /// The personal fields the template uses (beyond the client fields).
    static func personal(_ template: MessageTemplate) -> [String] { template.unknownFields }

    /// The first field the template uses without a fallback that is neither a client nor a standard field and that
    /// none of `people` has (a typo, a column never imported); nil when there is none.
    static func fieldNobodyHas(_ template: MessageTemplate, people: [Person]) -> String? {
        let custom = Set(people.flatMap { $0.customFields.keys })
        return personal(template).first { field in
            !PersonalFields.standard.contains(field) && !custom.contains(field)
                && template.placeholders.contains { $0.kind == .field(field) && $0.fallback == nil }
        }
    }
}
