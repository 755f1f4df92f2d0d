import Foundation

/// A mailbox: an address and an optional display name ("Ana Horvat <ana@example.com>").
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    public let displayName: String?
    public let address: String

    /// Checks the address (one `@`, no spaces, no brackets, ASCII) and the name (no line breaks).
    /// `field` names the header for the error ("From", "To").
    public init(_ address: String, displayName: String? = nil, field: String = "address") throws {
        let trimmed = address.trimmingCharacters(in: .whitespaces)
        try EmailError.refuseLineBreaks(in: trimmed, field: field)
        if let displayName { try EmailError.refuseLineBreaks(in: displayName, field: field) }
        guard let at = trimmed.lastIndex(of: "@"),
              at != trimmed.startIndex,
              trimmed.index(after: at) != trimmed.endIndex else {
            throw EmailError.invalidAddress(field: field, address: trimmed, problem: "it needs the form name@domain")
        }
        let forbidden = Set("<>()[]\\,;: \t\"")
        guard !trimmed.contains(where: { forbidden.contains($0) }) else {
            throw EmailError.invalidAddress(field: field, address: trimmed, problem: "it contains a space, bracket, quote or separator")
        }
        guard trimmed.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw EmailError.invalidAddress(field: field, address: trimmed, problem: "only ASCII addresses are supported")
        }
        guard trimmed.filter({ $0 == "@" }).count == 1 else {
            throw EmailError.invalidAddress(field: field, address: trimmed, problem: "it contains more than one @")
        }
        let name = displayName?.trimmingCharacters(in: .whitespaces)
        self.address = trimmed
        self.displayName = (name?.isEmpty ?? true) ? nil : name
    }

    /// A mailbox as people write it: "Ana Horvat <ana@example.com>", "\"Horvat, Ana\" <ana@example.com>" or a bare address.
    public init(mailbox: String, field: String = "address") throws {
        let text = mailbox.trimmingCharacters(in: .whitespaces)
        guard text.hasSuffix(">"), let open = text.lastIndex(of: "<") else {
            try self.init(text, field: field)
            return
        }
        var name = text[..<open].trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        try self.init(String(text[text.index(after: open)..<text.index(before: text.endIndex)]),
                      displayName: name.isEmpty ? nil : name, field: field)
    }

    /// The domain part ("example.com").
    public var domain: String {
        address.lastIndex(of: "@").map { String(address[address.index(after: $0)...]) } ?? address
    }

    /// The header form: the name as a quoted string or RFC 2047 encoded-words, then `<address>`.
    public var headerValue: String { headerTokens.joined(separator: " ") }

    /// The header form as unbreakable pieces, for folding.
    var headerTokens: [String] {
        guard let name = displayName else { return [address] }
        return Self.encodeDisplayName(name) + ["<" + address + ">"]
    }

    public var description: String {
        displayName.map { "\($0) <\(address)>" } ?? address
    }

    static func encodeDisplayName(_ name: String) -> [String] {
        if MIMEEncoding.isPlainHeaderText(name) {
            let atext = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || "!#$%&'*+-/=?^_`{|}~".contains($0) }
            if atext { return name.split(separator: " ").map(String.init) }
            let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return ["\"" + escaped + "\""]
        }
        return MIMEEncoding.encodedWords(name)
    }
}
