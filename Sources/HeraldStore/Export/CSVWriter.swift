import Foundation
import HeraldCore

/// Writes people as CSV with Google Contacts' newer headers ("First Name", "Phone 1 - Label",
/// "Phone 1 - Value"…), which Herald and Google both import.
public struct CSVWriter: Sendable {
    public let phoneColumns: Int
    public let emailColumns: Int

    public init(phoneColumns: Int, emailColumns: Int) {
        self.phoneColumns = max(phoneColumns, 1)
        self.emailColumns = max(emailColumns, 1)
    }

    public var header: String {
        var h = ["First Name", "Last Name", "Name", "Organization Name", "UID"]
        for i in 1...emailColumns { h += ["E-mail \(i) - Label", "E-mail \(i) - Value"] }
        for i in 1...phoneColumns { h += ["Phone \(i) - Label", "Phone \(i) - Value"] }
        return h.map(Self.field).joined(separator: ",") + "\r\n"
    }

    public func row(_ p: Person) -> String {
        var r = [p.firstName, p.lastName, p.displayName, p.organization ?? "", p.uid ?? ""]
        for i in 0..<emailColumns {
            r += i < p.emails.count ? [p.emails[i].label ?? "", p.emails[i].address] : ["", ""]
        }
        for i in 0..<phoneColumns {
            r += i < p.phones.count ? [p.phones[i].label ?? "", p.phones[i].number.e164 ?? p.phones[i].number.raw] : ["", ""]
        }
        return r.map(Self.field).joined(separator: ",") + "\r\n"
    }

    /// RFC 4180 quoting when needed, after the formula guard.
    static func field(_ s: String) -> String {
        let s = formulaGuarded(s)
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == ";" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The first characters with which a spreadsheet reads a cell as a formula (OWASP's CSV injection list).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// A name like `=HYPERLINK(…)` from an imported card would run when the export is opened in a spreadsheet: a
    /// leading `'` makes it text there. A number strictly in E.164 (`+` and up to 15 digits) stays a number. A value
    /// that already starts with quotes before a formula character gets one more, so the import, which takes exactly
    /// one off (`CSVContactReader.withoutFormulaGuard`), gives back what was stored.
    static func formulaGuarded(_ s: String) -> String {
        guard let first = s.unicodeScalars.first(where: { $0 != "'" }), formulaStarts.contains(first) else { return s }
        if isStrictE164(s) { return s }
        return "'" + s
    }

    static func isStrictE164(_ s: String) -> Bool {
        let digits = s.utf8.dropFirst()
        return s.utf8.first == UInt8(ascii: "+") && (1...15).contains(digits.count)
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
