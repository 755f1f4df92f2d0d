import HeraldServices
import HeraldStore

/// The NAME column of a recipient table: the contact's name, empty for an address with no contact,
/// and "(could not read)" when the contact store fails (said once on stderr, with the cause), so a
/// failed read never looks like a recipient with no name.
struct ContactNameColumn {
    static let unreadable = "(could not read)"
    let contacts: ContactStore
    private var warned = false

    init(contacts: ContactStore) { self.contacts = contacts }

    mutating func name(of personId: Int64?) -> String {
        guard let personId else { return "" }
        do { return try contacts.person(id: personId)?.displayName ?? "" } catch {
            if !warned { Output.warn("could not read the recipients' contact names: \(userMessage(for: error))") }
            warned = true
            return Self.unreadable
        }
    }
}
