import Foundation
import HeraldTestKit
import Testing
@testable import HeraldCore
@testable import HeraldServices

/// A line that is only "." ends the message for sendmail run without `-i`: the rest (often the link) was lost while
/// Herald recorded the email as sent. Herald passes `-i`, and its encoder never writes such a line either, so a
/// mail program configured without `-i` gets the whole message too.
@Suite struct MailProgramLoneDotTests {
    /// Acts as sendmail does: stops reading at a line that is only "." unless given -i or -oi, and files what it read.
    static func sendmailScript(writingTo out: String) -> String {
        """
        dots=1
        for a in "$@"; do case "$a" in -i|-oi) dots=0;; esac; done
        : > '\(out)'
        while IFS= read -r line || [ -n "$line" ]; do
          if [ $dots = 1 ] && [ "$line" = "." ]; then exit 0; fi
          printf '%s\\n' "$line" >> '\(out)'
        done
        """
    }

    /// 75 characters and a full stop: quoted-printable's soft break leaves the "." alone on the next line.
    static let body = String(repeating: "x", count: 75) + ".\nJoin me: https://hrld.example/i/42"

    func send(_ command: ExternalCommand, path: String, out: String) async throws {
        let message = try EmailMessage(from: EmailAddress("ana@example.com"), to: [EmailAddress("marko@example.org")],
                                       subject: "Hi", body: Self.body, date: Date(timeIntervalSince1970: 1_767_225_600))
        try await MailProgram(command: command, environment: ["PATH": path + ":/usr/bin:/bin"]).send(message)
    }

    @Test func theDefaultSendmailGetsTheWholeMessage() async throws {
        let dir = try TempDir()
        let out = dir.path("mail.txt")
        try dir.script("sendmail", Self.sendmailScript(writingTo: out))
        try await send(MailProgram.defaultCommand, path: dir.url.path, out: out)
        let parsed = try ParsedEmail(try String(contentsOfFile: out, encoding: .utf8), lineEnding: "\n")
        #expect(parsed.body == Self.body + "\n", "the link reached the mail program")
        #expect(MailProgram.defaultCommand.arguments.contains("-i"))
    }

    @Test func aMailProgramConfiguredWithoutDashIGetsTheWholeMessageToo() async throws {
        let dir = try TempDir()
        let out = dir.path("mail.txt")
        let fake = try dir.script("my-sendmail", Self.sendmailScript(writingTo: out))
        try await send(ExternalCommand(program: fake, arguments: ["-t"]), path: dir.url.path, out: out)
        let parsed = try ParsedEmail(try String(contentsOfFile: out, encoding: .utf8), lineEnding: "\n")
        #expect(parsed.body == Self.body + "\n", "the link reached the mail program")
    }

    /// Every place a soft break can fall: no encoded line is "." alone or starts with "From " (which mbox files
    /// mangle), every line keeps within 76 characters, and the text decodes back unchanged.
    @Test(arguments: [".", "From me", ".\u{17E}", "=."])
    func noSoftBreakLeavesALoneDotOrAFromLine(tail: String) {
        for length in 0...160 {
            let text = String(repeating: "a", count: length) + tail + "\nnext line"
            let encoded = MIMEEncoding.quotedPrintable(text, lineEnding: "\n")
            let lines = encoded.components(separatedBy: "\n")
            #expect(!lines.contains("."), "a lone dot after \(length) characters: \(lines)")
            #expect(!lines.contains { $0.hasPrefix("From ") }, "a From line after \(length) characters: \(lines)")
            #expect(lines.allSatisfy { $0.count <= 76 }, "\(lines)")
            #expect(MIMEEncoding.decodeQuotedPrintable(encoded) == text)
        }
    }
}
