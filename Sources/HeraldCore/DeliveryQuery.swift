import Foundation

/// What `/` in Deliveries and `herald deliveries list --query` understand: plain words (each must match the
/// recipient's name, the digits of the number, the failure reason or the text sent), and terms that look in one place:
///
///     status:failed  reason:"absent subscriber"  country:HR  sender:Herald  by:ana  bulk:7f3a  text:party
///     after:2026-11-20  before:7d  price>:0.05  price<:1  -status:invited
///
/// A quoted value is one phrase; `-` before a term turns it into "not"; field names are read in any case. `after:` and
/// `before:` take a date (`2026-11-20`, the start of that day in `timeZone`) or a span back from now (`30m`, `12h`,
/// `7d`, `2w`). A term still being typed (`status:` with no value, an unclosed quote) is read as far as it goes.
///
/// `network:` is read but matches nothing: the platform's delivery reports do not say which network took a message
/// (`notes` says so, for the screen or the command line to show).
public struct DeliveryQuery: Sendable, Hashable {
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// A plain word: the name, the digits of the number, the reason or the text.
        case any
        case status, reason, country, network, sender, by, bulk, text, after, before
        case priceAbove = "price>"
        case priceBelow = "price<"
    }

    public struct Term: Sendable, Hashable {
        public var field: Field
        /// The value as typed (unquoted).
        public var value: String
        public var negated: Bool
        /// `status:`: the ledger statuses the word stands for.
        public var statuses: Set<DeliveryStatus>?
        /// `after:` / `before:`: the moment the value names.
        public var date: Date?
        /// `price>:` / `price<:`: the amount.
        public var amount: Double?
        /// `country:`: the ISO region, upper case.
        public var region: String?

        public init(field: Field, value: String, negated: Bool = false, statuses: Set<DeliveryStatus>? = nil,
                    date: Date? = nil, amount: Double? = nil, region: String? = nil) {
            self.field = field
            self.value = value
            self.negated = negated
            self.statuses = statuses
            self.date = date
            self.amount = amount
            self.region = region
        }

        /// The digits of a value written as a number (`+385 91-123`), nil when it holds anything else.
        public var numberDigits: String? { QueryWords.numberDigits(value) }
    }

    public var terms: [Term]
    /// The text as typed.
    public let text: String

    public var isEmpty: Bool { terms.isEmpty }

    /// What the query cannot do, to show beside its answer (`network:` matches nothing).
    public var notes: [String] {
        terms.contains { $0.field == .network }
            ? ["network: matches nothing: the platform's delivery reports do not say which network took a message"]
            : []
    }

    /// Reads `text`; spans (`7d`) count back from `now`, dates start at midnight in `timeZone`. A term still being
    /// typed is read as far as it goes; a value that cannot be read throws what to write instead.
    public init(_ text: String, now: Date, timeZone: TimeZone = .current) throws(DeliveryQueryError) {
        self.text = text
        terms = []
        let words = QueryWords.read(text) { head -> (Field, Substring.Index)? in
            if let found: (Field, Substring.Index) = QueryWords.colonField(head), found.0 != .any { return found }
            // `price>5` reads as `price>:5`.
            if let sign = head.firstIndex(where: { $0 == ">" || $0 == "<" }), head[head.startIndex..<sign].lowercased() == "price" {
                return (head[sign] == ">" ? .priceAbove : .priceBelow, head.index(after: sign))
            }
            return nil
        }
        for word in words {
            terms.append(try Self.term(word.field ?? .any, word.value, negated: word.negated, now: now, timeZone: timeZone))
        }
    }

    private static func term(_ field: Field, _ value: String, negated: Bool, now: Date,
                             timeZone: TimeZone) throws(DeliveryQueryError) -> Term {
        var term = Term(field: field, value: value, negated: negated)
        switch field {
        case .status:
            guard let statuses = statuses(named: value) else { throw .unknownStatus(value) }
            term.statuses = statuses
        case .country:
            let region = value.uppercased()
            guard region.count == 2, region.allSatisfy({ $0.isASCII && $0.isLetter }),
                  (try? PhoneNumberParser(defaultRegion: region)) != nil else { throw .unknownCountry(value) }
            term.region = region
        case .after, .before:
            guard let date = PastMoment.parse(value, now: now, timeZone: timeZone) else { throw .notADate(field.rawValue, value) }
            term.date = date
        case .priceAbove, .priceBelow:
            guard let amount = Double(value.replacingOccurrences(of: ",", with: ".")), amount.isFinite else {
                throw .notAPrice(field.rawValue, value)
            }
            term.amount = amount
        case .any, .reason, .network, .sender, .by, .bulk, .text:
            break
        }
        return term
    }

    /// The words `status:` reads: the four states (`failed` or `impossible`, `pending`, `invited`, `cancelled`), and
    /// `uncertain` (DeliveryUncertain: the carrier cannot tell). A status's own label (`delivered`, `rejected`,
    /// `"at network"`…) or wire name (`DeliveredToTerminal`) names just that status.
    public static func statuses(named name: String) -> Set<DeliveryStatus>? {
        let key = name.lowercased().filter { $0.isLetter }
        switch key {
        case "failed", "impossible", "failures": return Set(DeliveryStatus.allCases.filter { $0.state == .failed })
        case "pending": return Set(DeliveryStatus.allCases.filter { $0.state == .pending })
        case "invited": return Set(DeliveryStatus.allCases.filter { $0.state == .invited })
        case "cancelled", "canceled": return [.cancelled]
        case "uncertain": return [.deliveryUncertain]
        default: break
        }
        if let status = DeliveryStatus.allCases.first(where: {
            $0.label.filter(\.isLetter) == key || $0.rawValue.lowercased() == key
        }) {
            return [status]
        }
        return nil
    }

    /// The words a list marks in what it shows: the plain words and the reasons and texts looked for (not the `not`s).
    public static func highlightWords(_ text: String, now: Date = Date()) -> String {
        guard let query = try? DeliveryQuery(text, now: now) else { return text }
        return query.terms.filter { !$0.negated && [.any, .reason, .text].contains($0.field) }
            .map(\.value).joined(separator: " ")
    }
}

/// A delivery query that cannot be read, with what to write instead.
public enum DeliveryQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownStatus(String)
    case unknownCountry(String)
    /// The field (`after`, `before`) and the value.
    case notADate(String, String)
    /// The field (`price>`, `price<`) and the value.
    case notAPrice(String, String)

    public var description: String { message }

    public var message: String {
        switch self {
        case .unknownStatus(let value):
            return "status:\(value) is not a state: use status:failed, status:pending, status:invited, status:uncertain "
                + "or status:cancelled (or a status such as status:delivered or status:rejected)"
        case .unknownCountry(let value):
            return "country:\(value) is not a country: write its two-letter ISO code, e.g. country:HR"
        case .notADate(let field, let value):
            return "\(field):\(value) is not a date: write a day (\(field):2026-11-20), a day and time "
                + "(\(field):2026-11-20T14:30) or a span back from now (\(field):30m, 12h, 7d, 2w)"
        case .notAPrice(let field, let value):
            return "\(field):\(value) is not a price: write a number, e.g. \(field):0.05"
        }
    }
}
