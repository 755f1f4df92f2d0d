/// Checks on every value a request brings (path, query, headers, JSON body) before anything is done with it:
/// numbers in their range, identifiers without control characters, texts with newline and tab only. Problems are
/// gathered per field and thrown as one 400 that names each field, never trapped on.
public struct WireInput: Sendable {
    public private(set) var problems: [String: [String]] = [:]

    public init() {}

    /// Notes a problem with `field`.
    public mutating func refuse(_ field: String, _ why: String) {
        problems[field, default: []].append(why)
    }

    /// A whole number from `range`, nil when absent or refused (noted).
    public mutating func integer(_ field: String, _ raw: String?, in range: ClosedRange<Int64>) -> Int64? {
        guard let raw, !raw.isEmpty else { return nil }
        guard raw.utf8.count <= 20, let value = Int64(raw), range.contains(value) else {
            refuse(field, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return value
    }

    /// An id, key, name, topic or sender: 1 to `maxLength` characters, no control characters at all.
    public mutating func identifier(_ field: String, _ value: String?, maxLength: Int, required: Bool = false) {
        guard let value else {
            if required { refuse(field, "is required") }
            return
        }
        if let problem = Self.identifierProblem(value, maxLength: maxLength) { refuse(field, problem) }
    }

    /// A message text: at most `maxLength` characters; newline and tab are the only control characters kept.
    public mutating func text(_ field: String, _ value: String?, maxLength: Int) {
        guard let value else { return }
        if let problem = Self.textProblem(value, maxLength: maxLength) { refuse(field, problem) }
    }

    /// Throws one 400 naming every field refused so far.
    public func check(_ what: String) throws(APIError) {
        guard problems.isEmpty else {
            throw APIError.badRequest(what, validationErrors: problems)
        }
    }

    /// Why `value` is no identifier, nil when it is one.
    public static func identifierProblem(_ value: String, maxLength: Int) -> String? {
        if value.isEmpty { return "must not be empty" }
        if value.utf8.count > maxLength * 4 || value.count > maxLength { return "must have at most \(maxLength) characters" }
        if value.unicodeScalars.contains(where: isControl) { return "must not contain control characters (NUL, ESC, C0 or C1)" }
        return nil
    }

    /// Why `value` is no text, nil when it is one.
    public static func textProblem(_ value: String, maxLength: Int) -> String? {
        if value.utf8.count > maxLength * 4 || value.count > maxLength { return "must have at most \(maxLength) characters" }
        if value.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) {
            return "must not contain control characters other than newline and tab"
        }
        return nil
    }

    /// C0 (NUL to US), DEL and C1.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

extension ClosedRange where Bound == Int64 {
    /// The epoch milliseconds a wire time may hold: 1970 to the end of year 9999.
    public static var wireMilliseconds: ClosedRange<Int64> { 0...253_402_300_799_999 }
}
