/// What `/` in Contacts and `--search` understand: plain words as always (each must match a name, the
/// organisation, an email or the digits of a number), and terms that look in one place:
///
///     name:ana  phone:+38591  email:example.com  org:"Acme d.o.o."  status:pending  book:work  -status:failed
///     group:"running club"  segment:invitees
///
/// `group:` finds the people in a group (vCard CATEGORIES, a CSV's labels, a tag), its name in any case and with or
/// without diacritics; `segment:` the people a saved query finds now (`herald contacts segments save`).
/// A quoted value is one phrase (`"de la"`); `-` before a term turns it into "not"; field names are read in any case.
public struct ContactQuery: Sendable, Hashable {
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// A plain word: names, organisation, emails, or the digits of a number.
        case any, name, phone, email, org, book, status
        /// A group the person is in (whole name, folded as names are).
        case group
        /// A saved query, evaluated when used.
        case segment
    }

    public struct Term: Sendable, Hashable {
        public var field: Field
        /// The value as typed (unquoted); for `status:`, the state's name.
        public var value: String
        public var negated: Bool
        /// The state `status:` asks for.
        public var state: InvitationState?

        public init(field: Field, value: String, negated: Bool = false, state: InvitationState? = nil) {
            self.field = field
            self.value = value
            self.negated = negated
            self.state = state
        }

        /// The digits of a value written as a number (`+385 91-123`), nil when it holds anything else.
        public var numberDigits: String? { QueryWords.numberDigits(value) }
    }

    public var terms: [Term]
    /// The text as typed.
    public let text: String

    public var isEmpty: Bool { terms.isEmpty }

    /// Reads `text`. A term still being typed (`name:` with no value, an unclosed quote) is read as far as it goes.
    public init(_ text: String) throws(ContactQueryError) {
        self.text = text
        terms = []
        let words = QueryWords.read(text) { head -> (Field, Substring.Index)? in
            guard let found: (Field, Substring.Index) = QueryWords.colonField(head), found.0 != .any else { return nil }
            return found
        }
        for word in words {
            let field = word.field ?? .any, trimmed = word.value, negated = word.negated
            var term = Term(field: field, value: trimmed, negated: negated)
            switch field {
            case .status:
                guard let state = Self.state(named: trimmed) else { throw .unknownStatus(trimmed) }
                term.state = state
            case .phone:
                guard term.numberDigits != nil else { throw .notANumber(trimmed) }
            default:
                break
            }
            terms.append(term)
        }
    }

    /// `invited`, `pending`, `failed` (or `impossible`), `not-invited` (`not invited`, `notinvited`): the words
    /// `StateSelection` reads, as the state a list shows.
    static func state(named name: String) -> InvitationState? {
        switch StateSelection(name: name) {
        case .notInvited: return .notInvited
        case .pending: return .pending
        case .invited: return .invited
        case .failed: return .impossible
        case nil: return nil
        }
    }

    /// The plain words, as one query for the search index.
    public var plainWords: String {
        terms.filter { $0.field == .any && !$0.negated && !$0.value.contains(" ") }.map(\.value).joined(separator: " ")
    }

    /// The words a list marks in the names it shows: what the query looks for in names (not its `not`s, states
    /// or books). A query that cannot be read marks its words as typed.
    public static func highlightWords(_ text: String) -> String {
        guard let query = try? ContactQuery(text) else { return text }
        return query.terms.filter { !$0.negated && ($0.field == .any || $0.field == .name || $0.field == .org) }
            .map(\.value).joined(separator: " ")
    }

    /// A name as a query term's value (`group:`, `segment:`): in quotes when it has a space.
    public static func quoted(_ name: String) -> String {
        name.contains(where: { $0.isWhitespace }) ? "\"\(name)\"" : name
    }

    /// Every term but the plain words (none: the search index answers the query as it always has).
    public var filters: [Term] {
        terms.filter { !($0.field == .any && !$0.negated && !$0.value.contains(" ")) }
    }
}

/// A query that cannot be read, with what to write instead.
public enum ContactQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownStatus(String)
    case notANumber(String)
    /// `book:` with no `[[books]]` configured, or a name none of them has.
    case unknownBook(String, known: [String])
    /// `segment:` naming no saved segment.
    case unknownSegment(String, known: [String])
    /// A segment that uses itself, directly or through others (the chain of names, the first again at its end).
    case segmentCycle([String])

    public var description: String { message }

    public var message: String {
        switch self {
        case .unknownStatus(let value):
            return "status:\(value) is not a state: use status:invited, status:pending, status:failed or status:not-invited"
        case .notANumber(let value):
            return "phone:\(value) is not a number: write digits, e.g. phone:+38591"
        case .unknownBook(let value, let known):
            return known.isEmpty
                ? "book:\(value): no address books are configured ([[books]] in config.toml)"
                : "book:\(value) is not a book: use \(known.map { "book:\($0)" }.joined(separator: ", "))"
        case .unknownSegment(let value, let known):
            return known.isEmpty
                ? "segment:\(value): no segments are saved (save one with :save NAME or herald contacts segments save)"
                : "segment:\(value) is not a saved segment: use \(known.map { "segment:\(ContactQuery.quoted($0))" }.joined(separator: ", "))"
        case .segmentCycle(let chain):
            return "segment \(chain.first ?? "") uses itself (\(chain.joined(separator: " → "))): a segment cannot contain itself"
        }
    }

}

