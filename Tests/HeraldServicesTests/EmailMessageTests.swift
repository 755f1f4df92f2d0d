import Foundation
import Testing
@testable import HeraldCore

/// A minimal RFC 5322 reader for checking what was written.
struct ParsedEmail {
    var headers: [(String, String)] = []
    var rawBody = ""

    init(_ text: String, lineEnding: String = "\r\n") throws {
        let split = try #require(text.range(of: lineEnding + lineEnding))
        let head = String(text[..<split.lowerBound])
        rawBody = String(text[split.upperBound...])
        for line in head.components(separatedBy: lineEnding) {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                try #require(!headers.isEmpty)
                headers[headers.count - 1].1 += line
            } else {
                let colon = try #require(line.firstIndex(of: ":"))
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
        }
    }

    func value(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    func decoded(_ name: String) -> String? { value(name).map(MIMEEncoding.decodeHeader) }
    var body: String { MIMEEncoding.decodeQuotedPrintable(rawBody) }
}

@Suite struct EmailMessageTests {
    let date = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01 00:00:00 UTC

    func message(fromName: String? = "Ana Horvat", subject: String = "Join me on Herald",
                 body: String = "Hi!\nHere is the link.", toName: String? = "Marko") throws -> EmailMessage {
        try EmailMessage(from: EmailAddress("ana@example.com", displayName: fromName, field: "From"),
                         to: [EmailAddress("marko@example.org", displayName: toName, field: "To")],
                         subject: subject, body: body, date: date, messageId: "abc-1@example.com",
                         timeZone: TimeZone(identifier: "Europe/Zagreb")!)
    }

    @Test func plainMessageHasEveryHeaderAndParsesBack() throws {
        let text = try message().rendered()
        let parsed = try ParsedEmail(text)
        #expect(parsed.headers.map(\.0) == ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version",
                                             "Content-Type", "Content-Transfer-Encoding"])
        #expect(parsed.value("From") == "Ana Horvat <ana@example.com>")
        #expect(parsed.value("To") == "Marko <marko@example.org>")
        #expect(parsed.value("Subject") == "Join me on Herald")
        #expect(parsed.value("Date") == "Thu, 01 Jan 2026 01:00:00 +0100")
        #expect(parsed.value("Message-ID") == "<abc-1@example.com>")
        #expect(parsed.value("MIME-Version") == "1.0")
        #expect(parsed.value("Content-Type") == "text/plain; charset=utf-8")
        #expect(parsed.value("Content-Transfer-Encoding") == "quoted-printable")
        #expect(parsed.body == "Hi!\nHere is the link.\n")
        // Every line ends in CRLF: no bare LF anywhere.
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func nonASCIINamesAndSubjectsBecomeEncodedWords() throws {
        let subject = "Pridruži se — Herald 🎉 " + String(repeating: "čćžšđ ", count: 12)
        let text = try message(fromName: "Ana Žužić", subject: subject, body: "Bok Šime, evo poveznice: https://hrld.example/x?a=1&b=2").rendered()
        let parsed = try ParsedEmail(text)
        // Nothing but ASCII goes on the wire.
        #expect(text.utf8.allSatisfy { $0 < 0x80 })
        #expect(parsed.value("From")?.hasPrefix("=?UTF-8?B?") == true)
        #expect(parsed.decoded("From") == "Ana Žužić <ana@example.com>")
        #expect(parsed.decoded("Subject") == subject)
        #expect(parsed.body == "Bok Šime, evo poveznice: https://hrld.example/x?a=1&b=2\n")
        // RFC 2047: encoded-words at most 75 characters; RFC 5322: lines at most 78.
        for line in text.components(separatedBy: "\r\n") {
            #expect(line.count <= 78, "line too long: \(line)")
        }
    }

    @Test func longNamesAndSeveralRecipientsAreFoldedAndParseBack() throws {
        let longName = "Marija Terezija Ana-Katarina Žužić-Šimunović od Hrvatskog Zagorja i Međimurja"
        let msg = try EmailMessage(from: EmailAddress("ana@example.com", displayName: longName),
                                   to: [EmailAddress("a@example.org", displayName: longName), EmailAddress("b@example.org", displayName: "Bo Li")],
                                   subject: "Hi", body: "x", date: date)
        let text = msg.rendered()
        let parsed = try ParsedEmail(text)
        #expect(parsed.decoded("From") == "\(longName) <ana@example.com>")
        #expect(parsed.decoded("To") == "\(longName) <a@example.org>, Bo Li <b@example.org>")
        for line in text.components(separatedBy: "\r\n") { #expect(line.count <= 78, "line too long: \(line)") }
    }

    @Test func namesWithSpecialsAreQuoted() throws {
        let ascii = try ParsedEmail(try message(fromName: "Horvat, Ana \"A\"").rendered())
        #expect(ascii.value("From") == "\"Horvat, Ana \\\"A\\\"\" <ana@example.com>")
    }

    @Test func longLinesAndSpecialLinesAreSafeInQuotedPrintable() throws {
        let long = String(repeating: "žabe i rode ", count: 20)
        let body = long + "\n.\nFrom here on\ntrailing space \n=equals="
        let text = try message(body: body).rendered()
        let parsed = try ParsedEmail(text)
        #expect(parsed.body == body + "\n")
        let bodyLines = parsed.rawBody.components(separatedBy: "\r\n")
        #expect(bodyLines.allSatisfy { $0.count <= 76 })
        #expect(!bodyLines.contains("."))
        #expect(!bodyLines.contains { $0.hasPrefix("From ") })
    }

    @Test(arguments: [
        ("subject", "Hello\r\nBcc: victim@example.com"),
        ("subject", "Hello\nBcc: victim@example.com"),
        ("name", "Ana\rBcc: x@example.com"),
        ("address", "ana@example.com\nBcc: x@example.com"),
    ])
    func lineBreaksInHeadersAreRefused(field: String, value: String) {
        #expect(throws: EmailError.self) {
            switch field {
            case "subject": _ = try message(subject: value)
            case "name": _ = try message(fromName: value)
            default: _ = try EmailAddress(value, field: "To")
            }
        }
    }

    @Test func injectionErrorNamesTheField() {
        #expect(throws: EmailError.lineBreakInHeader(field: "Subject")) { try message(subject: "a\nb") }
        #expect(throws: EmailError.lineBreakInHeader(field: "From")) { try message(fromName: "a\u{2028}b") }
        #expect(throws: EmailError.controlCharacterInHeader(field: "Subject")) { try message(subject: "a\u{1B}[31mb") }
    }

    @Test(arguments: ["no-at-sign", "@example.com", "ana@", "a b@example.com", "<ana@example.com>", "ana@b@example.com", "ž@example.com"])
    func invalidAddressesAreRefused(address: String) {
        #expect(throws: EmailError.self) { try EmailAddress(address, field: "To") }
    }

    @Test func generatedMessageIdUsesTheSenderDomain() throws {
        let msg = try EmailMessage(from: EmailAddress("ana@example.com"), to: [EmailAddress("b@example.org")],
                                   subject: "s", body: "b", date: date)
        #expect(msg.messageId.hasSuffix("@example.com"))
        #expect(try ParsedEmail(msg.rendered()).value("From") == "ana@example.com")
    }
}
