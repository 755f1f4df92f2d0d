import HeraldServices

/// The NAME column of a recipient table: the contact's name, empty for an address with no contact,
/// and "(could not read)" when the contact store fails (said once on stderr, with the cause), so a
/// failed read never looks like a recipient with no name. Every name is read at once, before the table.
struct ContactNameColumn {
    static let unreadable = "(could not read)"
    private var names: [Int64: String] = [:]
    private var failed = false

    init(_ personIds: [Int64?], book: ContactBook) async {
        let ids = Array(Set(personIds.compactMap { $0 }))
        guard !ids.isEmpty else { return }
        do {
            for person in try await book.people(ids: ids) {
                if let id = person.id { names[id] = person.displayName }
            }
        } catch {
            Output.warn("could not read the recipients' contact names: \(userMessage(for: error))")
            failed = true
        }
    }

    func name(of personId: Int64?) -> String {
        guard let personId else { return "" }
        return failed ? Self.unreadable : names[personId] ?? ""
    }
}
