import Foundation

/// Phone numbers and email addresses as someone who needs to recognise them, not reach them, sees them (a support
/// desk's viewer key on a Herald server): `+385981234567` → `+385 98 ••• 4567`, `ana@example.com` →
/// `a•••@example.com`. Pure: the same text always masks the same way, and a masked text masks to itself.
public enum PersonalDataMask {
    /// What stands for the hidden digits or letters.
    public static let bullets = "•••"

    /// The fewest digits of a national number that stay hidden.
    static let minimumHidden = 3

    /// A number or address as a viewer sees it: a phone number (E.164 with or without the `+`, `tel:`, `00`) keeps its
    /// country code, the first group of the national number (as long as three digits stay hidden) and its last
    /// digits; an email address keeps the first letter of its local part and its domain; anything else that holds at
    /// least three digits keeps at most its last two. Text with no digits and no `@` is returned as it is.
    public static func mask(_ address: String) -> String {
        let text = address.trimmingCharacters(in: .whitespaces)
        if text.contains(bullets) { return address }
        if text.contains("@") { return maskEmail(text) }
        if let phone = maskPhone(text) { return phone }
        return maskDigits(text) ?? address
    }

    /// An email address masked: `a•••@example.com` (a local part of one letter: `•••@example.com`).
    public static func maskEmail(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return bullets }
        let local = text[..<at], domain = text[text.index(after: at)...]
        let kept = local.count > 1 ? String(local.prefix(1)) : ""
        return kept + bullets + "@" + domain
    }

    /// A phone number masked (`+385 98 ••• 4567`), nil when `text` is not an international number libphonenumber reads.
    public static func maskPhone(_ text: String) -> String? {
        var digits = text
        if digits.lowercased().hasPrefix("tel:") { digits = String(digits.dropFirst(4)) }
        if digits.hasPrefix("00") { digits = String(digits.dropFirst(2)) }
        if digits.hasPrefix("+") { digits = String(digits.dropFirst()) }
        // Fewer than seven digits is no international number (libphonenumber would still format "12345" as "+1 2345").
        guard digits.count >= 7, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // Only the digits count: a grouping the carrier wrote ("385 98…") is read as the same number.
        let e164 = "+" + digits
        let readable = PhoneNumberParser.readable(e164)
        guard readable != e164 else { return nil }
        // "+385 98 123 4567" / "+1 201-555-0123": the country code is the first group, the national number the rest.
        let groups = readable.dropFirst().split(whereSeparator: { !$0.isNumber }).map(String.init)
        guard groups.count >= 2, digits.hasPrefix(groups[0]) else { return nil }
        let countryCode = groups[0]
        let national = String(digits.dropFirst(countryCode.count))
        let last = national.count >= 8 ? 4 : national.count >= 6 ? 2 : 1
        let room = national.count - last - minimumHidden
        let first = max(0, min(groups[1].count, room))
        var out = "+" + countryCode + " "
        if first > 0 { out += national.prefix(first) + " " }
        return out + bullets + " " + national.suffix(last)
    }

    /// Digits that are not a number libphonenumber knows (a short code, a national number) masked: at most the last
    /// two kept, never more than a third of them; nil when `text` holds fewer than three digits.
    static func maskDigits(_ text: String) -> String? {
        let digits = text.filter { $0.isASCII && $0.isNumber }
        guard digits.count >= 3 else { return nil }
        let kept = min(2, digits.count / 3)
        return bullets + (kept > 0 ? " " + digits.suffix(kept) : "")
    }

    /// Free text (an error message, a failure reason) with every phone number and email address in it masked;
    /// numbers are runs of seven to fifteen digits (spaces between them allowed after a `+`), so ids, prices
    /// and dates stay as they are.
    public static func maskText(_ text: String) -> String {
        guard text.contains(where: { $0.isNumber || $0 == "@" }) else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            if let (end, masked) = contact(in: text, at: index) {
                out += masked
                index = end
            } else {
                out.append(text[index])
                index = text.index(after: index)
            }
        }
        return out
    }

    /// The phone number or email address that starts at `start` of `text`, with its end and its mask; nil when none
    /// does (or `start` is inside a word, a longer number or an id).
    private static func contact(in text: String, at start: String.Index) -> (String.Index, String)? {
        let c = text[start]
        if start > text.startIndex {
            let before = text[text.index(before: start)]
            if before.isLetter || before.isNumber || before == "_" || before == "-" || before == "." || before == "+" || before == "@" { return nil }
        }
        if isEmailCharacter(c), let (end, email) = email(in: text, at: start) { return (end, maskEmail(email)) }
        guard c == "+" || isDigit(c) else { return nil }
        var digits = "", end = start
        var i = c == "+" ? text.index(after: start) : start
        while i < text.endIndex {
            let ch = text[i]
            if isDigit(ch) {
                digits.append(ch)
                i = text.index(after: i)
                end = i
            } else if c == "+", ch == " ", end == i, text.index(after: i) < text.endIndex, isDigit(text[text.index(after: i)]) {
                i = text.index(after: i)        // "+385 98 123 4567": spaces only after a "+", between digits
            } else {
                break
            }
        }
        // A number glued to letters ("12345678ab") is an id, not a phone number.
        if end < text.endIndex, text[end].isLetter || text[end] == "_" || text[end] == "-" { return nil }
        guard digits.count >= 7, digits.count <= 15 else { return nil }
        let masked = maskPhone((c == "+" ? "+" : "") + digits) ?? maskDigits(digits) ?? bullets
        return (end, masked)
    }

    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    private static func isEmailCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "._%+-".contains(c))
    }

    /// An email address starting at `start`: a local part, `@`, a domain with a dot.
    private static func email(in text: String, at start: String.Index) -> (String.Index, String)? {
        var i = start
        while i < text.endIndex, isEmailCharacter(text[i]) { i = text.index(after: i) }
        guard i > start, i < text.endIndex, text[i] == "@" else { return nil }
        var j = text.index(after: i)
        let domainStart = j
        while j < text.endIndex, text[j].isASCII, text[j].isLetter || text[j].isNumber || text[j] == "-" || text[j] == "." {
            j = text.index(after: j)
        }
        var domain = text[domainStart..<j]
        while domain.last == "." { domain = domain.dropLast(); j = text.index(before: j) }
        guard domain.contains("."), domain.first != "." else { return nil }
        return (j, String(text[start..<j]))
    }
}
