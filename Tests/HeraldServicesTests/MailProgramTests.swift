import Foundation
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldServices

@Suite struct MailProgramTests {
    func inviter(_ command: ExternalCommand, env: [String: String] = ["PATH": "/usr/bin:/bin"]) -> MailProgram {
        MailProgram(command: command, environment: env)
    }

    /// A message from Ana, dated 2026-01-01 00:00 UTC.
    func message(to: EmailAddress, subject: String, body: String) throws -> EmailMessage {
        try EmailMessage(from: EmailAddress("ana@example.com", displayName: "Ana Horvat", field: "From"), to: [to], subject: subject,
                         body: body, date: Date(timeIntervalSince1970: 1_767_225_600), timeZone: TimeZone(identifier: "UTC")!)
    }

    @discardableResult
    func send(_ program: MailProgram, to: EmailAddress, subject: String, body: String) async throws -> EmailMessage {
        let m = try message(to: to, subject: subject, body: body)
        try await program.send(m)
        return m
    }

    @Test func messageIsPipedToTheMailProgramWithItsArguments() async throws {
        let dir = try TempDir()
        let out = dir.path("mail.txt"), args = dir.path("args.txt")
        let fake = try dir.script("fake-sendmail", "printf '%s\\n' \"$@\" > '\(args)'\ncat > '\(out)'")
        let sender = inviter(ExternalCommand(program: fake, arguments: ["-t", "-i"]))
        let sent = try await send(sender, to: EmailAddress("marko@example.org", displayName: "Marko Marić", field: "To"),
                                         subject: "Pridruži se", body: "Bok Marko!\nhttps://hrld.example/i/42")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written == sent.rendered(lineEnding: "\n"))
        let parsed = try ParsedEmail(written, lineEnding: "\n")
        #expect(parsed.decoded("To") == "Marko Marić <marko@example.org>")
        #expect(parsed.decoded("Subject") == "Pridruži se")
        #expect(parsed.value("Date") == "Thu, 01 Jan 2026 00:00:00 +0000")
        #expect(parsed.body == "Bok Marko!\nhttps://hrld.example/i/42\n")
        #expect(try String(contentsOfFile: args, encoding: .utf8) == "-t\n-i\n")
    }

    @Test func programFoundOnPATHIsUsed() async throws {
        let dir = try TempDir()
        let out = dir.path("mail.txt")
        try dir.script("sendmail", "cat > '\(out)'")
        let sender = inviter(MailProgram.defaultCommand, env: ["PATH": dir.url.path + ":/usr/bin:/bin"])
        #expect(sender.availability() == .available(path: dir.path("sendmail")))
        try await send(sender, to: EmailAddress("b@example.org"), subject: "Hi", body: "x")
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("Subject: Hi\n"))
    }

    @Test func failingProgramReportsItsExitStatusAndStderr() async throws {
        let dir = try TempDir()
        let fake = try dir.script("bad-sendmail", "cat > /dev/null\necho 'recipient rejected: no such user' >&2\nexit 67")
        let sender = inviter(ExternalCommand(program: fake))
        await #expect(throws: EmailError.mailerFailed(command: fake, status: 67, stderr: "recipient rejected: no such user\n")) {
            try await send(sender, to: EmailAddress("b@example.org"), subject: "Hi", body: "x")
        }
    }

    @Test func programThatExitsWithoutReadingDoesNotKillHerald() async throws {
        let dir = try TempDir()
        let fake = try dir.script("quits", "exit 3")
        let sender = inviter(ExternalCommand(program: fake))
        let huge = String(repeating: "0123456789abcdef\n", count: 64 * 1024) // 1 MiB, more than a pipe holds
        await #expect(throws: EmailError.mailerFailed(command: fake, status: 3, stderr: "")) {
            try await send(sender, to: EmailAddress("b@example.org"), subject: "Hi", body: huge)
        }
    }

    @Test func missingProgramIsUnavailableWithAReason() async throws {
        let dir = try TempDir()
        let sender = inviter(ExternalCommand(program: "herald-no-such-sendmail", arguments: ["-t"]), env: ["PATH": dir.url.path])
        guard case .unavailable(let reason) = sender.availability() else {
            Issue.record("expected unavailable"); return
        }
        #expect(reason.contains("herald-no-such-sendmail was not found on PATH"))
        await #expect(throws: EmailError.mailerUnavailable(reason: reason)) {
            try await send(sender, to: EmailAddress("b@example.org"), subject: "Hi", body: "x")
        }
    }

    @Test func nonExecutableProgramIsUnavailable() throws {
        let dir = try TempDir()
        let plain = try dir.script("sendmail", "cat", executable: false)
        let byPath = inviter(ExternalCommand(program: plain))
        #expect(byPath.availability() == .unavailable(reason: "\(plain) is not an executable file"))
        let onPath = inviter(MailProgram.defaultCommand, env: ["PATH": dir.url.path])
        #expect(onPath.availability() == .unavailable(reason: "\(plain) is not executable"))
    }

    @Test func headerInjectionNeverReachesTheProgram() async throws {
        let dir = try TempDir()
        let out = dir.path("mail.txt")
        let fake = try dir.script("fake", "cat > '\(out)'")
        let sender = inviter(ExternalCommand(program: fake))
        await #expect(throws: EmailError.lineBreakInHeader(field: "Subject")) {
            try await send(sender, to: EmailAddress("b@example.org"), subject: "Hi\nBcc: everyone@example.com", body: "x")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(arguments: [
        ("msmtp -t", ExternalCommand(program: "msmtp", arguments: ["-t"])),
        ("xclip -selection clipboard", ExternalCommand(program: "xclip", arguments: ["-selection", "clipboard"])),
        ("'/opt/my mail/sendmail' -t -f \"ana@example.com\"", ExternalCommand(program: "/opt/my mail/sendmail", arguments: ["-t", "-f", "ana@example.com"])),
        ("  wl-copy  ", ExternalCommand(program: "wl-copy")),
    ])
    func commandLinesAreSplitIntoWords(line: String, expected: ExternalCommand) throws {
        #expect(try ExternalCommand(parsing: line) == expected)
    }

    @Test(arguments: ["", "   ", "sendmail 'unclosed", "sendmail\n-t"])
    func badCommandLinesAreRefused(line: String) {
        #expect(throws: ExternalCommandError.self) { try ExternalCommand(parsing: line) }
    }
}
