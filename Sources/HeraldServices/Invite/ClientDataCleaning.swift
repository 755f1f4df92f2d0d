import HeraldAPI
import HeraldCore

/// The `clientData` of one recipient, made fit for any platform before it leaves. Names come from cards, CSV files
/// and CardDAV servers and may hold control characters or escape sequences; a platform refuses such a value, and
/// one dirty name must not fail the send of everyone else. Values are cleaned with the terminal's sanitiser (the
/// same characters are unwanted in an SMS) and cut to the wire's limit, so the preview shows what is sent.
enum ClientDataCleaning {
    /// The wire `clientData` for these field values, each value cleaned.
    static func clientData(from values: [String: String]) -> [String] {
        MessageTemplate.clientData(from: values).enumerated().map { j, value in
            // The custom text may be several lines (the template may lay it out so); every other field is one line.
            let multiLine = j < ClientField.allCases.count && ClientField.allCases[j] == .customText
            return clean(value, singleLine: !multiLine)
        }
    }

    /// `value` without control characters, escape sequences or bidi overrides, within the wire's length.
    static func clean(_ value: String, singleLine: Bool) -> String {
        cut(TerminalSafeText.sanitize(value, singleLine: singleLine), to: SendInvitationBody.Destination.maxClientDataLength)
    }

    /// At most `limit` characters and `limit` × 4 UTF-8 bytes (the platform counts both), cut between characters.
    static func cut(_ text: String, to limit: Int) -> String {
        if text.utf8.count <= limit { return text }
        if text.count <= limit, text.utf8.count <= limit * 4 { return text }
        var out = ""
        var characters = 0, bytes = 0
        for character in text {
            let size = character.utf8.count
            if characters == limit || bytes + size > limit * 4 { break }
            out.append(character)
            characters += 1
            bytes += size
        }
        return out
    }
}
